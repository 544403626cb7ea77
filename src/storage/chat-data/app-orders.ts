/**
 * Orders confirmed in the Mini App's order form, by the form's once-only key: what the chat's
 * draft keeps for its Confirm (the orders listed before the create call, then the order made),
 * kept here since a form has no session. A key seen again is answered from here, never sent
 * twice; one left 'submitting' by a killed process is settled by looking the order up. Plain
 * JSON (ids, a domain name or a tariff), bounded to the latest few per chat.
 *
 * A key belongs to the chat's account the form ordered for (`account`; absent in records made
 * before accounts: account 1): a key is looked up, kept and forgotten with its account only.
 */
import type { OrderMark } from '../../core/order-marks.js';
import { isPlainObject } from '../chat-doc.js';
import { type ChatDocAccess, withField } from './doc-access.js';

/** How many form submits a chat remembers, over all its accounts (the oldest go first). */
const MAX_APP_ORDERS = 20;

/** One form submit: sent (its list stored, outcome not yet known) or created. */
export type AppOrderRecord =
  | {
      key: string;
      account?: number | undefined;
      kind: string;
      mark: OrderMark;
      status: 'submitting';
      knownOrderIds: number[];
    }
  | {
      key: string;
      account?: number | undefined;
      kind: string;
      mark: OrderMark;
      status: 'created';
      orderId: number | undefined;
      invoiceId: number | undefined;
    };

export interface ChatAppOrders {
  /** Account `account`'s record of the key (default 1). */
  getAppOrder(chatId: number, key: string, account?: number): Promise<AppOrderRecord | undefined>;
  /** Stores the record under its key and account (replacing their earlier one). */
  putAppOrder(chatId: number, record: AppOrderRecord): Promise<void>;
  /** Forgets the key of `account` (default 1): the submit made nothing, and may be sent again. */
  forgetAppOrder(chatId: number, key: string, account?: number): Promise<void>;
}

/** The record is of that key and account (a record made before accounts is account 1's). */
const isOf = (record: AppOrderRecord, key: string, account = 1) =>
  record.key === key && (record.account ?? 1) === account;

const isMark = (value: unknown): value is OrderMark =>
  isPlainObject(value) &&
  (typeof value.domain === 'string' || (typeof value.tariffId === 'number' && value.domain === undefined));

const optionalId = (value: unknown) => value === undefined || Number.isSafeInteger(value);

function isRecord(value: unknown): value is AppOrderRecord {
  if (!isPlainObject(value) || typeof value.key !== 'string' || typeof value.kind !== 'string') return false;
  if (!isMark(value.mark)) return false;
  if (value.account !== undefined && !Number.isSafeInteger(value.account)) return false;
  if (value.status === 'submitting')
    return Array.isArray(value.knownOrderIds) && value.knownOrderIds.every(Number.isSafeInteger);
  return value.status === 'created' && optionalId(value.orderId) && optionalId(value.invoiceId);
}

export function createChatAppOrders(access: ChatDocAccess): ChatAppOrders {
  const recordsOf = (stored: unknown): AppOrderRecord[] =>
    Array.isArray(stored) ? stored.filter(isRecord) : [];
  return {
    async getAppOrder(chatId, key, account) {
      return recordsOf((await access.read(chatId))?.appOrders).find((record) => isOf(record, key, account));
    },

    async putAppOrder(chatId, record) {
      await access.update(chatId, (doc) => {
        const kept = recordsOf(doc.appOrders).filter((r) => !isOf(r, record.key, record.account));
        return withField(doc, 'appOrders', [...kept.slice(-(MAX_APP_ORDERS - 1)), record]);
      });
    },

    async forgetAppOrder(chatId, key, account) {
      await access.update(chatId, (doc) => {
        const records = recordsOf(doc.appOrders);
        if (!records.some((r) => isOf(r, key, account))) return doc;
        const kept = records.filter((r) => !isOf(r, key, account));
        return withField(doc, 'appOrders', kept.length === 0 ? undefined : kept);
      });
    },
  };
}
