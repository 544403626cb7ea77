/**
 * What a chat remembers about what the bot did in it, each a bounded map by id: the domain an
 * order was created for (the provider's lists omit it for hosting and SSL) and the message that
 * carried an invoice's link (edited once the invoice is paid).
 */
import type { ChatDocAccess } from './doc-access.js';

/** How many invoice link messages a chat remembers (the lowest invoice ids go first). */
const MAX_INVOICE_LINKS = 200;

/** How many order domains a chat remembers (the oldest go first). */
const MAX_ORDER_DOMAINS = 200;

/** Order domains and invoice link messages of a chat. */
export interface ChatMarks {
  /** Remembers the domain an order was created for (the last 200 orders of the chat are kept). */
  rememberOrderDomain(chatId: number, orderId: number, domain: string): Promise<void>;
  /** The domain remembered for an order, if the chat created it. */
  getOrderDomain(chatId: number, orderId: number): Promise<string | undefined>;
  /** Remembers the message that carried an invoice's link (the chat's latest 200 are kept). */
  rememberInvoiceLink(chatId: number, invoiceId: number, messageId: number): Promise<void>;
  /** The message that carried the invoice's link in this chat, if the bot sent one. */
  getInvoiceLink(chatId: number, invoiceId: number): Promise<number | undefined>;
}

/** The marks part of `ChatData` over the shared document. */
export function createChatMarks(access: ChatDocAccess): ChatMarks {
  return {
    async rememberOrderDomain(chatId, orderId, domain) {
      await access.update(chatId, (doc) => ({
        ...doc,
        orderDomains: withBounded(doc.orderDomains, orderId, domain, MAX_ORDER_DOMAINS),
      }));
    },

    async getOrderDomain(chatId, orderId) {
      const domain = lookup((await access.read(chatId))?.orderDomains, orderId);
      return typeof domain === 'string' ? domain : undefined;
    },

    async rememberInvoiceLink(chatId, invoiceId, messageId) {
      await access.update(chatId, (doc) => ({
        ...doc,
        invoiceLinks: withBounded(doc.invoiceLinks, invoiceId, messageId, MAX_INVOICE_LINKS),
      }));
    },

    async getInvoiceLink(chatId, invoiceId) {
      const message = lookup((await access.read(chatId))?.invoiceLinks, invoiceId);
      return Number.isSafeInteger(message) ? message : undefined;
    },
  };
}

/**
 * The map with `id` set to `value`, keeping at most `max` entries: the ones first in the map's
 * order go (integer keys enumerate in ascending order, so the lowest ids).
 */
function withBounded<V>(
  map: Record<string, V> | undefined,
  id: number,
  value: V,
  max: number,
): Record<string, V> {
  const kept = Object.entries(map ?? {}).filter(([key]) => key !== String(id));
  return Object.fromEntries([...kept.slice(-(max - 1)), [String(id), value]]);
}

/** The map's own entry for `id`; stored maps come from disk, so nothing inherited counts. */
function lookup<V>(map: Record<string, V> | undefined, id: number): V | undefined {
  return map !== undefined && Object.hasOwn(map, String(id)) ? map[String(id)] : undefined;
}
