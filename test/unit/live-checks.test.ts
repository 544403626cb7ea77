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
