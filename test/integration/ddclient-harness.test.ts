/**
 * The ddclient harness against a tiny dyndns2 server: what Debian's ddclient sends, and how it
 * reports the server's answers. The gateway's own tests build on this harness; here the server is
 * a stub so that a failure points at the harness, not at the gateway.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasDdclient, runDdclient } from '../helpers/ddclient.js';

interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The Basic credentials, decoded. */
  credentials: { login: string; password: string } | undefined;
  userAgent: string | undefined;
}

const LOGIN = 'k_test01';
const PASSWORD = 'sEcr3t-pass_word';
const IP = '203.0.113.7';

describe.skipIf(!hasDdclient)('the ddclient harness (Debian ddclient 3.10)', () => {
  let server: Server;
  let port: number;
  let workDir: string;
  const seen: SeenRequest[] = [];
  /** The body the stub answers with; ddclient needs Content-Length (it reads no chunked body). */
  let answer = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const decoded = auth ? Buffer.from(auth, 'base64').toString('utf8') : undefined;
      const colon = decoded?.indexOf(':') ?? -1;
      seen.push({
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        credentials:
          decoded && colon >= 0
            ? { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
            : undefined,
        userAgent: req.headers['user-agent'],
      });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(async () => {
    seen.length = 0;
    workDir = await mkdtemp(join(tmpdir(), 'ddclient-'));
    return () => rm(workDir, { recursive: true, force: true });
  });

  const run = (extra: { force?: boolean } = {}) =>
    runDdclient({
      server: `127.0.0.1:${port}`,
      login: LOGIN,
      password: PASSWORD,
      hosts: ['home.example.by', 'nas.example.by'],
      ip: IP,
      workDir,
      ...extra,
    });

  it('sends one dyndns2 update for all hosts with Basic auth, and reports good', async () => {
    answer = `good ${IP}\ngood ${IP}\n`;
    const result = await run();

    expect(seen).toEqual([
      {
        method: 'GET',
        path: '/nic/update',
        query: { system: 'dyndns', hostname: 'home.example.by,nas.example.by', myip: IP },
        credentials: { login: LOGIN, password: PASSWORD },
        userAgent: 'ddclient/3.10.0',
      },
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain(`SUCCESS:  updating home.example.by: good: IP address set to ${IP}`);
    expect(result.output).toContain(`SUCCESS:  updating nas.example.by: good: IP address set to ${IP}`);
    expect(result.output).not.toContain(PASSWORD);
    expect((await stat(join(workDir, 'ddclient.conf'))).mode & 0o777).toBe(0o600);
  });

  it('sends nothing the second time unless forced', async () => {
    answer = `good ${IP}\ngood ${IP}\n`;
    await run();
    await run();
    expect(seen).toHaveLength(1);

    answer = `nochg ${IP}\nnochg ${IP}\n`;
    const forced = await run({ force: true });
    expect(seen).toHaveLength(2);
    expect(forced.exitCode).toBe(0);
    expect(forced.output).toContain('WARNING:  updating home.example.by: nochg: No update required');
  });

  it('reports badauth and nohost as failures', async () => {
    answer = 'badauth\n';
    const refused = await run();
    expect(seen).toHaveLength(1);
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toContain(
      'FAILED:   updating home.example.by: badauth: Bad authorization (username or password)',
    );

    answer = `good ${IP}\nnohost\n`;
    const partly = await run({ force: true });
    expect(partly.exitCode).toBe(1);
    expect(partly.output).toContain(`SUCCESS:  updating home.example.by: good: IP address set to ${IP}`);
    expect(partly.output).toContain(
      'FAILED:   updating nas.example.by: nohost: The hostname specified does not',
    );
  });

  it('keeps the password out of its verbose output', async () => {
    answer = `good ${IP}\ngood ${IP}\n`;
    const result = await runDdclient({
      server: `127.0.0.1:${port}`,
      login: LOGIN,
      password: PASSWORD,
      hosts: ['home.example.by'],
      ip: IP,
      workDir,
      verbose: true,
    });
    // ddclient itself prints the request, Authorization header included.
    expect(result.output).toContain(
      'SENDING:  GET /nic/update?system=dyndns&hostname=home.example.by&myip=203.0.113.7 HTTP/1.1',
    );
    expect(result.output).toContain('SENDING:  Authorization: Basic [redacted]');
    expect(result.output).not.toContain(Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64'));
  });
});
