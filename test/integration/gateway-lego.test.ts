/**
 * The real story of issue 41's "Done when": Debian's lego, `--dns httpreq`, obtains a certificate
 * for `mysite.by` and `*.mysite.by` from Debian's pebble through the gateway, with a certificate
 * key made in storage for a chat holding the sandbox's token. Pebble's only DNS server is the
 * sandbox's, so a certificate means the TXT values were really served there. A recording proxy
 * in front of the gateway keeps what lego sent and checks, the moment each /present is answered,
 * that the sandbox's DNS already serves the value.
 */
import { X509Certificate } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { hasAcmeTools, type Pebble, runLego, startPebble } from '../helpers/acme.js';
import { type AcmeWorld, startAcmeWorld } from '../helpers/acme-world.js';
import { certificateKey } from '../helpers/key-fixtures.js';

const CHAT = 7201;

interface SeenCall {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: { fqdn?: string; value?: string };
  status: number;
  /** What the sandbox's DNS served at the fqdn when the answer went back to lego. */
  servedThen: string[];
}

describe.skipIf(!hasAcmeTools)('lego obtains a certificate through the gateway (httpreq)', () => {
  let sandbox: Sandbox;
  let world: AcmeWorld;
  let pebble: Pebble;
  let proxy: Server;
  let workDir: string;
  let resolver: Resolver;
  const calls: SeenCall[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dns: { port: 0 } });
    // Under the 10 s HTTP timeout the harness gives lego.
    world = await startAcmeWorld(sandbox, { waitMs: 5_000 });
    await world.chatData.setToken(CHAT, sandbox.token);
    resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([`127.0.0.1:${sandbox.dns?.port}`]);
    pebble = await startPebble({ dnsServer: `127.0.0.1:${sandbox.dns?.port}` });
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const answer = await fetch(`${world.url}${req.url}`, {
          method: req.method ?? 'POST',
          headers: Object.fromEntries(
            Object.entries(req.headers).flatMap(([k, v]) =>
              typeof v === 'string' &&
              !['host', 'content-length', 'connection', 'accept-encoding'].includes(k)
                ? [[k, v]]
                : [],
            ),
          ),
          body: raw,
        });
        const text = await answer.text();
        const body = JSON.parse(raw.toString('utf8')) as SeenCall['body'];
        const servedThen = await resolver.resolveTxt(body.fqdn ?? '').then(
          (rows) => rows.map((r) => r.join('')),
          () => [],
        );
        calls.push({ path: req.url ?? '', headers: req.headers, body, status: answer.status, servedThen });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    workDir = await mkdtemp(join(tmpdir(), 'lego-gateway-'));
  }, 30_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await pebble?.close();
    await world?.close();
    await sandbox?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('presents both values, answers once served, and leaves nothing after cleanup', async () => {
    const { key, secret } = await world.robotKeys.create(certificateKey(CHAT));
    const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const result = await runLego({
      directoryUrl: pebble.directoryUrl,
      caFile: pebble.httpsCaFile,
      email: 'admin@mysite.by',
      domains: ['mysite.by', '*.mysite.by'],
      httpreqEndpoint: endpoint,
      username: key.id,
      password: secret,
      dnsResolvers: [`127.0.0.1:${sandbox.dns?.port}`],
      workDir,
      timeoutMs: 60_000,
    });
    expect(result.exitCode, result.output).toBe(0);

    // What lego sent: two presents for one name, then their cleanups, Basic auth with the key.
    const presents = calls.filter((c) => c.path === '/present');
    const cleanups = calls.filter((c) => c.path === '/cleanup');
    expect(presents).toHaveLength(2);
    expect(cleanups).toHaveLength(2);
    for (const call of calls) {
      expect(call.headers['content-type']).toBe('application/json');
      expect(call.headers.authorization).toBe(
        `Basic ${Buffer.from(`${key.id}:${secret}`).toString('base64')}`,
      );
      expect(call.body).toEqual({
        fqdn: '_acme-challenge.mysite.by.',
        value: expect.stringMatching(/^[\w-]{43}$/),
      });
      expect(call.status).toBe(200);
    }
    // Each present was answered when the sandbox's DNS already served its value.
    for (const call of presents) expect(call.servedThen).toContain(call.body.value);
    // The provider got exactly two TXT adds at _acme-challenge and two deletes, nothing else.
    const writes = sandbox.requests.filter((r) => r.method !== 'GET');
    expect(writes.map((w) => `${w.method} ${w.path.replace(/\/\d+$/, '/<id>')}`)).toEqual([
      'POST /v1/domains/1006/dns/records/txt',
      'POST /v1/domains/1006/dns/records/txt',
      'DELETE /v1/domains/1006/dns/records/txt/<id>',
      'DELETE /v1/domains/1006/dns/records/txt/<id>',
    ]);
    for (const add of writes.slice(0, 2))
      expect(add.body).toMatchObject({ host: '_acme-challenge', ttl: 60 });
    // Gone from the zone and from DNS; nothing left for the sweep.
    expect(await resolver.resolveTxt('_acme-challenge.mysite.by').catch(() => [])).toEqual([]);
    expect(await world.state.dueChallenges(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);

    // The certificate: both names.
    const leaf = new X509Certificate(
      result.certificatePem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/)?.[0] ?? '',
    );
    expect(leaf.subjectAltName?.split(', ').sort()).toEqual(['DNS:*.mysite.by', 'DNS:mysite.by']);
    // The key's secret never reached a log line.
    expect(world.logLines.join('\n')).not.toContain(secret);
  }, 90_000);
});
