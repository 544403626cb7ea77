import { describe, expect, it } from 'vitest';
import { createDnsProbe } from '../../../src/dns-check/probe.js';
import { type BotCall, buttons, texts } from '../../helpers/bot-harness.js';
import { SECOND_TOKEN } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * The live check edits a change's message after its update ended, past the update's outgoing
 * pass: a change made on the chat's second account keeps that account's stamp on its buttons and
 * its heading through the check's edit.
 */
const CHAT = 424_242;
const { h } = useBot({
  dnsServer: true,
  liveCheck: {
    probe: {
      addressesOf: (server, signal) => probe().addressesOf(server, signal),
      ask: (address, name, type, signal) => probe().ask(address, name, type, signal),
    },
    clock: { now: () => 0, sleep: async () => undefined },
  },
  connect: ['partner'],
  setUp: async (bot) => {
    const added = await bot.chatData.addAccount(CHAT, SECOND_TOKEN);
    if (!added.ok) throw new Error('second account not added');
    await bot.chatData.renameAccount(CHAT, added.n, 'Студия Б');
    await bot.chatData.switchAccount(CHAT, 1);
  },
});

function probe() {
  const port = h.sandbox.dns?.port ?? 0;
  return createDnsProbe({ port, resolvers: [`127.0.0.1:${port}`], timeoutMs: 500, tries: 1 });
}

describe('the live check of a change on the other account', () => {
  it('keeps the second account’s heading and button stamps through its edit', async () => {
    const calls = await h.send('/dns studio-b.by add A live9 192.0.2.99');
    const added = calls.find(
      (c) => c.method === 'sendMessage' && String(c.payload.text).includes('Запись добавлена'),
    );
    if (!added) throw new Error(`no added message: ${texts(calls).join(' | ')}`);
    expect(String(added.payload.text)).toMatch(/^👤 <b>Студия Б<\/b>\n/);
    expect(
      buttons([added]).every((b) => b.callback_data === undefined || b.callback_data.startsWith('a2:')),
    ).toBe(true);
    await h.liveChecks?.idle();
    const edits = h.calls.filter(
      (c: BotCall) => c.method === 'editMessageText' && c.payload.message_id === added.messageId,
    );
    expect(edits.length).toBeGreaterThan(0);
    const last = edits.at(-1);
    expect(String(last?.payload.text)).toMatch(/^👤 <b>Студия Б<\/b>\n/);
    expect(String(last?.payload.text)).toContain('✅ Видно на');
    const stamped = buttons(last ? [last] : []).filter((b) => b.callback_data !== undefined);
    expect(stamped.length).toBeGreaterThan(0);
    expect(stamped.every((b) => b.callback_data?.startsWith('a2:'))).toBe(true);
  });
});
