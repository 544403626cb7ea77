/**
 * A chat's partner accounts: up to `MAX_ACCOUNTS` tokens side by side, each with the provider's
 * name of the partner and a name of the user's own, one of them active. Each account is sealed
 * for the chat on its own (`accounts[<n>]`), so reading the one in use opens one value, as the
 * single token did.
 *
 * Numbers are never reused (`accountSeq`): a button made for account 3 that was removed never
 * reaches an account added later. A document written before accounts (`token`) reads as its
 * account 1, and `upgradeAccounts` turns it into one for good (idempotent; the bot runs it over
 * every chat at start, see storage/account-upgrade.ts).
 *
 * While a task holds the chat (`withChat`), `useAccount` chooses the account every getter of
 * this part answers for: the bot sets it per update (a button acts on the account it was made
 * for, a form on the one it started with), so the features below keep asking for "the token".
 */
import { isPlainObject } from '../chat-doc.js';
import type { ChatDoc, NotifySettings } from '../chat-store.js';
import type { Keyring } from '../crypto.js';
import { type ChatDocAccess, toError } from './doc-access.js';

/** How many accounts one chat may hold. */
export const MAX_ACCOUNTS = 10;

/** An account of a chat, opened. */
export interface Account {
  /** Its number in the chat (1, 2, …; never reused). */
  readonly n: number;
  readonly token: string;
  /** The user's own name for it. */
  readonly name?: string | undefined;
  /** How the provider names the partner (from the token check). */
  readonly partner?: string | undefined;
  /** Whether commands act on it. */
  readonly active: boolean;
}

/** What adding an account did. */
export type AddAccountResult =
  | { ok: true; n: number }
  | { ok: false; reason: 'full' }
  /** The token is already an account of the chat. */
  | { ok: false; reason: 'known'; n: number };

/** A chat's accounts. */
export interface ChatAccounts {
  /**
   * The token of the account in use (the update's, see `useAccount`; else the active one);
   * undefined when the chat has none or it no longer opens.
   */
  getToken(chatId: number): Promise<string | undefined>;
  /** Replaces the token of the account in use, or adds the first account when there is none. */
  setToken(chatId: number, token: string, partner?: string): Promise<void>;
  /** Forgets every account of the chat (a group unbound, the chat forgotten). */
  clearToken(chatId: number): Promise<void>;
  /** The account in use (see `getToken`). */
  currentAccount(chatId: number): Promise<Account | undefined>;
  /** The number of the account in use without opening anything (undefined: none). */
  currentAccountNumber(chatId: number): Promise<number | undefined>;
  /** Every account that opens, by number. */
  listAccounts(chatId: number): Promise<Account[]>;
  /** The numbers of the chat's accounts, without opening them. */
  accountNumbers(chatId: number): Promise<readonly number[]>;
  getAccount(chatId: number, n: number): Promise<Account | undefined>;
  /** The chat's account holding `token`. */
  findAccountByToken(chatId: number, token: string): Promise<Account | undefined>;
  /** Adds an account and makes it the active one. */
  addAccount(chatId: number, token: string, partner?: string): Promise<AddAccountResult>;
  /** Makes `n` the active account; false when the chat has no such account. */
  switchAccount(chatId: number, n: number): Promise<boolean>;
  /** Sets (or with `undefined` clears) the user's own name of `n`; false when there is no `n`. */
  renameAccount(chatId: number, n: number, name: string | undefined): Promise<boolean>;
  /** Stores how the provider names the partner of `n`. */
  setPartnerName(chatId: number, n: number, partner: string): Promise<void>;
  /** Removes `n` (the lowest left becomes active if it was); returns what was removed. */
  removeAccount(chatId: number, n: number): Promise<Account | undefined>;
  /**
   * Within `withChat` for the chat: the account this task acts on, whatever is active. Throws
   * outside it (a background task names its account explicitly: `getAccount`).
   */
  useAccount(chatId: number, n: number): void;
  /** `/notify` settings of the account in use, or of `n` (`{}`: every kind on, no quiet hours). */
  getNotifySettings(chatId: number, n?: number): Promise<NotifySettings>;
  setNotifySettings(chatId: number, settings: NotifySettings, n?: number): Promise<void>;
}

/** What is sealed per account. */
interface SealedAccount {
  token: string;
  name?: string;
  partner?: string;
}

/** The account numbers a document holds (its own `accounts` map, or 1 for a legacy token). */
export function accountNumbers(doc: ChatDoc): readonly number[] {
  // Every update asks this, some several times of the one document it read (documents are never
  // changed in place: a change makes a new one), so each document's answer is kept beside it.
  const known = numbersOf.get(doc);
  if (known !== undefined) return known;
  let numbers: number[];
  if (isPlainObject(doc.accounts)) {
    numbers = [];
    for (const key in doc.accounts) {
      const n = Number(key);
      if (Number.isSafeInteger(n) && n > 0) numbers.push(n);
    }
    if (numbers.length > 1) numbers.sort((a, b) => a - b);
  } else {
    numbers = doc.token === undefined ? [] : [1];
  }
  numbersOf.set(doc, numbers);
  return numbers;
}

const numbersOf = new WeakMap<ChatDoc, readonly number[]>();

/** The active account's number of a document: its own choice when it still exists, else the lowest. */
export function activeAccountNumber(doc: ChatDoc): number | undefined {
  const numbers = accountNumbers(doc);
  return doc.activeAccount !== undefined && numbers.includes(doc.activeAccount)
    ? doc.activeAccount
    : numbers[0];
}

/**
 * A document written before accounts, as one with account 1 holding its token (sealed again as
 * an account record) and its `/notify` settings as account 1's; undefined when it needs nothing.
 * Pure and idempotent: an upgraded document is returned as undefined. Throws (`SealError`) when
 * the old token does not open with `keyring`; the caller keeps the document as it is.
 */
export function upgradeAccounts(doc: ChatDoc, chatId: number, keyring: Keyring): ChatDoc | undefined {
  if (doc.token === undefined && doc.notify === undefined) return undefined;
  const { token, notify, ...rest } = doc;
  const next: ChatDoc = { ...rest };
  if (token !== undefined && doc.accounts === undefined) {
    const record: SealedAccount = { token: keyring.open(token, chatId) };
    next.accounts = { '1': keyring.seal(JSON.stringify(record), chatId) };
    next.activeAccount = 1;
    next.accountSeq = Math.max(doc.accountSeq ?? 0, 1);
  }
  // As the getters read it: old settings count only while there are no per-account ones.
  if (isPlainObject(notify) && doc.notifyByAccount === undefined) {
    const first = accountNumbers(next)[0] ?? 1;
    next.notifyByAccount = { [String(first)]: notify };
  }
  return next;
}

/** The accounts part of `ChatData` over the shared document. */
export function createChatAccounts(access: ChatDocAccess): ChatAccounts {
  /** Opens account `n` of the document; undefined (reported) when it does not open. */
  function open(chatId: number, doc: ChatDoc, n: number, activeN: number | undefined): Account | undefined {
    const sealed = isPlainObject(doc.accounts) ? doc.accounts[String(n)] : n === 1 ? doc.token : undefined;
    if (typeof sealed !== 'string') return undefined;
    try {
      const text = access.open(sealed, chatId);
      const record = isPlainObject(doc.accounts) ? parseRecord(text) : { token: text };
      return { n, ...record, active: n === activeN };
    } catch (error) {
      access.report(chatId, 'token', toError(error));
      return undefined;
    }
  }

  function inUse(chatId: number, doc: ChatDoc): number | undefined {
    const chosen = access.scope(chatId)?.account;
    if (chosen !== undefined && accountNumbers(doc).includes(chosen)) return chosen;
    return activeAccountNumber(doc);
  }

  /** The document as an accounts document (a legacy token sealed again as account 1). */
  function upgraded(chatId: number, doc: ChatDoc): ChatDoc {
    if (doc.token === undefined || doc.accounts !== undefined) return doc;
    const { token, ...rest } = doc;
    try {
      const record: SealedAccount = { token: access.open(token, chatId) };
      return {
        ...rest,
        accounts: { '1': access.seal(JSON.stringify(record), chatId) },
        activeAccount: 1,
        accountSeq: Math.max(doc.accountSeq ?? 0, 1),
      };
    } catch {
      // A token that no longer opens is dropped when accounts are written: it was unreadable anyway.
      return rest;
    }
  }

  function sealRecord(chatId: number, record: SealedAccount): string {
    return access.seal(JSON.stringify(record), chatId);
  }

  async function current(chatId: number): Promise<Account | undefined> {
    const doc = await access.read(chatId);
    if (doc === undefined) return undefined;
    const n = inUse(chatId, doc);
    return n === undefined ? undefined : open(chatId, doc, n, activeAccountNumber(doc));
  }

  async function updateAccount(
    chatId: number,
    n: number,
    change: (record: SealedAccount) => SealedAccount,
  ): Promise<boolean> {
    const doc = await access.read(chatId);
    const account = doc === undefined ? undefined : open(chatId, doc, n, undefined);
    if (account === undefined) return false;
    const { token, name, partner } = account;
    const sealed = sealRecord(
      chatId,
      change({ token, ...(name ? { name } : {}), ...(partner ? { partner } : {}) }),
    );
    let found = false;
    await access.update(chatId, (stored) => {
      const next = upgraded(chatId, stored);
      found = isPlainObject(next.accounts) && Object.hasOwn(next.accounts, String(n));
      return found ? { ...next, accounts: { ...next.accounts, [String(n)]: sealed } } : stored;
    });
    return found;
  }

  const accounts: ChatAccounts = {
    async getToken(chatId) {
      return (await current(chatId))?.token;
    },

    async setToken(chatId, token, partner) {
      const n = await accounts.currentAccountNumber(chatId);
      if (n === undefined) {
        await accounts.addAccount(chatId, token, partner);
        return;
      }
      await updateAccount(chatId, n, (record) => ({
        ...record,
        token,
        ...(partner === undefined ? {} : { partner }),
      }));
    },

    async clearToken(chatId) {
      // Numbers start again at 1: a chat that forgot every account is as a new chat.
      await access.update(
        chatId,
        ({
          token: _t,
          accounts: _a,
          activeAccount: _n,
          accountSeq: _q,
          notifyByAccount: _s,
          notify: _o,
          ...rest
        }) => rest,
      );
    },

    currentAccount: current,

    async currentAccountNumber(chatId) {
      const doc = await access.read(chatId);
      return doc === undefined ? undefined : inUse(chatId, doc);
    },

    async listAccounts(chatId) {
      const doc = await access.read(chatId);
      if (doc === undefined) return [];
      const activeN = activeAccountNumber(doc);
      return accountNumbers(doc)
        .map((n) => open(chatId, doc, n, activeN))
        .filter((account): account is Account => account !== undefined);
    },

    async accountNumbers(chatId) {
      const doc = await access.read(chatId);
      return doc === undefined ? [] : accountNumbers(doc);
    },

    async getAccount(chatId, n) {
      const doc = await access.read(chatId);
      return doc === undefined ? undefined : open(chatId, doc, n, activeAccountNumber(doc));
    },

    async findAccountByToken(chatId, token) {
      return (await accounts.listAccounts(chatId)).find((account) => account.token === token);
    },

    async addAccount(chatId, token, partner) {
      const known = await accounts.findAccountByToken(chatId, token);
      if (known !== undefined) return { ok: false, reason: 'known', n: known.n };
      const record: SealedAccount = { token, ...(partner === undefined ? {} : { partner }) };
      const sealed = sealRecord(chatId, record);
      let result: AddAccountResult = { ok: false, reason: 'full' };
      await access.update(chatId, (stored) => {
        const doc = upgraded(chatId, stored);
        if (accountNumbers(doc).length >= MAX_ACCOUNTS) {
          result = { ok: false, reason: 'full' };
          return stored;
        }
        const n = Math.max(doc.accountSeq ?? 0, ...accountNumbers(doc)) + 1;
        result = { ok: true, n };
        return {
          ...doc,
          accounts: { ...(doc.accounts ?? {}), [String(n)]: sealed },
          activeAccount: n,
          accountSeq: n,
        };
      });
      return result;
    },

    async switchAccount(chatId, n) {
      let found = false;
      await access.update(chatId, (stored) => {
        found = accountNumbers(stored).includes(n);
        return found ? { ...upgraded(chatId, stored), activeAccount: n } : stored;
      });
      return found;
    },

    async renameAccount(chatId, n, name) {
      return updateAccount(chatId, n, ({ name: _old, ...record }) =>
        name === undefined ? record : { ...record, name },
      );
    },

    async setPartnerName(chatId, n, partner) {
      await updateAccount(chatId, n, (record) => ({ ...record, partner }));
    },

    async removeAccount(chatId, n) {
      const removed = await accounts.getAccount(chatId, n);
      if (removed === undefined) return undefined;
      await access.update(chatId, (stored) => {
        const doc = upgraded(chatId, stored);
        const { [String(n)]: _gone, ...left } = doc.accounts ?? {};
        const { [String(n)]: _settings, ...settingsLeft } = doc.notifyByAccount ?? {};
        const { accounts: _a, activeAccount: _n, notifyByAccount: _s, ...rest } = doc;
        const numbers = Object.keys(left)
          .map(Number)
          .sort((a, b) => a - b);
        if (numbers.length === 0)
          return { ...rest, ...(doc.accountSeq === undefined ? {} : { accountSeq: doc.accountSeq }) };
        return {
          ...rest,
          accounts: left,
          activeAccount: doc.activeAccount === n ? (numbers[0] ?? 1) : (doc.activeAccount ?? numbers[0] ?? 1),
          ...(Object.keys(settingsLeft).length === 0 ? {} : { notifyByAccount: settingsLeft }),
        };
      });
      return { ...removed, active: false };
    },

    useAccount(chatId, n) {
      const scope = access.scope(chatId);
      if (scope === undefined) throw new Error('useAccount needs the chat held by withChat');
      scope.account = n;
    },

    async getNotifySettings(chatId, n) {
      const doc = await access.read(chatId);
      if (doc === undefined) return {};
      const which = n ?? inUse(chatId, doc);
      if (which === undefined) return {};
      const settings = isPlainObject(doc.notifyByAccount)
        ? doc.notifyByAccount[String(which)]
        : which === (accountNumbers(doc)[0] ?? 1)
          ? doc.notify
          : undefined;
      return isPlainObject(settings) ? settings : {};
    },

    async setNotifySettings(chatId, settings, n) {
      const which = n ?? (await accounts.currentAccountNumber(chatId)) ?? 1;
      // The defaults are stored as no settings at all, so an idle chat leaves no document behind.
      const empty = (settings.off ?? []).length === 0 && settings.quiet === undefined;
      await access.update(chatId, (stored) => {
        const { notify: legacy, notifyByAccount, ...rest } = stored;
        const all: Record<string, NotifySettings> = { ...(notifyByAccount ?? {}) };
        if (legacy !== undefined && notifyByAccount === undefined)
          all[String(accountNumbers(stored)[0] ?? 1)] = legacy;
        if (empty) delete all[String(which)];
        else all[String(which)] = settings;
        return Object.keys(all).length === 0 ? rest : { ...rest, notifyByAccount: all };
      });
    },
  };
  return accounts;
}

function parseRecord(text: string): Omit<Account, 'n' | 'active'> {
  const parsed: unknown = JSON.parse(text);
  if (!isPlainObject(parsed) || typeof parsed.token !== 'string') {
    throw new TypeError('a stored account is not an account record');
  }
  return {
    token: parsed.token,
    ...(typeof parsed.name === 'string' ? { name: parsed.name } : {}),
    ...(typeof parsed.partner === 'string' ? { partner: parsed.partner } : {}),
  };
}
