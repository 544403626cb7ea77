import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startKeptSandbox } from '../../src/sandbox/persist.js';
import type { Sandbox } from '../../src/sandbox/server.js';

let dir: string;
const running: Sandbox[] = [];

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'partner-bot-sandbox-')), 'sandbox');
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
  await rm(join(dir, '..'), { recursive: true, force: true });
});

async function start(token?: string) {
  const kept = await startKeptSandbox(dir, { port: 0, ...(token ? { token } : {}) });
  running.push(kept.sandbox);
  return kept;
}

async function restart(sandbox: Sandbox, token?: string) {
  await sandbox.close();
  return start(token);
}

async function nameServers(sandbox: Sandbox, token = sandbox.token) {
  const res = await fetch(`${sandbox.url}/v1/domains/1009/dns/servers?version=1.0`, {
    headers: { 'x-api-token': token },
  });
  return { status: res.status, body: (await res.json()) as { servers?: { ns: string }[] } };
}

describe('the sandbox kept in a folder (npm run dev, npm run sandbox)', () => {
  it('makes a token once and answers it after a restart', async () => {
    const first = await start();
    expect(first.files.tokenFrom).toBe('new');
    expect((await readFile(join(dir, 'token'), 'utf8')).trim()).toBe(first.sandbox.token);
    expect((await stat(join(dir, 'token'))).mode & 0o777).toBe(0o600);

    const second = await restart(first.sandbox);
    expect(second.files.tokenFrom).toBe('kept');
    expect(second.sandbox.token).toBe(first.sandbox.token);
    expect((await nameServers(second.sandbox, first.sandbox.token)).status).toBe(200);
  });

  it('keeps data changed through the API across a restart', async () => {
    const first = await start();
    expect(first.files.dataFrom).toBe('seed');
    const set = await fetch(`${first.sandbox.url}/v1/domains/1009/dns/servers/custom?version=1.0`, {
      method: 'PUT',
      headers: { 'x-api-token': first.sandbox.token, 'content-type': 'application/json' },
      body: JSON.stringify({ servers: [{ ns: 'ns1.kept-across.by' }, { ns: 'ns2.kept-across.by' }] }),
    });
    expect(set.status).toBe(200);

    const second = await restart(first.sandbox);
    expect(second.files.dataFrom).toBe('kept');
    const { body } = await nameServers(second.sandbox);
    expect(body.servers?.map((s) => s.ns)).toEqual(['ns1.kept-across.by', 'ns2.kept-across.by']);
  });

  it('lets SANDBOX_TOKEN win without touching the kept token', async () => {
    const first = await start();
    const second = await restart(first.sandbox, 'from-the-environment-123');
    expect(second.files.tokenFrom).toBe('env');
    expect(second.sandbox.token).toBe('from-the-environment-123');
    expect((await nameServers(second.sandbox, first.sandbox.token)).status).toBe(401);
    const third = await restart(second.sandbox);
    expect(third.sandbox.token).toBe(first.sandbox.token);
  });

  it('starts from the seed, saying why, when the kept data is unreadable or of another shape', async () => {
    const first = await start();
    await first.sandbox.close();
    await writeFile(join(dir, 'state.json'), '{"orders": [', 'utf8');
    const broken = await start();
    expect(broken.files.dataFrom).toBe('seed');
    expect(broken.files.notice).toMatch(/state\.json is unreadable .*starting from the seed data/);
    expect((await nameServers(broken.sandbox)).status).toBe(200);

    await broken.sandbox.close();
    await writeFile(join(dir, 'state.json'), '{"orders": []}', 'utf8');
    const older = await start();
    expect(older.files.dataFrom).toBe('seed');
    expect(older.files.notice).toMatch(/another sandbox version/);
  });
});
