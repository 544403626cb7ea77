/**
 * The ACME harness end to end with stubs for our side: Debian's lego obtains a certificate for
 * `example.by` and `*.example.by` from Debian's pebble, solving DNS-01 through a tiny httpreq
 * server that puts the TXT values into the sandbox's DNS server (started on its own with a zone
 * for example.by), which pebble asks. The gateway's own tests swap the stub for the real endpoints.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxDns, startSandboxDns } from '../../src/sandbox/dns-server.js';
import { createSeed, SEED } from '../../src/sandbox/seed.js';
import type { DnsRecord, SandboxState } from '../../src/sandbox/state.js';
import { fetchPebbleRoot, hasAcmeTools, type Pebble, runLego, startPebble } from '../helpers/acme.js';

interface HttpreqCall {
  method: string;
  path: string;
  contentType: string | undefined;
  userAgent: string | undefined;
  credentials: string | undefined;
  body: unknown;
}

const USERNAME = 'k_acme01';
const PASSWORD = 'acme-secret-Value_1';

/** A fresh sandbox state with an empty zone for example.by (a copy of the seed's domain order). */
function stateWithExampleBy(): { state: SandboxState; records: DnsRecord[] } {
  const state = createSeed();
  const seeded = state.orders.find((o) => o.order_id === SEED.orders.domainBy);
  if (seeded?.details.kind !== 'domain') throw new Error('seed: no domain order');
  const records: DnsRecord[] = [];
  state.orders.push({
    ...structuredClone(seeded),
    order_id: 1999,
    details: { ...structuredClone(seeded.details), domain: 'example.by', records },
  });
  return { state, records };
}

describe.skipIf(!hasAcmeTools)('the ACME harness (Debian pebble 2.4 and lego 4.9)', () => {
  let dns: SandboxDns;
  let pebble: Pebble;
  let httpreq: Server;
  let endpoint: string;
  let workDir: string;
  const calls: HttpreqCall[] = [];
  const { state, records } = stateWithExampleBy();

  beforeAll(async () => {
    dns = await startSandboxDns(() => state, { port: 0 });
    pebble = await startPebble({ dnsServer: `127.0.0.1:${dns.port}` });
    httpreq = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const body = JSON.parse(raw) as { fqdn: string; value: string };
        const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        calls.push({
          method: req.method ?? '',
          path: req.url ?? '',
          contentType: req.headers['content-type'],
          userAgent: req.headers['user-agent'],
          credentials: auth && Buffer.from(auth, 'base64').toString('utf8'),
          body,
        });
        // A value beside the others (two challenges share the name); cleanup removes only its own.
        const rdata = `${body.fqdn} "${body.value}"`;
        if (req.url === '/present') {
          records.push({ record_id: state.nextIds.record++, type: 'TXT', ttl: 60, value: rdata });
        } else if (req.url === '/cleanup') {
          const at = records.findIndex((r) => r.value === rdata);
          if (at >= 0) records.splice(at, 1);
        }
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => httpreq.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(httpreq.address() as AddressInfo).port}`;
    workDir = await mkdtemp(join(tmpdir(), 'lego-'));
  }, 30_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => httpreq?.close(() => resolve()));
    await pebble?.close();
    await dns?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('obtains a certificate for a name and its wildcard through /present and /cleanup', async () => {
    const result = await runLego({
      directoryUrl: pebble.directoryUrl,
      caFile: pebble.httpsCaFile,
      email: 'admin@example.by',
      domains: ['example.by', '*.example.by'],
      httpreqEndpoint: endpoint,
      username: USERNAME,
      password: PASSWORD,
      dnsResolvers: [`127.0.0.1:${dns.port}`],
      workDir,
    });
    expect(result.exitCode, result.output).toBe(0);

    const presents = calls.filter((c) => c.path === '/present');
    const cleanups = calls.filter((c) => c.path === '/cleanup');
    expect(presents).toHaveLength(2);
    for (const call of calls) {
      expect(call).toMatchObject({
        method: 'POST',
        contentType: 'application/json',
        credentials: `${USERNAME}:${PASSWORD}`,
        body: { fqdn: '_acme-challenge.example.by.', value: expect.stringMatching(/^[\w-]{43}$/) },
      });
    }
    // Two different values for one name, each cleaned up once; nothing left in the zone.
    const values = (list: HttpreqCall[]) => list.map((c) => (c.body as { value: string }).value).sort();
    expect(new Set(values(presents)).size).toBe(2);
    expect(values(cleanups)).toEqual(values(presents));
    expect(records).toEqual([]);
    // The TXT was asked of our DNS (by lego, and by pebble, whose only DNS server it is).
    expect(dns.queries).toContainEqual({ transport: 'udp', name: '_acme-challenge.example.by', type: 'TXT' });

    // The chain lego wrote: a leaf for both names, issued under pebble's root.
    expect(result.certificatePem).toBeDefined();
    const pems =
      result.certificatePem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    const [leaf, intermediate] = pems.map((pem) => new X509Certificate(pem));
    expect(leaf?.subjectAltName?.split(', ').sort()).toEqual(['DNS:*.example.by', 'DNS:example.by']);
    const root = new X509Certificate(await fetchPebbleRoot(pebble));
    expect(intermediate && leaf?.verify(intermediate.publicKey)).toBe(true);
    expect(intermediate?.verify(root.publicKey)).toBe(true);
  }, 30_000);
});
