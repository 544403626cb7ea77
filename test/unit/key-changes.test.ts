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

describe('a key of the chat’s second account', () => {
  it('acts with account 2’s token while account 1 is active: its zone, its history', async () => {
    const tokens: Record<number, string> = { 1: 'token-first-partner', 2: 'token-second-partner' };
    const account = async (_chatId: number, n: number) => {
      const token = tokens[n];
      return token === undefined ? undefined : { n, token, active: n === 1 };
    };
    const asked: string[] = [];
    const historyOf: string[] = [];
    const logger = createLogger({ level: 'silent' });
    const state = createLowdbGatewayState({ now: () => 1_000_000 });
    const changes = createKeyChanges({
      chatData: { getAccount: account },
      apiFor: (token) => {
        asked.push(token);
        return {} as never;
      },
      recorder: createDnsRecorder({
        // The chat's active (in-use) account is 1: a key must never fall back to it.
        chatData: { getToken: async () => tokens[1], getAccount: account },
        dnsHistory: {
          record: async (token, _order, entry) => {
            historyOf.push(token);
            return { id: 'e1', at: '', ...entry };
          },
          list: async () => [],
        },
        logger,
      }),
      reports: undefined,
      state,
      logger,
    });
    const second: RobotKey = { ...key, account: 2 };

    const acting = await changes.accountOf(second);
    expect(acting).toMatchObject({ ok: true, accountId: watchIdOf('token-second-partner') });
    expect(asked).toEqual(['token-second-partner']);
    const entry = await changes.endChange(second, change('198.51.100.20'));
    expect(entry?.who.account).toBe(2);
    expect(historyOf).toEqual(['token-second-partner']);

    // A key made before accounts acts for account 1.
    await changes.accountOf(key);
    expect(asked.at(-1)).toBe('token-first-partner');
    // A key of an account the chat no longer holds stops, never falling back to another.
    delete tokens[2];
    expect(await changes.accountOf(second)).toEqual({ ok: false, reason: 'disconnected' });
  });
});
