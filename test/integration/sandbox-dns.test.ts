import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDnsRecordBody } from '../../src/api/index.js';
import { expectChange, judge } from '../../src/core/dns-check.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';
import { createDnsProbe } from '../../src/dns-check/probe.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';

let sandbox: Sandbox;
let resolver: Resolver;
let port: number;

/** A partner API call to the sandbox (adding and deleting records as the bot would). */
async function api(method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${sandbox.url}${path}?version=1.0`, {
    method,
    headers: { 'x-api-token': sandbox.token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response;
}

/** The error code node:dns reports for a query (ENOTFOUND = NXDOMAIN, ENODATA = no such type). */
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: NodeJS.ErrnoException) => error.code,
  );

/** One query over TCP with dns-packet's stream framing; the decoded answer. */
function askOverTcp(name: string, type: 'A' | 'TXT' | 'SOA'): Promise<DecodedPacket & { rcode?: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('connect', () =>
      socket.write(dnsPacket.streamEncode({ type: 'query', id: 7, questions: [{ type, name }] })),
    );
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        socket.end();
        resolve(dnsPacket.decode(received.subarray(2)));
      }
    });
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dns: { port: 0 } });
  port = sandbox.dns?.port ?? 0;
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
});
afterAll(async () => {
  await sandbox.close();
});

describe('the sandbox answers DNS for its domain orders', () => {
  it('answers every record type the records hold, from the seed', async () => {
    expect(await resolver.resolve4('mysite.by')).toEqual(['93.125.99.10']);
    expect(await resolver.resolve4('WWW.MySite.by.')).toEqual(['93.125.99.10']);
    expect(await resolver.resolve6('mysite.by')).toEqual(['2a00:1760:1:1::10']);
    expect(await resolver.resolveCname('ftp.mysite.by')).toEqual(['mysite.by']);
    expect(await resolver.resolveMx('mysite.by')).toEqual([
      { exchange: 'mx1.sandbox-host.by', priority: 10 },
      { exchange: 'mx2.sandbox-host.by', priority: 20 },
    ]);
    expect(await resolver.resolveTxt('_dmarc.mysite.by')).toEqual([
      ['v=DMARC1; p=none; rua=mailto:dmarc@mysite.by'],
    ]);
    expect(await resolver.resolveSrv('_sip._tcp.mysite.by')).toEqual([
      { name: 'sip.mysite.by', port: 5060, priority: 10, weight: 60 },
    ]);
    // IDN zones by their punycode name; a quoted TXT value is its text.
    expect(await resolver.resolve4('xn--e1afmkfd.xn--90ais')).toEqual(['93.125.99.20']);
    expect(await resolver.resolveTxt('xn--80arbjktj.xn--p1ai')).toEqual([
      ['google-site-verification=Zx8fQ2mVb7Lk1Rt0PqWs3NyHc5JdUe9A'],
    ]);
  });

  it('is authoritative with SOA and NS at the apex; its name servers resolve to 127.0.0.1', async () => {
    expect(await resolver.resolveNs('mysite.by')).toEqual(['dns1.sandbox-host.by', 'dns2.sandbox-host.by']);
    expect(await resolver.resolveSoa('mysite.by')).toMatchObject({
      nsname: 'dns1.sandbox-host.by',
      hostmaster: 'hostmaster.mysite.by',
    });
    expect(await resolver.resolve4('ns1.sandbox-host.by')).toEqual(['127.0.0.1']);
    expect(await resolver.resolve4('dns2.sandbox-host.by')).toEqual(['127.0.0.1']);
    const answer = await askOverTcp('mysite.by', 'A');
    expect(answer.flag_aa).toBe(true);
  });

  it('tells NXDOMAIN from NODATA (with the SOA), and refuses names outside its zones', async () => {
    expect(await codeOf(resolver.resolve4('nope.mysite.by'))).toBe('ENOTFOUND');
    expect(await codeOf(resolver.resolve6('www.mysite.by'))).toBe('ENODATA');
    expect(await codeOf(resolver.resolve4('google.com'))).toBe('EREFUSED');
    const nx = await askOverTcp('nope.mysite.by', 'A');
    expect(nx.rcode).toBe('NXDOMAIN');
    expect(nx.authorities?.map((a) => a.type)).toEqual(['SOA']);
    const nodata = await askOverTcp('www.mysite.by', 'TXT');
    expect(nodata.rcode).toBe('NOERROR');
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities?.map((a) => a.type)).toEqual(['SOA']);
    const refused = await askOverTcp('example.com', 'A');
    expect(refused.rcode).toBe('REFUSED');
    expect(refused.flag_aa).toBe(false);
  });

  it('answers what the API just changed: an added record at once, a deleted one no more', async () => {
    await api('POST', '/v1/domains/1006/dns/records/a', { ttl: 300, host: 'fresh', ipv4: '192.0.2.44' });
    expect(await resolver.resolve4('fresh.mysite.by')).toEqual(['192.0.2.44']);
    const listed = (await (await api('GET', '/v1/domains/1006/dns/records')).json()) as {
      records: { record_id: number; value: string }[];
    };
    const id = listed.records.find((r) => r.value === 'fresh 192.0.2.44')?.record_id;
    await api('DELETE', `/v1/domains/1006/dns/records/a/${id}`);
    expect(await codeOf(resolver.resolve4('fresh.mysite.by'))).toBe('ENOTFOUND');
  });

  it('holds stale answers when asked to (a name server behind), and catches up on release', async () => {
    sandbox.dns?.hold();
    await api('POST', '/v1/domains/1006/dns/records/a', { ttl: 300, host: 'late', ipv4: '192.0.2.45' });
    expect(await codeOf(resolver.resolve4('late.mysite.by'))).toBe('ENOTFOUND');
    sandbox.dns?.release();
    expect(await resolver.resolve4('late.mysite.by')).toEqual(['192.0.2.45']);
  });

  it('a second sandbox on a taken DNS port says which variable to change', async () => {
    await expect(startSandbox({ port: 0, dns: { port } })).rejects.toThrow(
      `the sandbox's DNS port 127.0.0.1:${port} is taken; set SANDBOX_DNS_PORT to a free one`,
    );
  });

  it('a TXT answer too large for UDP is truncated there and answered in full over TCP', async () => {
    const key = `v=DKIM1; k=rsa; p=${'A'.repeat(2400)}`;
    await api('POST', '/v1/domains/1006/dns/records/txt', { ttl: 300, host: 'big._domainkey', text: key });
    await api('POST', '/v1/domains/1006/dns/records/txt', {
      ttl: 300,
      host: 'big._domainkey',
      text: 'second',
    });
    const before = sandbox.dns?.queries.length ?? 0;
    const answers = await resolver.resolveTxt('big._domainkey.mysite.by');
    expect(answers.map((chunks) => chunks.join('')).sort()).toEqual([key, 'second'].sort());
    // Each string of a record is at most 255 bytes on the wire.
    expect(answers.flat().every((chunk) => Buffer.byteLength(chunk) <= 255)).toBe(true);
    const asked = sandbox.dns?.queries.slice(before).filter((q) => q.name === 'big._domainkey.mysite.by');
    expect(asked?.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });
});

describe('the live check reads what the sandbox serves', () => {
  const records: DnsRecordData[] = [
    { type: 'A', host: 'probe', ttl: 300, ipv4: '192.0.2.70' },
    { type: 'AAAA', host: 'probe', ttl: 300, ipv6: '2001:DB8:0::70' },
    { type: 'CNAME', host: 'probe-alias', ttl: 300, canonical: 'Target.Example.NET.' },
    { type: 'NS', host: 'probe-sub', ttl: 300, ns: 'ns1.other.by' },
    { type: 'MX', host: 'probe', ttl: 300, mail_server: 'mx.example.by', priority: 15 },
    { type: 'TXT', host: 'почта', ttl: 300, text: `v=spf1 include:_spf.example.by ${'x'.repeat(300)} -all` },
    {
      type: 'SRV',
      host: 'probe',
      ttl: 300,
      service: '_xmpp',
      protocol: '_tcp',
      target: 'xmpp.example.by',
      port: 5222,
      priority: 5,
      weight: 0,
    },
  ];

  it.each(records.map((r) => [r.type, r] as const))(
    '%s: added through the API, then visible',
    async (_type, record) => {
      const probe = createDnsProbe({ port, resolvers: [`127.0.0.1:${port}`], timeoutMs: 1000, tries: 1 });
      const [expectation] = expectChange('mysite.by', { added: [record] });
      // NS below the apex is a delegation: answered with a referral, so not checked.
      if (record.type === 'NS') {
        expect(expectation).toBeUndefined();
        return;
      }
      if (!expectation) throw new Error('no expectation');
      expect(judge(expectation, await probe.ask('127.0.0.1', expectation.name, record.type))).toBe('notYet');
      const body = toDnsRecordBody(record);
      const { kind, ...fields } = body;
      await api('POST', `/v1/domains/1006/dns/records/${kind}`, fields);
      expect(judge(expectation, await probe.ask('127.0.0.1', expectation.name, record.type))).toBe('visible');
      expect(await probe.addressesOf({ ns: 'dns1.sandbox-host.by', ip: null })).toEqual(['127.0.0.1']);
    },
  );
});
