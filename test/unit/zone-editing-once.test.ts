/*
 * An Apply's result kept with its key, as another instance (or this one after a restart) reads it
 * back: the same counts, and a provider's refusal still the refusal it was, so the answer words it
 * with the provider's own message.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiHttpError } from '../../src/api/index.js';
import { createLogger } from '../../src/logger.js';
import { createZoneEditing, type ZoneEditApi } from '../../src/services/zone-editing.js';
import { createLowdbOnceKeys } from '../../src/storage/once-keys.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A zone with no records whose provider refuses TXT records; every write is counted. */
function fakeApi() {
  const writes: string[] = [];
  const api = {
    listDnsRecords: async () => [],
    addDnsRecord: async (_orderId: number, body: { text?: string }) => {
      writes.push(body.text === undefined ? 'add' : 'add txt');
      if (body.text !== undefined)
        throw new ApiHttpError(
          { operation: 'addDnsRecord', method: 'POST', path: '/v1/domains/1/dns/records/txt' },
          400,
          'Текст записи слишком длинный',
        );
    },
    deleteDnsRecord: async () => {
      writes.push('delete');
    },
  } as unknown as ZoneEditApi;
  return { api, writes };
}

describe('an Apply’s key across instances', () => {
  it('a repeat read from the kept result calls nothing and keeps the provider’s refusal', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-apply-once-'));
    dirs.push(dir);
    const logger = createLogger({ level: 'silent' });
    const recorder = { record: async () => undefined, list: async () => [] };
    const request = (api: ZoneEditApi) => ({
      api,
      who: { chatId: 5, userId: 5, name: 'Ольга', account: 1 },
      role: 'owner' as const,
      orderId: 1,
      domain: 'mysite.by',
      edits: [
        { op: 'add' as const, row: { type: 'A', host: 'www', data: '192.0.2.1', ttl: 3600 } },
        { op: 'add' as const, row: { type: 'TXT', host: 'www', data: '"too long"', ttl: 3600 } },
      ],
      force: false,
      key: 'apply-kept-result-0001',
    });

    const first = fakeApi();
    const keysBefore = createLowdbOnceKeys({ dataDir: dir });
    const ran = await createZoneEditing({ recorder, reports: undefined, logger, onceKeys: keysBefore }).apply(
      request(first.api),
    );
    await keysBefore.close();
    expect(first.writes).toEqual(['add', 'add txt']);

    // Another process on the same store (here: the file read again, through JSON).
    const second = fakeApi();
    const keysAfter = createLowdbOnceKeys({ dataDir: dir });
    const again = await createZoneEditing({
      recorder,
      reports: undefined,
      logger,
      onceKeys: keysAfter,
    }).apply(request(second.api));
    await keysAfter.close();
    expect(second.writes).toEqual([]);
    if (ran.status !== 'applied' || again.status !== 'applied') throw new Error('not applied');
    expect(again.outcome.applied).toEqual(ran.outcome.applied);
    expect(again.plan.calls).toEqual(ran.plan.calls);
    const failure = again.outcome.failures[0];
    expect(failure?.heldBack).toBe(false);
    const error = failure && !failure.heldBack ? failure.error : undefined;
    expect(error).toBeInstanceOf(ApiHttpError);
    expect(error).toMatchObject({ status: 400, providerMessage: 'Текст записи слишком длинный' });
  });
});
