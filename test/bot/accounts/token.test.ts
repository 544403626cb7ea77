import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeed } from '../../../src/sandbox/seed.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { lastText, USER_ID } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * `/token` in a chat that already has an account (issue 42): a token of the same partner (a new
 * token made in the panel: both list the same orders) replaces the active account's token; a
 * token of another partner adds an account. One sandbox: partner 1 and partner 2 share one world
 * (two tokens of one partner), partner 3 is another partner (`studio-c.by`).
 */

let sandbox: Sandbox;

beforeAll(async () => {
  const world = createSeed();
  sandbox = await startSandbox({ port: 0, state: world, partners: [{ state: world }, {}] });
});
afterAll(() => sandbox.close());

const { h } = useBot({ per: 'story', startWith: () => ({ sandbox }), connect: ['partner'] });

describe('/token with an account connected', () => {
  it('a new token of the same partner replaces the active account’s token; nothing is added', async () => {
    const renewed = sandbox.partner(2).token;
    const before = sandbox.requests.length;
    const calls = await h.send(`/token ${renewed}`);
    expect(lastText(calls)).toContain(
      'Токен проверен: это тот же партнёр, что и у активного аккаунта «mysite.by» (те же заказы), — я заменил его токен на новый.',
    );
    expect(calls.filter((c) => c.method === 'deleteMessage')).toHaveLength(1);
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1]);
    expect(await h.chatData.getToken(USER_ID)).toBe(renewed);
    // The check, then each token's orders once.
    const asks = sandbox.requests.slice(before).map((r) => `${r.partner} ${r.path}`);
    expect(asks[0]).toBe('2 /v1/orders/domains');
    expect(asks.slice(1).sort()).toEqual(['1 /v1/orders', '2 /v1/orders']);
    // The replaced token works: /invoices asks with it.
    const asked = sandbox.requests.length;
    expect(lastText(await h.send('/invoices'))).toContain('СФ-2026-');
    expect(new Set(sandbox.requests.slice(asked).map((r) => r.partner))).toEqual(new Set([2]));
  });

  it('a token of another partner adds an account, named by its first domain, and makes it active', async () => {
    const other = sandbox.partner(3).token;
    const calls = await h.send(`/token ${other}`);
    expect(lastText(calls)).toContain(
      'Добавлен аккаунт «studio-c.by». Теперь он активный; переключиться — /accounts',
    );
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1, 2]);
    const accounts = await h.chatData.listAccounts(USER_ID);
    expect(accounts.map((a) => [a.n, a.partner, a.active])).toEqual([
      [1, 'mysite.by', false],
      [2, 'studio-c.by', true],
    ]);
    expect(await h.chatData.getToken(USER_ID)).toBe(other);
  });

  it('a new token after the old one was revoked replaces it, whoever’s it is: nothing else can be compared', async () => {
    // The provider no longer takes the stored token (revoked in the panel).
    await h.chatData.setToken(USER_ID, `revoked-${'x'.repeat(30)}`);
    const calls = await h.send(`/token ${h.sandbox.token}`);
    expect(lastText(calls)).toContain(
      'Прежний токен активного аккаунта «mysite.by» провайдер больше не принимает — я заменил его новым.',
    );
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1]);
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
  });
});
