import { describe, expect, it } from 'vitest';
import { ApiHttpError } from '../../src/api/index.js';
import type { HistoryAuthor } from '../../src/core/dns-history.js';
import { createLogger } from '../../src/logger.js';
import type { ChangesOutcome } from '../../src/services/dns-apply.js';
import { createDnsRecorder } from '../../src/services/dns-journal.js';
import { createKeyChanges, KEY_REPORT_INTERVAL_MS } from '../../src/services/key-changes.js';
import type { KeyReportPort, KeyUseReport } from '../../src/services/key-reports.js';
import { createLowdbGatewayState } from '../../src/storage/gateway-state.js';
import type { RobotKey } from '../../src/storage/robot-keys.js';
import { watchIdOf } from '../../src/storage/watch-store.js';

const key: RobotKey = {
  id: 'kabcdefghijkl',
  chatId: 501,
  kind: 'address',
  name: 'Роутер офиса',
  scope: 'office.client.by',
  orderId: 3,
  domain: 'client.by',
  networks: [],
  createdBy: { userId: 501, name: 'Ирина' },
  createdAt: '2026-11-28T10:00:00Z',
};
const change = (ip: string): ChangesOutcome => ({
  applied: [{ op: 'add', record: { type: 'A', host: 'office', ttl: 300, ipv4: ip } }],
  failures: [],
});

function world(token: string | undefined) {
  let clock = 1_000_000;
  const state = createLowdbGatewayState({ now: () => clock });
  const uses: KeyUseReport[] = [];
  const stops: string[] = [];
  const recorded: HistoryAuthor[] = [];
  const reports: KeyReportPort = {
    reportKeyUse: async (report) => void uses.push(report),
    reportKeyStopped: async ({ reason }) => void stops.push(reason),
  };
  const logger = createLogger({ level: 'silent' });
  const recorder = createDnsRecorder({
    chatData: {
      getToken: async () => token,
      getAccount: async () => (token === undefined ? undefined : { n: 1, token, active: true }),
    },
    dnsHistory: {
      record: async (_token, _order, entry) => {
        recorded.push(entry.who);
        return { id: `e${recorded.length}`, at: '', ...entry };
      },
      list: async () => [],
    },
    logger,
    zoneChanged: (accountId, orderId) => state.zoneChanged(accountId, orderId),
  });
  const changes = createKeyChanges({
    chatData: { getAccount: async () => (token === undefined ? undefined : { n: 1, token, active: true }) },
    apiFor: () => ({}) as never,
    recorder,
    reports,
    state,
    logger,
  });
  return {
    changes,
    state,
    uses,
    stops,
    recorded,
    advance(ms: number) {
      clock += ms;
    },
  };
}

describe("a key's change", () => {
  it('is one auto entry naming the key; the chat hears once an hour, the rest folded', async () => {
    const w = world('token-1');
    const first = await w.changes.endChange(key, change('198.51.100.9'));
    expect(first?.kind).toBe('auto');
    expect(w.recorded[0]).toEqual({
      chatId: 501,
      userId: 501,
      name: 'Ирина',
      key: 'Роутер офиса',
      account: 1,
    });
    await w.changes.endChange(key, change('198.51.100.10'));
    await w.changes.endChange(key, change('198.51.100.11'));
    expect(w.uses.map((u) => u.folded)).toEqual([0]);
    w.advance(KEY_REPORT_INTERVAL_MS + 1);
    await w.changes.endChange(key, change('198.51.100.12'));
    expect(w.uses.map((u) => u.folded)).toEqual([0, 2]);
    expect(w.recorded).toHaveLength(4);
  });

  it('drops the zone cache: the generation moves with every recorded change', async () => {
    const w = world('token-1');
    const before = await w.state.zoneGeneration(watchIdOf('token-1'), 3);
    await w.changes.endChange(key, change('198.51.100.9'));
    expect(await w.state.zoneGeneration(watchIdOf('token-1'), 3)).toBeGreaterThan(before);
  });

  it('a chat without a token stops its key and is told once', async () => {
    const w = world(undefined);
    expect(await w.changes.accountOf(key)).toEqual({ ok: false, reason: 'disconnected' });
    expect(await w.changes.accountOf(key)).toEqual({ ok: false, reason: 'disconnected' });
    expect(w.stops).toEqual(['disconnected']);
  });

  it('a refused token is told once, and again after the key worked in between', async () => {
    const w = world('token-1');
    const refused = new ApiHttpError(
      { operation: 'listDnsRecords', method: 'GET', path: '/v1/dns' },
      401,
      undefined,
    );
    expect(await w.changes.refusedAccount(key, refused)).toBe(true);
    expect(await w.changes.refusedAccount(key, refused)).toBe(true);
    expect(await w.changes.refusedAccount(key, new Error('timeout'))).toBe(false);
    expect(w.stops).toEqual(['refused']);
    await w.changes.endChange(key, change('198.51.100.9'));
    w.advance(2);
    await w.changes.refusedAccount(key, refused);
    expect(w.stops).toEqual(['refused', 'refused']);
  });
});
