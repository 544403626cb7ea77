/**
 * The sandbox's DNS server: the authoritative server of every domain order's zone, answering over
 * UDP and TCP from the records as they stand at query time (what the API calls just changed is
 * answered at once), with SOA and NS at the apex. The provider's name servers (the hosting and
 * editor ones, `ns1.sandbox-host.by` …) resolve to 127.0.0.1, so a bot whose live check asks "the
 * domain's name servers" reaches this server. Names outside every zone are REFUSED, as an
 * authoritative-only server does; a name that does not exist is NXDOMAIN and a name without the
 * asked type NODATA, both with the zone's SOA in the authority section.
 */

import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import { domainToASCII } from 'node:url';
import dnsPacket, { type Answer, type DecodedPacket, type Packet, type RecordType } from 'dns-packet';
import type { DnsRecord, NameServer, SandboxState } from './state.js';

/** One query the server received (tests read them: which name, which type, over what). */
export interface DnsQueryLog {
  transport: 'udp' | 'tcp';
  name: string;
  type: string;
}

export interface SandboxDns {
  port: number;
  /** Every query received, in order. */
  queries: DnsQueryLog[];
  /**
   * From now on, answers come from the records as they are at this moment, as a secondary name
   * server that has not picked up the latest changes yet; `release()` answers the live records again.
   */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

const RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3, notImp: 4, refused: 5 } as const;
const AUTHORITATIVE = dnsPacket.AUTHORITATIVE_ANSWER;
const TRUNCATED = dnsPacket.TRUNCATED_RESPONSE;
const RECURSION_DESIRED = dnsPacket.RECURSION_DESIRED;
/** Without EDNS a UDP answer is at most 512 bytes; with it, what the client offers, at most this. */
const MAX_UDP_PAYLOAD = 1232;
const SOA_TTL = 3600;
const LOOPBACK = '127.0.0.1';

/** A record of a zone, as it goes on the wire. */
type Rr = Exclude<Answer, { type: 'OPT' }> & { name: string; type: RecordType; ttl: number };

interface Zone {
  apex: string;
  records: Rr[];
  /** The zone's name servers (the apex NS set). */
  servers: string[];
}

/** Lower-case ASCII without the trailing dot; Unicode labels in punycode. */
function asciiName(name: string): string {
  const bare = name.trim().replace(/\.$/, '').toLowerCase();
  if (!/[^\p{ASCII}]/u.test(bare)) return bare;
  return bare
    .split('.')
    .map((label) => (label === '*' || /^[\p{ASCII}]*$/u.test(label) ? label : domainToASCII(label) || label))
    .join('.');
}

/** The owner name of a record's host: '@' the apex, a trailing dot absolute, else below the apex. */
function ownerOf(host: string, apex: string): string {
  if (host === '@' || host === '') return apex;
  if (host.endsWith('.')) return asciiName(host);
  return asciiName(`${host}.${apex}`);
}

/** A TXT value wholly in zone-file quotes (`"a" "b"`) is those strings; otherwise the text itself. */
function txtStrings(text: string): string {
  const quoted = /\s*"((?:[^"\\]|\\.)*)"\s*/y;
  const parts: string[] = [];
  let position = 0;
  while (position < text.length) {
    quoted.lastIndex = position;
    const match = quoted.exec(text);
    if (!match) return text;
    parts.push((match[1] ?? '').replace(/\\(.)/g, '$1'));
    position = quoted.lastIndex;
  }
  return parts.length > 0 ? parts.join('') : text;
}

/** A text as character strings of at most 255 bytes each (RFC 1035), split between characters. */
function characterStrings(text: string): Buffer[] {
  const chunks: Buffer[] = [];
  let current = '';
  for (const char of text) {
    if (Buffer.byteLength(current + char) > 255) {
      chunks.push(Buffer.from(current));
      current = '';
    }
    current += char;
  }
  chunks.push(Buffer.from(current));
  return chunks;
}

const uint16 = (word: string | undefined): number | undefined =>
  word !== undefined && /^\d{1,5}$/.test(word) && Number(word) <= 65_535 ? Number(word) : undefined;

/** The wire form of a sandbox record (`<host> <rdata>`), or undefined when it cannot be read. */
function toRr(record: DnsRecord, apex: string): Rr | undefined {
  const match = /^\s*(\S+)\s([\s\S]*)$/.exec(record.value);
  if (!match) return undefined;
  const host = match[1] ?? '@';
  const rdata = (match[2] ?? '').trim();
  const words = rdata.split(/\s+/);
  const base = { name: ownerOf(host, apex), ttl: record.ttl };
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return { ...base, type: record.type, data: rdata };
    case 'CNAME':
    case 'NS':
      return { ...base, type: record.type, data: asciiName(rdata) };
    case 'MX': {
      const preference = uint16(words[0]);
      return preference === undefined
        ? undefined
        : { ...base, type: 'MX', data: { preference, exchange: asciiName(words[1] ?? '') } };
    }
    case 'TXT':
      return { ...base, type: 'TXT', data: characterStrings(txtStrings(match[2] ?? '')) };
    case 'SRV': {
      // The sandbox lists `<host> <service> <protocol> <priority> <weight> <port> <target>`.
      const [service = '', protocol = '', p, w, port, target = '.'] = words;
      const numbers = [uint16(p), uint16(w), uint16(port)];
      if (numbers.some((n) => n === undefined)) return undefined;
      const [priority = 0, weight = 0, portNumber = 0] = numbers as number[];
      const owner = host === '@' ? apex : ownerOf(host, apex);
      return {
        name: asciiName(`${service}.${protocol}.${owner}`),
        ttl: record.ttl,
        type: 'SRV',
        data: { priority, weight, port: portNumber, target: asciiName(target) || '.' },
      };
    }
  }
}

/** The zones the sandbox serves: every domain order's, and the provider's own (its name servers). */
function buildZones(state: SandboxState, records: (orderId: number) => DnsRecord[] | undefined): Zone[] {
  const providerServers = [...state.hostingServers, ...state.editorServers].map((s) => asciiName(s.ns));
  const zones: Zone[] = [];
  for (const order of state.orders) {
    if (order.details.kind !== 'domain') continue;
    const apex = asciiName(order.details.domain);
    const listed: NameServer[] =
      order.details.servers.length > 0 ? order.details.servers : state.editorServers;
    const servers = listed.map((s) => asciiName(s.ns));
    const rrs = (records(order.order_id) ?? order.details.records)
      .map((r) => toRr(r, apex))
      .filter((r): r is Rr => r !== undefined);
    zones.push({ apex, servers, records: rrs });
  }
  // The provider's name servers live in the zone of their parent name (sandbox-host.by).
  const providerApex = providerServers[0]?.split('.').slice(1).join('.');
  if (providerApex) {
    zones.push({
      apex: providerApex,
      servers: providerServers.slice(0, 2),
      records: providerServers.map((name) => ({ name, ttl: 86_400, type: 'A', data: LOOPBACK })),
    });
  }
  return zones;
}

const within = (name: string, apex: string): boolean => name === apex || name.endsWith(`.${apex}`);

/** The zone a name belongs to: the longest apex it is within. */
function zoneOf(zones: Zone[], name: string): Zone | undefined {
  return zones.filter((z) => within(name, z.apex)).sort((a, b) => b.apex.length - a.apex.length)[0];
}

function soaOf(zone: Zone, serial: number): Rr {
  return {
    name: zone.apex,
    type: 'SOA',
    ttl: SOA_TTL,
    data: {
      mname: zone.servers[0] ?? `ns.${zone.apex}`,
      rname: `hostmaster.${zone.apex}`,
      serial,
      refresh: 3600,
      retry: 600,
      expire: 604_800,
      minimum: 300,
    },
  };
}

/** What the zone holds at the apex beside its records: SOA and the NS set. */
function apexRecords(zone: Zone, serial: number): Rr[] {
  const ns: Rr[] = zone.servers.map((server) => ({ name: zone.apex, type: 'NS', ttl: 86_400, data: server }));
  return [soaOf(zone, serial), ...ns];
}

interface Reply {
  rcode: number;
  authoritative: boolean;
  answers: Rr[];
  authorities: Rr[];
}

/** The answer of the zones to one question (RFC 1034 4.3.2, without recursion). */
export function answerQuestion(zones: Zone[], serial: number, qname: string, qtype: string): Reply {
  const name = asciiName(qname);
  const zone = zoneOf(zones, name);
  if (!zone) return { rcode: RCODE.refused, authoritative: false, answers: [], authorities: [] };
  const all = [...apexRecords(zone, serial), ...zone.records];
  const soa = [soaOf(zone, serial)];
  // A delegation below the apex (an NS record at `shop`): a referral, not an authoritative answer.
  const cut = zone.records.find((r) => r.type === 'NS' && r.name !== zone.apex && within(name, r.name));
  if (cut && !(qtype === 'DS' && name === cut.name)) {
    const referral = zone.records.filter((r) => r.type === 'NS' && r.name === cut.name);
    return { rcode: RCODE.noError, authoritative: false, answers: [], authorities: referral };
  }
  let atName = all.filter((r) => r.name === name);
  if (atName.length === 0) {
    const exists = all.some((r) => r.name.endsWith(`.${name}`));
    // A wildcard one level up answers for names that do not exist otherwise.
    const parent = name.split('.').slice(1).join('.');
    const wildcard = exists ? [] : all.filter((r) => r.name === `*.${parent}` && within(parent, zone.apex));
    if (wildcard.length === 0) {
      return {
        rcode: exists ? RCODE.noError : RCODE.nxDomain,
        authoritative: true,
        answers: [],
        authorities: soa,
      };
    }
    atName = wildcard.map((r) => ({ ...r, name }));
  }
  const cname = atName.find((r) => r.type === 'CNAME');
  if (cname && qtype !== 'CNAME') {
    // The alias, and what it points to when this server holds that too.
    const target = typeof cname.data === 'string' ? cname.data : '';
    const chased = target && target !== name ? answerQuestion(zones, serial, target, qtype).answers : [];
    return { rcode: RCODE.noError, authoritative: true, answers: [cname, ...chased], authorities: [] };
  }
  const answers = qtype === 'ANY' ? atName : atName.filter((r) => r.type === qtype);
  return answers.length > 0
    ? { rcode: RCODE.noError, authoritative: true, answers, authorities: [] }
    : { rcode: RCODE.noError, authoritative: true, answers: [], authorities: soa };
}

/** A copy of every domain order's records (for `hold`). */
function snapshotRecords(state: SandboxState): Map<number, DnsRecord[]> {
  const copy = new Map<number, DnsRecord[]>();
  for (const order of state.orders) {
    if (order.details.kind === 'domain')
      copy.set(
        order.order_id,
        order.details.records.map((r) => ({ ...r })),
      );
  }
  return copy;
}

/**
 * Starts the DNS server on `host:port` (UDP and TCP on the same port; port 0 picks a free one).
 * `state` is read at every query, so answers follow the API's changes at once.
 */
export async function startSandboxDns(
  state: () => SandboxState,
  options: { port?: number; host?: string } = {},
): Promise<SandboxDns> {
  const host = options.host ?? LOOPBACK;
  const queries: DnsQueryLog[] = [];
  let held: Map<number, DnsRecord[]> | undefined;

  /** The serial changes with every record the API creates, as a real zone's does on change. */
  const serialOf = (s: SandboxState) => 2026_000_000 + (s.nextIds.record % 1_000_000);

  function respond(query: DecodedPacket, transport: 'udp' | 'tcp'): Packet {
    const question = query.questions?.[0];
    const rd = query.flags !== undefined && (query.flags & RECURSION_DESIRED) !== 0 ? RECURSION_DESIRED : 0;
    const base = { type: 'response' as const, id: query.id ?? 0, questions: query.questions ?? [] };
    const opcode = query.flags === undefined ? 0 : (query.flags >> 11) & 0xf;
    if (!question || opcode !== 0) {
      return { ...base, flags: rd | (question ? RCODE.notImp : RCODE.formErr), answers: [] };
    }
    queries.push({ transport, name: question.name, type: question.type });
    const current = state();
    const zones = buildZones(current, (orderId) => held?.get(orderId));
    const reply = answerQuestion(zones, serialOf(current), question.name, question.type);
    const edns = query.additionals?.find((a) => a.type === 'OPT');
    return {
      ...base,
      flags: rd | (reply.authoritative ? AUTHORITATIVE : 0) | reply.rcode,
      answers: reply.answers,
      authorities: reply.authorities,
      additionals: edns
        ? [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: MAX_UDP_PAYLOAD,
              extendedRcode: 0,
              ednsVersion: 0,
              flags: 0,
              flag_do: false,
              options: [],
            },
          ]
        : [],
    };
  }

  /** The UDP answer, truncated (TC, no records) when it exceeds what the client can take. */
  function udpAnswer(message: Buffer): Buffer | undefined {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return undefined;
    }
    if (query.type === 'response') return undefined;
    const answer = respond(query, 'udp');
    const edns = query.additionals?.find((a) => a.type === 'OPT');
    const limit =
      edns && 'udpPayloadSize' in edns ? Math.min(Math.max(edns.udpPayloadSize, 512), MAX_UDP_PAYLOAD) : 512;
    const encoded = dnsPacket.encode(answer);
    if (encoded.length <= limit) return encoded;
    return dnsPacket.encode({
      ...answer,
      flags: (answer.flags ?? 0) | TRUNCATED,
      answers: [],
      authorities: [],
    });
  }

  const onUdp = (udp: Socket) => (message: Buffer, remote: RemoteInfo) => {
    const answer = udpAnswer(message);
    if (answer) udp.send(answer, remote.port, remote.address);
  };

  const connections = new Set<TcpSocket>();
  const onTcp = (socket: TcpSocket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) return;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        try {
          const query = dnsPacket.decode(message);
          if (query.type !== 'response') socket.write(dnsPacket.streamEncode(respond(query, 'tcp')));
        } catch {
          socket.destroy();
          return;
        }
      }
    });
  };

  /** UDP and TCP on one port; with port 0, UDP picks it and TCP takes the same (tried again if taken). */
  const listenBoth = async (wanted: number): Promise<{ udp: Socket; tcp: Server; port: number }> => {
    for (let attempt = 0; ; attempt++) {
      const udp = createSocket(host.includes(':') ? 'udp6' : 'udp4');
      const tcp = createServer(onTcp);
      try {
        await new Promise<void>((resolve, reject) => {
          udp.once('error', reject);
          udp.bind(wanted, host, () => {
            udp.off('error', reject);
            resolve();
          });
        });
        const port = udp.address().port;
        await new Promise<void>((resolve, reject) => {
          tcp.once('error', reject);
          tcp.listen(port, host, () => {
            tcp.off('error', reject);
            resolve();
          });
        });
        udp.on('message', onUdp(udp));
        udp.on('error', (error) => process.stderr.write(`sandbox dns: udp error: ${String(error)}\n`));
        return { udp, tcp, port };
      } catch (error) {
        try {
          udp.close();
        } catch {
          // Never bound: nothing to close.
        }
        if (wanted !== 0 || attempt >= 5) throw error;
      }
    }
  };
  const { udp, tcp, port } = await listenBoth(options.port ?? 0).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'EADDRINUSE'
      ? new Error(
          `the sandbox's DNS port ${host}:${options.port} is taken; set SANDBOX_DNS_PORT to a free one`,
        )
      : error;
  });

  let closing: Promise<void> | undefined;
  return {
    port,
    queries,
    hold: () => {
      held = snapshotRecords(state());
    },
    release: () => {
      held = undefined;
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        udp.close(() => tcp.close(() => resolve()));
      });
      return closing;
    },
  };
}
