/*
 * The records of a domain as Telegram 10.1 draws them: one rich message with a table of every
 * record and the record buttons below it. A 60-record zone took four HTML messages' worth of pages
 * (15 to a page); it is one message now. RICH_MESSAGES=off and a server without rich messages get
 * today's HTML screen.
 */
import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, buttons, lastTable, lastText } from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ connect: ['partner'], reset: ['faults', 'scene'] });

let seq = 0;
/** A fresh domain with `count` A records besides the ones a new order has. */
async function zoneOf(count: number, api = h.api()): Promise<{ orderId: number; domain: string }> {
  const domain = `rich-${Date.now()}-${++seq}.com`;
  const orderId = await orderTestDomain(api, domain);
  for (let i = 0; i < count; i++) {
    await api.addDnsRecord(orderId, { kind: 'a', host: `h${i}`, ipv4: `192.0.2.${i % 250}`, ttl: 3600 });
  }
  return { orderId, domain };
}

const rich = (calls: BotCall[]) => calls.filter((c) => c.payload.rich_message !== undefined);
/** The messages a call list sent, by method (typing and toasts aside). */
const sent = (calls: BotCall[]) =>
  calls.map((c) => c.method).filter((m) => m === 'sendMessage' || m === 'sendRichMessage');

describe('/dns <domain> as a rich message', () => {
  it('shows a 60-record zone as one message: a table of every record, a button for each below', async () => {
    const { orderId, domain } = await zoneOf(60);
    const listed = await h.api().listDnsRecords(orderId);
    expect(listed.length).toBeGreaterThanOrEqual(60);
    const calls = await h.send(`/dns ${domain}`);
    expect(sent(calls)).toEqual(['sendRichMessage']);
    const table = lastTable(calls);
    expect(table).toHaveLength(listed.length + 1);
    expect(table).toContainEqual(['A', 'h59', '192.0.2.59', '3600']);
    // Every record has its button (its card), then Add, Export, Import… no pages.
    expect(buttons(calls).filter((b) => b.text.startsWith('A h'))).toHaveLength(60);
    expect(buttons(calls).some((b) => /стр\. \d/.test(b.text))).toBe(false);
    expect(lastText(calls)).toContain(`DNS-записи ${domain} (${listed.length})`);
    // The heading and the table, typed as the Bot API takes them.
    const message = rich(calls)[0]?.payload.rich_message as { blocks: { type: string }[] } | undefined;
    const [heading, block] = message?.blocks ?? [];
    expect(heading?.type).toBe('heading');
    expect(block?.type).toBe('table');
  });

  it('pages a zone too big for one message, and a page turn edits it with rich_message', async () => {
    const { domain } = await zoneOf(120);
    const first = await h.send(`/dns ${domain}`);
    expect(lastText(first)).toMatch(/стр\. 1 из 2/);
    const page2 = await h.press(buttonData(first, 'стр. 2 ▶'));
    const edit = page2.find((c) => c.method === 'editMessageText');
    expect(edit?.payload.rich_message).toBeDefined();
    expect(edit?.payload.text).toBeUndefined();
    expect(lastText(page2)).toMatch(/стр\. 2 из 2/);
    expect(buttons(page2).some((b) => b.text === '◀ стр. 1')).toBe(true);
  });

  it('goes on in HTML when the server does not know rich messages: said once in the log, never a silent screen', async () => {
    const { domain } = await zoneOf(3);
    h.failures.set('sendRichMessage', { error_code: 404, description: 'Not Found: method not found' });
    const first = await h.send(`/dns ${domain}`);
    expect(sent(first)).toEqual(['sendRichMessage', 'sendMessage']);
    expect(lastText(first)).toContain(`<b>DNS-записи ${domain}`);
    const again = await h.send(`/dns ${domain}`);
    expect(again.some((c) => c.method === 'sendRichMessage')).toBe(false);
    expect(lastText(again)).toContain('<b>A</b> h0 → <code>192.0.2.0</code>');
    expect(h.logLines.filter((l) => l.includes('does not take rich messages'))).toHaveLength(1);
    // A new bot (a restart) tries rich messages again.
    await h.restart();
    expect(rich(await h.send(`/dns ${domain}`))).toHaveLength(1);
  });

  it('sends one refused rich screen as HTML and keeps rich messages for the next', async () => {
    const { domain } = await zoneOf(2);
    h.failures.set('sendRichMessage', { error_code: 400, description: 'Bad Request: too many blocks' });
    const first = await h.send(`/dns ${domain}`);
    expect(lastText(first)).toContain('<b>A</b> h1');
    expect(rich(await h.send(`/dns ${domain}`))).toHaveLength(1);
  });

  it('passes other errors on as any call would (a blocked bot is not a reason to switch)', async () => {
    const { domain } = await zoneOf(1);
    h.failures.set('sendRichMessage', {
      error_code: 403,
      description: 'Forbidden: bot was blocked by the user',
    });
    const calls = await h.send(`/dns ${domain}`);
    // No HTML copy of the screen: the error is the error boundary's, as for any other call.
    expect(lastText(calls)).not.toContain('h0');
    expect(rich(await h.send(`/dns ${domain}`))).toHaveLength(1);
  });
});

describe('/dns <domain> with RICH_MESSAGES=off', () => {
  const html = useBot({ connect: ['partner'], richMessages: false });

  it('is today’s HTML screen: a line per record, fifteen to a page', async () => {
    const { domain } = await zoneOf(60, html.h.api());
    const calls = await html.h.send(`/dns ${domain}`);
    expect(rich(calls)).toHaveLength(0);
    const text = lastText(calls);
    expect(text).toMatch(/^<b>DNS-записи .*<\/b> · стр\. 1 из \d+/);
    expect(text).toMatch(/<code>#\d+<\/code> <b>A<\/b> h0 → <code>192\.0\.2\.0<\/code> · TTL 3600 с/);
    expect(text.length).toBeLessThanOrEqual(4096);
  });
});
