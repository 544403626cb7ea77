/**
 * Debian's inadyn against the gateway in process (the sandbox as the provider): `good` with the
 * add before the delete, a forced second run `nochg` with no provider call; and how it reads the
 * refusals (its `custom` provider: every answer but good/nochg is an error it exits on, unless
 * run with `--continue-on-error`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type GatewayWorld, startGatewayWorld, wrongSecret } from '../helpers/gateway-world.js';
import { hasInadyn, runInadyn } from '../helpers/inadyn.js';
import { addressKey, seedOfficeRecord } from '../helpers/key-fixtures.js';

const CHAT = 774_001;

describe.skipIf(!hasInadyn)('inadyn (Debian 2.10) against /nic/update', () => {
  let sandbox: Sandbox;
  let world: GatewayWorld;
  let workDir: string;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    await seedOfficeRecord(sandbox);
    world = await startGatewayWorld({ providerUrl: sandbox.url });
    workDir = await mkdtemp(join(tmpdir(), 'inadyn-'));
  });

  afterEach(async () => {
    await world.close();
    await sandbox.close();
    await rm(workDir, { recursive: true, force: true });
  });

  const run = (login: string, password: string, force = false) =>
    runInadyn({
      server: world.url.replace('http://', ''),
      login,
      password,
      host: 'office.mysite.by',
      ip: '198.51.100.9',
      force,
      workDir,
    });

  it('good, the add before the delete; forced again: nochg with no provider call', async () => {
    await world.chatData.setToken(CHAT, sandbox.token);
    const { key, secret } = await world.robotKeys.create(addressKey(CHAT));
    const before = sandbox.requests.length;
    const first = await run(key.id, secret);
    expect(first.output).toContain('GET /nic/update?hostname=office.mysite.by&myip=198.51.100.9 HTTP/1.0');
    expect(first.output).toContain(
      'Successful alias table update for office.mysite.by => new IP# 198.51.100.9',
    );
    expect(first.exitCode).toBe(0);
    expect(sandbox.requests.slice(before).map((r) => r.method)).toEqual(['GET', 'POST', 'DELETE']);

    const quiet = sandbox.requests.length;
    const second = await run(key.id, secret, true);
    expect(second.output).toMatch(/nochg 198\.51\.100\.9/);
    expect(second.output).toContain('Successful alias table update');
    expect(second.exitCode).toBe(0);
    expect(sandbox.requests.length).toBe(quiet);
    expect(second.output).not.toContain(secret);
  });

  it('reads 911 (a stopped account) and badauth (a wrong key) as failures, nothing written', async () => {
    // A custom provider's answers are read by inadyn's generic check: anything but good/nochg
    // is "not OK", and without --continue-on-error it exits.
    const { key, secret } = await world.robotKeys.create(addressKey(CHAT));
    const before = sandbox.requests.length;
    const stopped = await run(key.id, secret);
    expect(stopped.output).toContain('[200 OK] 911');
    expect(stopped.output).toContain('DDNS server response not OK');

    const wrong = await run(key.id, wrongSecret(secret), true);
    expect(wrong.output).toContain('[200 OK] badauth');
    expect(wrong.output).toContain('DDNS server response not OK');
    expect(sandbox.requests.slice(before)).toEqual([]);
  });
});
