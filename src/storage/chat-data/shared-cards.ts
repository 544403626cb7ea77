/**
 * Invoice cards a partner shared with a client through inline mode: which inline messages carry
 * an invoice, so that the payment can be shown on the card in the client's chat. Sealed for the
 * partner's chat (an inline message id reaches a client's chat), bounded, and short-lived: an
 * invoice's cards are forgotten once the payment is shown.
 */
import { isPlainObject } from '../chat-doc.js';
import { type ChatDocAccess, withField } from './doc-access.js';

/** How many invoices' cards a chat remembers (the lowest invoice ids go first). */
const MAX_SHARED_INVOICES = 200;
/** How many cards of one invoice (it can be shared in several chats). */
const MAX_CARDS_PER_INVOICE = 20;

export interface ChatSharedCards {
  /** Remembers an inline message (`inline_message_id`) carrying the invoice's card. */
  rememberSharedCard(chatId: number, invoiceId: number, inlineMessageId: string): Promise<void>;
  /** The invoice's shared cards (none when not shared, or the sealed list no longer opens). */
  getSharedCards(chatId: number, invoiceId: number): Promise<string[]>;
  /** Forgets the invoice's cards (its payment was shown on them). */
  forgetSharedCards(chatId: number, invoiceId: number): Promise<void>;
}

type Cards = Record<string, string[]>;

export function createChatSharedCards(access: ChatDocAccess): ChatSharedCards {
  const open = (chatId: number, sealed: string | undefined): Cards => {
    if (sealed === undefined) return {};
    try {
      const parsed: unknown = JSON.parse(access.open(sealed, chatId));
      if (!isPlainObject(parsed)) return {};
      return Object.fromEntries(
        Object.entries(parsed).flatMap(([id, ids]) =>
          Array.isArray(ids) ? [[id, ids.filter((v): v is string => typeof v === 'string')]] : [],
        ),
      );
    } catch {
      // Cards are a courtesy: ones that no longer open are simply not edited.
      return {};
    }
  };
  const seal = (chatId: number, cards: Cards): string | undefined =>
    Object.keys(cards).length === 0 ? undefined : access.seal(JSON.stringify(cards), chatId);

  return {
    async rememberSharedCard(chatId, invoiceId, inlineMessageId) {
      await access.update(chatId, (doc) => {
        const cards = open(chatId, doc.sharedCards);
        const key = String(invoiceId);
        const ids = [...(cards[key] ?? []).filter((id) => id !== inlineMessageId), inlineMessageId];
        const kept = Object.entries(cards).filter(([id]) => id !== key);
        const next = Object.fromEntries([
          ...kept.slice(-(MAX_SHARED_INVOICES - 1)),
          [key, ids.slice(-MAX_CARDS_PER_INVOICE)],
        ]);
        return withField(doc, 'sharedCards', seal(chatId, next));
      });
    },

    async getSharedCards(chatId, invoiceId) {
      const doc = await access.read(chatId);
      return open(chatId, doc?.sharedCards)[String(invoiceId)] ?? [];
    },

    async forgetSharedCards(chatId, invoiceId) {
      await access.update(chatId, (doc) => {
        if (doc.sharedCards === undefined) return doc;
        const cards = open(chatId, doc.sharedCards);
        if (!Object.hasOwn(cards, String(invoiceId))) return doc;
        const { [String(invoiceId)]: _gone, ...rest } = cards;
        return withField(doc, 'sharedCards', seal(chatId, rest));
      });
    },
  };
}
