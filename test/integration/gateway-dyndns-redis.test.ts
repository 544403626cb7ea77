/**
 * Two gateway instances on one Redis agree: the address one of them wrote is `nochg` on the other
 * with no provider call, and a change recorded through either drops it for both.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type GatewayWorld, startGatewayWorld } from '../helpers/gateway-world.js';
import { addressKey, seedOfficeRecord } from '../helpers/key-fixtures.js';
import { deleteKeys } from '../helpers/two-instances.js';

const url = process.env.REDIS_URL;
const CHAT = 773_001;

describe.skipIf(!url)('dyndns2 on two instances sharing Redis', () => {
  const prefix = `pb-test-gateway-${randomBytes(4).toString('hex')}:`;
  let sandbox: Sandbox;
  const clients: Redis[] = [];
  const worlds: GatewayWorld[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    await seedOfficeRecord(sandbox);
    for (let i = 0; i < 2; i += 1) {
      const client = new Redis(url as string);
      clients.push(client);
      worlds.push(await startGatewayWorld({ providerUrl: sandbox.url, redis: { client, prefix } }));
    }
  });

  afterAll(async () => {
    for (const world of worlds) await world.close();
    for (const client of clients) client.disconnect();
    await deleteKeys(url as string, prefix);
    await sandbox.close();
  });

  it('a good on A, then nochg on B with no provider call; a change through B is seen by A', async () => {
    const [a, b] = worlds as [GatewayWorld, GatewayWorld];
    await a.chatData.setToken(CHAT, sandbox.token);
    const issued = await a.robotKeys.create(addressKey(CHAT));
    const auth = { id: issued.key.id, secret: issued.secret };
    const path = '/nic/update?hostname=office.mysite.by&myip=198.51.100.9';
    expect((await a.get(path, { auth })).text).toBe('good 198.51.100.9\n');
    const before = sandbox.requests.length;
    expect((await b.get(path, { auth })).text).toBe('nochg 198.51.100.9\n');
    expect(sandbox.requests.length).toBe(before);

    // The chat changes the zone through B's history: A's next nochg asks the provider again.
    await b.recorder.record({ chatId: CHAT, userId: CHAT, name: 'P' }, 1006, 'change', { records: [] });
    expect((await a.get(path, { auth })).text).toBe('nochg 198.51.100.9\n');
    expect(sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/domains/1006/dns/records',
    ]);
  });
});
