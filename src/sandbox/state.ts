/**
 * The in-memory model of one sandbox instance. Field names follow partner-api.md where a value
 * is rendered as-is; everything else (kinds, rates, owners) is sandbox bookkeeping that never
 * appears on the wire.
 */

export type OrderKind = 'hosting' | 'mail' | 'ssl' | 'domain';

export type CustomerType = 'NaturalPerson' | 'IndividualBusinessman' | 'JuridicalPerson';

/** Whose order/document it is: ours, or another partner's (→ 403, never listed). */
export type Owner = 'self' | 'foreign';

export interface Currency {
  currency_id: number;
  currency_code: string;
  currency_name: string;
  /** How many BYN one unit of this currency is worth; tariff prices are kept in BYN. */
  rate: number;
}

export interface Service {
  service_id: number;
  canonical_name: string;
  name: string;
  kind: OrderKind;
}

export interface Price {
  period: number;
  price: number;
}

export interface Tariff {
  tariff_id: number;
  tariff_name: string;
  service_id: number;
  kind: OrderKind;
  period_type: 'month' | 'year';
  archived: boolean;
  /** Total price in BYN for each supported period, discounts applied. */
  prices: Price[];
}

/** Which WHOIS rules a zone follows: the Belarusian registry, the Russian one, or none. */
export type WhoisRules = 'by' | 'ru' | 'none';

export interface Zone {
  domain_zone_id: number;
  /** Zone suffix in lower case, IDN zones in Unicode (`бел`, `рф`). */
  name: string;
  min_period: number;
  max_period: number;
  actual_registration_tariff_id: number;
  /** Per year, in BYN. */
  registration_price: number;
  actual_renew_tariff_id: number;
  /** Per year, in BYN. */
  renew_price: number;
  period_type: 'year';
  whois: WhoisRules;
}

export interface PriceListTariff {
  tariff_id: number;
  tariff_name: string;
  service_id: number;
  archived: boolean;
  period_type: 'month' | 'year';
  currency_id: number;
  prices: Price[];
}

export interface PriceListEdition {
  /** `DD.MM.YYYY`: the date from which this edition is valid. */
  as_of_date: string;
  tariffs: PriceListTariff[];
}

export interface PriceList {
  number: number;
  description: string;
  /** Oldest first. */
  editions: PriceListEdition[];
}

export interface NameServer {
  ns: string;
  ip: string | null;
}

export type DnsType = 'NS' | 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'SRV';

export interface DnsRecord {
  record_id: number;
  type: DnsType;
  ttl: number;
  /** `<host> <rdata>`, rendered when the record is added. */
  value: string;
}

export type OrderDetails =
  | { kind: 'hosting'; tariff_id: number; domain: string | null }
  | { kind: 'mail'; tariff_id: number }
  | {
      kind: 'ssl';
      tariff_id: number;
      domain: string | null;
      use_csr: boolean;
      valid_from_date: string | null;
      valid_till_date: string | null;
    }
  | {
      kind: 'domain';
      domain: string;
      registered: boolean;
      renewed: boolean;
      registration_tariff_id: number;
      renew_tariff_id: number;
      servers: NameServer[];
      records: DnsRecord[];
    };

export interface Order {
  order_id: number;
  owner: Owner;
  service_id: number;
  number: string;
  state: string;
  /** `DD.MM.YYYY HH:MM`. */
  order_datetime: string;
  complete_date: string | null;
  expiration_date: string | null;
  currency_id: number;
  period_unit_type: string;
  period_unit_count: number;
  paid: boolean;
  completed: boolean;
  business_entity_type: CustomerType;
  details: OrderDetails;
}

export interface Invoice {
  invoice_id: number;
  owner: Owner;
  invoice_number: string;
  order_id: number;
  creation_date: string;
  expiration_date: string;
  amount: number;
  currency_id: number;
  state: string;
}

export interface Payment {
  payment_id: number;
  invoice_id: number;
  payment_date: string;
  amount: number;
}

export interface Statement {
  statement_id: number;
  owner: Owner;
  statement_number: string;
  order_id: number;
  from_date: string;
  to_date: string;
  amount: number;
  currency_id: number;
}

export interface PartnerStatement {
  partner_statement_id: number;
  partner_statement_number: string;
  from_date: string;
  to_date: string;
}

export interface SandboxState {
  currencies: Currency[];
  services: Service[];
  tariffs: Tariff[];
  zones: Zone[];
  priceLists: PriceList[];
  orders: Order[];
  invoices: Invoice[];
  payments: Payment[];
  statements: Statement[];
  partnerStatements: PartnerStatement[];
  /** Domains registered elsewhere (ASCII, lower case): always answered as taken. */
  takenDomains: string[];
  /** The provider's name servers set by `PUT …/dns/servers/hosting` and `…/editor`. */
  hostingServers: NameServer[];
  editorServers: NameServer[];
  nextIds: { order: number; invoice: number; record: number };
  /**
   * How far the sandbox's "now" is from the machine's, in ms (set by the clock control call);
   * absent = the real time. Optional so that snapshots kept before it existed still load.
   */
  clockOffsetMs?: number;
}

/** Rounds a money amount to kopecks/cents. */
export function money(value: number): number {
  return Math.round(value * 100) / 100;
}
