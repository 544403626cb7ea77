import type { Context, Scenes } from 'telegraf';
import type { NameServerInput, PartnerApi } from '../api/index.js';
import type { BulkDraft } from '../core/dns-bulk.js';
import type { PendingChange, RecordChangePlan } from '../core/dns-change.js';
import type { ImportPlan } from '../core/dns-plan.js';
import type { PresetDraft } from '../core/dns-preset-plan.js';
import type { Role } from '../core/team.js';
import type { Locale } from '../storage/chat-store.js';
import type { MemberMessages } from './kit/ephemeral-api.js';
import type { Translate } from './kit/i18n.js';
import type { ScreenPort } from './kit/screen.js';

/** Scene state kept in the session; each scene narrows its own part. */
export type SceneState = Scenes.SceneSessionData;

/** Name servers typed by the partner, waiting for the confirming button. */
export interface PendingNameServers {
  orderId: number;
  servers: NameServerInput[];
}

/**
 * What the session holds: telegraf's scene bookkeeping and the DNS changes waiting for their
 * confirming button; everything else is in ChatData.
 */
export interface BotSession extends Scenes.SceneSession<SceneState> {
  /** An import plan until its Apply button (single use). */
  dnsImport?: ImportPlan | undefined;
  /** A DNS preset while its parameters are asked, then its plan until Apply (single use). */
  dnsPreset?: PresetDraft | undefined;
  /** `/dns bulk`: the chosen domains, the change, then the per-domain plans until Apply (single use). */
  dnsBulk?: BulkDraft | undefined;
  /** A record change between its provider calls (written at once; a kill leaves it to finish). */
  dnsChange?: PendingChange | undefined;
  /** `/dns <domain> set …` replacing several records: its plan until the Yes button (single use). */
  dnsSet?: { id: string; orderId: number; plan: RecordChangePlan } | undefined;
  /** Custom name servers until their Yes button. */
  nsPending?: PendingNameServers | undefined;
  /** The nonce of the last Confirm that went through: a second tap on it is told so. */
  confirmed?: { nonce: string; toast: string } | undefined;
  /** In groups: each member's open form, by user id (middlewares/member-scenes.ts). */
  memberScenes?: Record<string, SceneState> | undefined;
  /** The account the open form or draft started with: its answers act on it (middlewares/account.ts). */
  account?: number | undefined;
}

/** The account an update acts on (middlewares/account.ts). */
export interface AccountInUse {
  /** Its number in the chat. */
  readonly n: number;
  /** Whether the chat holds more than one account (then screens are headed with its name). */
  many: boolean;
  /** The numbers of every account of the chat, this one's included. */
  numbers: readonly number[];
  /** What the partner calls it: their own name, else the provider's name of the partner, else «Аккаунт N». */
  label(): Promise<string>;
}

/** The context every handler gets: telegraf's, plus language and the chat's partner API. */
export interface BotContext extends Context {
  session: BotSession;
  scene: Scenes.SceneContextScene<BotContext, SceneState>;
  /** The chat's language for this update. */
  locale: Locale;
  /** Translates in the chat's language. */
  t: Translate;
  /**
   * The chat's partner API client; throws `NoTokenError` when no token is stored. `account` names
   * another chat whose token to use: only a team group's, for a member whose seat there was just
   * checked (team-orders.ts: an order of the group filled in the member's private chat).
   */
  partnerApi(account?: number): Promise<PartnerApi>;
  /**
   * The account this update acts on: the one a pressed button was made for, the one an open form
   * started with, else the active one. Undefined in a chat without accounts, and in inline mode.
   */
  account?: AccountInUse | undefined;
  /**
   * Says this update's answers speak of the account's data: in a chat of several accounts they
   * are headed with its name. `partnerApi()` says so by itself.
   */
  headAccount(): void;
  /**
   * From now on this update acts on account `n` of the chat (a named domain or invoice found in
   * another account): the token, the buttons' stamp and the heading follow. Only in a chat with
   * accounts, for one of its numbers.
   */
  actOnAccount(n: number): void;
  /**
   * Who sent this update in a group bound by `/team` (set by the role guard, team-guard.ts);
   * undefined anywhere else. The announcer (team-announce.ts) names them.
   */
  teamMember?: { name: string; role: Role } | undefined;
  /** Sends and edits the screens that are tables or documents: rich messages, or HTML (kit/screens.ts). */
  screens: ScreenPort<BotContext>;
  /**
   * Messages for the update's sender alone: ephemeral in groups where the Bot API server takes
   * them, ordinary elsewhere (kit/member-messages.ts).
   */
  toMember: MemberMessages;
}

/**
 * What the bot tells the watchers behind /notify (main.ts hands them in; the bot does not import
 * them): a token connected or forgotten in a chat, an invoice the bot created itself.
 */
export interface WatchPort {
  /** A token the provider just accepted here: watched from now on (a stopped watch resumes). */
  connect(chatId: number, token: string): Promise<void>;
  /** A token stored earlier: watched if it is not yet. */
  ensureWatched(chatId: number, token: string): Promise<void>;
  disconnect(chatId: number, token: string): Promise<void>;
  noteCreatedInvoice(token: string, invoiceId: number): Promise<void>;
  /** Whether the provider rejected the token and its watching stopped. */
  isStopped(token: string): Promise<boolean>;
}
