/*
 * The order form's wire contract with its server (src/mini-app/order-endpoints.ts): what the
 * catalog, the domain check and Confirm answer. The app is its own build and imports no server
 * code; these mirror the server's answers.
 */

/** One period a form may choose: its count, its words, its total price in words. */
export interface PeriodOption {
  count: number;
  label: string;
  price: number | null;
  priceText: string;
}

export interface Catalog {
  kind: Kind;
  kinds: { kind: Kind; name: string }[];
  currencyId: number;
  currencies: { id: number; code: string }[];
  customers: { id: string; label: string; typeName: string }[];
  /** A domain's zones (kind `domain`). */
  zones?: { name: string; periods: PeriodOption[] }[];
  /** A tariff kind's tariffs. */
  tariffs?: { id: number; name: string; serviceId: number; periods: PeriodOption[] }[];
}

export type Kind = 'domain' | 'hosting' | 'mail' | 'ssl';

export interface DomainCheck {
  available: boolean;
  premium?: boolean;
  /** ASCII. */
  domain?: string;
  zone?: string;
  /** The zone's WHOIS rules: a customer entered for this domain is asked them at once. */
  whois?: 'by' | 'ru';
  message: string;
}

/** What Confirm sends. */
export interface OrderRequest {
  key: string;
  kind: Kind;
  currencyId: number;
  period: number;
  customerId: string;
  tariffId?: number;
  domain?: string;
}

export interface Placed {
  orderId: number | null;
  invoiceNumber: string | null;
  again: boolean;
  message: string;
  /** Where the invoice's link went (the chat with the bot, or the team group's). */
  linkSentTo: string;
}
