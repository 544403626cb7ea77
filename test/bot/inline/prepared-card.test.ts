import { describe, expect, it } from 'vitest';
import { createInvoiceCardPort } from '../../../src/bot/features/inline/invoice-card.js';
import { loadTranslations } from '../../../src/bot/kit/i18n.js';
import { invoiceResultId } from '../../../src/services/invoice-cards.js';
import { inlineAnswer } from '../../helpers/bot-harness.js';
import { GROUP, OWNER, privately, useBot } from '../../helpers/use-bot.js';

/*
 * A card shared from the Mini App (a prepared inline message) reaches the bot's
 * chosen_inline_result with no query: its result id names the account's chat. The card is kept
 * with that chat's account (its watcher marks it paid) only while the sender may still see that
 * chat's billing: their own private chat, or a group where their role has billing.
 */

const ADMIN = { userId: 666, firstName: 'Вера' };
const VIEWER = { userId: 667, firstName: 'Зоя' };
const { h } = useBot({
  team: [
    [ADMIN, 'админ'],
    [VIEWER, 'зритель'],
  ],
});

describe('a card shared from the Mini App', () => {
  it('is kept with the sender’s own private chat', async () => {
    const id = invoiceResultId(5008, OWNER.userId);
    expect(id).toBe(`invoice-5008-c${OWNER.userId}`);
    const calls = await h.chosenInlineResult(id, '', privately(OWNER));
    expect(calls).toEqual([]);
    expect(await h.chatData.getSharedCards(OWNER.userId, 5008)).toEqual([`im${id}`]);
  });

  it('is kept with a team group’s account when the sender’s role has billing', async () => {
    const id = invoiceResultId(5010, GROUP);
    expect(id.length).toBeLessThanOrEqual(64);
    await h.chosenInlineResult(id, '', privately(ADMIN));
    expect(await h.chatData.getSharedCards(GROUP, 5010)).toEqual([`im${id}`]);
    expect(await h.chatData.getSharedCards(ADMIN.userId, 5010)).toEqual([]);
  });

  it('is not kept for a chat whose billing the sender may not see', async () => {
    // Another user's private chat.
    await h.chosenInlineResult(invoiceResultId(5012, OWNER.userId), '', privately(ADMIN));
    expect(await h.chatData.getSharedCards(OWNER.userId, 5012)).toEqual([]);
    // A group where the sender's role has no billing.
    await h.chosenInlineResult(invoiceResultId(5005, GROUP), '', privately(VIEWER));
    expect(await h.chatData.getSharedCards(GROUP, 5005)).toEqual([]);
    // A group the bot has no team for.
    await h.chosenInlineResult(invoiceResultId(5002, -100_999), '', privately(ADMIN));
    expect(await h.chatData.getSharedCards(-100_999, 5002)).toEqual([]);
  });
});

describe('the Mini App’s share port', () => {
  it('saves for the user the very card inline mode sends, sendable anywhere but to bots', async () => {
    const calls: { method: string; payload: Record<string, unknown> }[] = [];
    const port = createInvoiceCardPort({
      telegram: {
        callApi: (async (method: string, payload: Record<string, unknown>) => {
          calls.push({ method, payload });
          return { id: 'prepared-7', expiration_date: 1_800_000_000 };
        }) as never,
      },
      translations: loadTranslations(),
    });
    const [invoice] = await h.api().listInvoices({ invoice_id: 5008 });
    if (invoice === undefined) throw new Error('no invoice 5008 in the sandbox');
    const url = await h.api().getInvoiceUrl(5008);
    const currencies = await h.api().listCurrencies();
    const answer = await port.prepare({
      chatId: GROUP,
      userId: ADMIN.userId,
      invoice,
      url,
      currencyCodes: new Map(currencies.map((c) => [c.currency_id, c.currency_code])),
      locale: 'ru',
    });
    expect(answer).toEqual({ id: 'prepared-7', expiresAt: new Date(1_800_000_000_000) });
    expect(calls.map((c) => c.method)).toEqual(['savePreparedInlineMessage']);
    const { result, ...flags } = calls[0]?.payload ?? {};
    expect(flags).toEqual({
      user_id: ADMIN.userId,
      allow_user_chats: true,
      allow_group_chats: true,
      allow_channel_chats: true,
      allow_bot_chats: false,
    });
    // The card and its buttons are inline mode's own for the same invoice.
    const inline = inlineAnswer(await h.inlineQuery('СФ-2026-5008', privately(OWNER))).results.find(
      (r) => r.id === 'invoice-5008',
    );
    expect(inline).toBeDefined();
    expect(result).toMatchObject({
      type: 'article',
      id: `invoice-5008-c${GROUP}`,
      title: inline?.title,
      input_message_content: inline?.input_message_content,
      reply_markup: inline?.reply_markup,
    });
  });
});
