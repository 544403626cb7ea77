import { describe, expect, it } from 'vitest';
import type { PartnerApi } from '../../src/api/index.js';
import { type LiveCheckJob, LiveChecks } from '../../src/bot/features/dns/live-check/live-check.js';
import { type DnsProbe, expectChange } from '../../src/core/dns-check.js';
import { createLogger } from '../../src/logger.js';

/** A probe whose servers never show anything (every run keeps retrying). */
const lagging: DnsProbe = {
  addressesOf: async () => ['127.0.0.1'],
  ask: async () => ({ kind: 'answer', values: [] }),
};

/** Just enough of the partner API for a run: the domain and its two name servers. */
const api = {
  domainOrderIndex: async () => ({ byOrderId: new Map([[1, 'example.by']]), byDomain: new Map() }),
  listNameServers: async () => [
    { ns: 'ns1.example.by', ip: null },
    { ns: 'ns2.example.by', ip: null },
  ],
} as unknown as PartnerApi;

function setUp(maxRuns: number) {
  const edits: { messageId: number; text: string }[] = [];
  const sleepers: (() => void)[] = [];
  const checks = new LiveChecks({
    probe: lagging,
    telegram: {
      editMessageText: async (_chat, messageId, _inline, text) => {
        edits.push({ messageId: Number(messageId), text: String(text) });
        return true;
      },
      // Only an HTML message is edited here; a rich one's edit is a bot story (live-check.test.ts).
      callApi: (async () => true) as never,
    },
    logger: createLogger({ level: 'silent' }),
    maxRuns,
    // Pauses last until aborted: runs stay in flight until evicted or stopped.
    clock: {
      now: () => 0,
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          sleepers.push(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    },
  });
  const job = (messageId: number): LiveCheckJob => ({
    chatId: 1,
    messageId,
    html: `change ${messageId}`,
    t: (key) => key,
    api,
    orderId: 1,
    expect: async (domain) =>
      expectChange(domain, { added: [{ type: 'A', host: 'www', ttl: 300, ipv4: '192.0.2.1' }] }),
    style: 'change',
  });
  const settled = async (count: number) => {
    for (let i = 0; i < 100 && sleepers.length < count; i++) await new Promise((r) => setTimeout(r, 5));
  };
  return { checks, edits, job, settled };
}

describe('live check runs', () => {
  it('are bounded: a run past the limit stops the oldest, which says so', async () => {
    const { checks, edits, job, settled } = setUp(2);
    checks.start(job(1));
    checks.start(job(2));
    await settled(2);
    expect(checks.running).toBe(2);
    checks.start(job(3));
    await settled(3);
    expect(checks.running).toBe(2);
    expect(edits.filter((e) => e.messageId === 1).at(-1)?.text).toContain('dnscheck:phase.stopped');
    await checks.stop();
  });

  it('are cancelled on stop: none left, no edit after it', async () => {
    const { checks, edits, job, settled } = setUp(10);
    for (const id of [1, 2, 3]) checks.start(job(id));
    await settled(3);
    const before = edits.length;
    await checks.stop();
    expect(checks.running).toBe(0);
    expect(edits.length).toBe(before);
    checks.start(job(4));
    expect(checks.running).toBe(0);
  });
});

describe('a live check’s edit', () => {
  /** A probe whose servers show the change at once: one edit, the ✅ line. */
  const seen: DnsProbe = {
    addressesOf: async () => ['127.0.0.1'],
    ask: async () => ({ kind: 'answer', values: ['192.0.2.1'] }),
  };
  function run(screen: LiveCheckJob['screen']) {
    const html: string[] = [];
    const rich: { method: string; payload: Record<string, unknown> }[] = [];
    const checks = new LiveChecks({
      probe: seen,
      telegram: {
        editMessageText: async (_chat, _id, _inline, text) => {
          html.push(String(text));
          return true;
        },
        callApi: (async (method: string, payload: Record<string, unknown>) => {
          rich.push({ method, payload });
          return true;
        }) as never,
      },
      logger: createLogger({ level: 'silent' }),
      clock: { now: () => 0, sleep: async () => undefined },
    });
    checks.start({
      chatId: 1,
      messageId: 7,
      html: '<b>Готово: 1 из 1 изменений применено.</b>',
      screen,
      t: (key) => key,
      api,
      orderId: 1,
      expect: async (domain) =>
        expectChange(domain, { added: [{ type: 'A', host: 'www', ttl: 300, ipv4: '192.0.2.1' }] }),
      style: 'change',
    });
    return { checks, html, rich };
  }

  it('of an HTML report adds the check’s lines under its HTML', async () => {
    const { checks, html, rich } = run(undefined);
    await checks.idle();
    expect(rich).toEqual([]);
    expect(html).toEqual(['<b>Готово: 1 из 1 изменений применено.</b>\n\ndnscheck:visibleOn']);
  });

  it('of a rich report is a rich editMessageText: its screen, the lines a paragraph, its buttons', async () => {
    const keyboard = [[{ text: '↩', callback_data: 'u' }]];
    const { checks, html, rich } = run({ title: 'Готово', blocks: [{ type: 'text', html: 'x' }], keyboard });
    await checks.idle();
    expect(html).toEqual([]);
    expect(rich).toHaveLength(1);
    expect(rich[0]?.method).toBe('editMessageText');
    expect(rich[0]?.payload).toMatchObject({
      chat_id: 1,
      message_id: 7,
      reply_markup: { inline_keyboard: keyboard },
      rich_message: {
        blocks: [
          { type: 'heading', text: 'Готово' },
          { type: 'paragraph', text: 'x' },
          { type: 'paragraph', text: 'dnscheck:visibleOn' },
        ],
      },
    });
  });
});
