/**
 * Persistence seam for everything the bot keeps per chat. Implementations store opaque JSON
 * documents; secrets inside them are already sealed by `crypto.ts` before they get here, so a
 * store never sees a token in clear text.
 */

/** Languages the bot speaks. */
export type Locale = 'ru' | 'en';

/**
 * One chat's stored document. Secrets are sealed strings (see `crypto.ts`), never clear text.
 * `session` is sealed too: order drafts in it carry passport numbers, names and addresses.
 */
export interface ChatDoc {
  locale?: Locale;
  /**
   * Sealed partner API token of a document written before accounts: read as account 1, and
   * moved there by `upgradeAccounts` (chat-data/accounts.ts).
   */
  token?: string;
  /** The chat's partner accounts by number, each a sealed JSON record (token, names). */
  accounts?: Record<string, string>;
  /** The number of the account commands act on. */
  activeAccount?: number;
  /** The highest account number ever given here: numbers are never reused. */
  accountSeq?: number;
  /** Sealed JSON array of saved customer requisites profiles. */
  profiles?: string;
  /** Currency chosen in the last order, offered first next time. */
  lastCurrencyId?: number;
  /**
   * Domains of orders this chat created whose list entry carries none (hosting, SSL): order id →
   * domain as sent. The provider's lists omit it, so the bot remembers what it sent.
   */
  orderDomains?: Record<string, string>;
  /** What `/notify` told a chat before accounts: account 1's settings until upgraded. */
  notify?: NotifySettings;
  /** What `/notify` tells this chat, per account number; absent: every kind on, no quiet hours. */
  notifyByAccount?: Record<string, NotifySettings>;
  /** Invoice id → the message that carried its link (the latest 200), edited once it is paid. */
  invoiceLinks?: Record<string, number>;
  /** A group bound by `/team`: its owner and members' roles (plain: roles say nothing personal). */
  team?: { owner: number; members: Record<string, string> };
  /** Sealed JSON of the team members' first names (user id → name), for the team screen. */
  teamNames?: string;
  /** Sealed JSON: invoice id → inline message ids of the invoice's cards shared with clients. */
  sharedCards?: string;
  /** Orders confirmed in the Mini App's order form, by once-only key (`chat-data/app-orders.ts`). */
  appOrders?: unknown[];
  /** In a partner's private chat: the groups this partner bound with `/team` (unbound on /logout). */
  teamGroups?: number[];
  /**
   * Sealed JSON of the telegraf session (scene state); absent when empty. A plain object in
   * documents written before sessions were sealed: still read, and sealed by the next write.
   */
  session?: string | Record<string, unknown>;
}

/** A chat's `/notify` settings. */
export interface NotifySettings {
  /** Notification kinds this chat turned off (`NotificationKind` names). */
  off?: string[];
  /** Quiet hours on a Minsk clock: messages wait until `to`. */
  quiet?: { from: number; to: number };
}

/** Raw per-chat document storage: lowdb (one process) or Redis (several processes). */
export interface ChatStore {
  /** The chat's document, or undefined when nothing is stored. */
  read(chatId: number): Promise<ChatDoc | undefined>;
  /**
   * Read-modify-write of one chat's document. `change` gets a copy of the current document
   * (`{}` when none) and returns the new one; returning an empty object removes the chat.
   * Nothing is written when the result equals the current document.
   */
  update(chatId: number, change: (doc: ChatDoc) => ChatDoc): Promise<ChatDoc>;
  /** Forgets everything stored for the chat. */
  remove(chatId: number): Promise<void>;
  /**
   * Moves a chat's record that cannot be read at all (`CorruptChatDocError`) out of the way, kept
   * beside it for the operator, so the chat starts over empty. Returns where it went (a file or a
   * key); `undefined` when there was no record, or it reads fine and was left in place.
   */
  setAside(chatId: number): Promise<string | undefined>;
  /**
   * How many chats have a document. Reads the store's index (file names, or a key scan on
   * Redis), not the documents: for metrics and `npm run admin -- stats`, not for every update.
   */
  count(): Promise<number>;
  /** The ids of every chat with a document, from the same index (`npm run admin`). */
  ids(): Promise<number[]>;
  /** Flushes pending writes and releases files or connections. */
  close(): Promise<void>;
}
