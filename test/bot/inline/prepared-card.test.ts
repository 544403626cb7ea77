import { describe, expect, it } from 'vitest';
import { invoiceResultId } from '../../../src/services/invoice-cards.js';
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
