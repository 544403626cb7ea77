/*
 * What an endpoint of the Mini App's API is handed and how it refuses: the checked launch, the
 * account it acts for with its partner API client, the user's words, and the services it runs.
 */
import type { PartnerApi } from '../api/index.js';
import type { WordsOf } from '../core/dns-words.js';
import type { Capability } from '../core/team.js';
import type { DnsRecorder } from '../services/dns-journal.js';
import type { InvoiceCardPort } from '../services/invoice-cards.js';
import type { OrderPlacing } from '../services/order-placing.js';
import type { SavedCustomers } from '../services/saved-customers.js';
import type { ZoneEditing } from '../services/zone-editing.js';
import type { Locale } from '../storage/chat-store.js';
import type { Account } from './access.js';
import type { AnswerOf, EndpointName, ParsedRequestOf, Refusal } from './contract.js';
import type { LaunchData } from './init-data.js';
import type { StatementFileLinks } from './statement-files.js';

/** The partner API calls the endpoints make. */
export type MiniAppPartnerApi = PartnerApi;

/** What the endpoints run below both faces (main builds them). */
export interface MiniAppServices {
  zoneEditing: ZoneEditing;
  orderPlacing: OrderPlacing;
  /** The account chat's saved customers (the chat's /requisites keeps the same ones). */
  customers: SavedCustomers;
  /** «Счета»'s Share: the bot prepares the invoice's inline card for the user. */
  invoiceCards: InvoiceCardPort;
  /** The DNS history every face records (the home's latest changes read it). */
  dnsHistory: Pick<DnsRecorder, 'list'>;
}

/** One checked call: who, which account, its client, the request as the contract parsed it, the user's words. */
export interface EndpointCall<In = unknown> {
  launch: LaunchData;
  account: Account;
  api: MiniAppPartnerApi;
  /** A GET's query parameters or a POST's body, parsed with the endpoint's request schema. */
  input: In;
  /** Translates into the user's language (the launch's, else the browser's, else the default). */
  t: WordsOf;
  /** That language (money and numbers are formatted in it). */
  locale: Locale;
  services: MiniAppServices;
  /** Today's clock for invoices' and domains' days (`npm run dev`: its sandbox's, as the watchers'). */
  clock: () => Date;
  /** The signed, short-lived addresses of statement files (served by this server). */
  files: StatementFileLinks;
  /** The accounts the session may switch to (the chat's; a team group's one), never a token. */
  listAccounts(): Promise<{ n: number; name: string | undefined; active: boolean }[]>;
}

/**
 * A refusal an endpoint answers with: its status, the `error` code (a key of the `miniapp:error`
 * locale namespace), the words the message interpolates, and fields added to the answer (the
 * problems of each edit, or a message of its own) — the contract's `refusalSchema` names them.
 */
export class EndpointError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly vars: Record<string, string> = {},
    readonly extra: Partial<Omit<Refusal, 'error'>> = {},
  ) {
    super(code);
    this.name = 'EndpointError';
  }
}

/** The call an endpoint of that name is handed. */
export type CallOf<N extends EndpointName> = EndpointCall<ParsedRequestOf<N>>;

/** An endpoint: what the member's role must allow (as the same command in the chat), and its work. */
export interface Endpoint<N extends EndpointName> {
  need: Capability;
  run(call: CallOf<N>): Promise<AnswerOf<N>> | AnswerOf<N>;
}
