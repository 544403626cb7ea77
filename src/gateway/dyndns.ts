/*
 * dyndns2 (`GET /nic/update`, and `/v3/update` as some clients name it), as ddclient, inadyn,
 * FRITZ!Box, OpenWrt's ddns-scripts and MikroTik scripts speak it (docs/automation.md):
 *
 *   GET /nic/update?hostname=office.client.by[,…]&myip=198.51.100.9[&myipv6=2001:db8::9]
 *   Authorization: Basic base64(<key id>:<secret>)
 *
 * The answer is `text/plain`, HTTP 200, one line per host in the order given: `good <ip>`,
 * `nochg <ip>`, `nohost`, `dnserr`, `911`, `abuse`; a refusal of the whole request is one line:
 * `badauth`, `notfqdn`, `numhost`, `abuse`. Only `good` changed anything. A request with no
 * credentials at all gets `badauth` with HTTP 401 and a Basic challenge.
 *
 * The router form puts the key in the query (`?username=<key id>&password=<secret>`) for
 * routers that cannot send Basic auth: accepted, but the secret then sits in the URL, which
 * proxies and the router's own logs may keep (docs/automation.md says so). Nothing of the query
 * or the Authorization header is logged, counted or put in an error here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DyndnsAnswer, readAddress, readHostList } from '../core/robot-keys.js';
import type { HttpRoute } from '../http-server.js';
import { errorForLog } from '../logger.js';
import { createRobotAddresses, type HostAnswer, type WantedAddress } from '../services/robot-addresses.js';
import { basicCredentials, GATEWAY_LIMITS, type RobotCredentials, sourceAddress } from './credentials.js';
import type { ProtocolDeps } from './deps.js';

const PROTOCOL = 'dyndns2';

/** The paths dyndns2 clients send to (`/v3/update` is the name of the v3 documents). */
export const DYNDNS_PATHS = ['/nic/update', '/v3/update'] as const;

/** The router form: the key in the query, when there is no Basic auth. */
function queryCredentials(query: URLSearchParams): RobotCredentials | undefined {
  const id = query.get('username');
  const secret = query.get('password');
  return id === null || secret === null ? undefined : { id, secret };
}

/** The addresses asked: `myip` (IPv4 or IPv6, or both comma-separated) and `myipv6`. */
function readWanted(query: URLSearchParams, source: string | undefined): WantedAddress[] | undefined {
  const given = [query.get('myip'), query.get('myipv6')]
    .flatMap((value) => (value ?? '').split(','))
    .map((text) => text.trim())
    .filter((text) => text !== '');
  // No address: the request's own source (ddclient sends `myip=` empty when it knows none).
  const texts = given.length > 0 ? given : source === undefined ? [] : [source];
  const wanted: WantedAddress[] = [];
  for (const text of texts) {
    const reading = readAddress(text);
    if (!reading.ok) return undefined;
    const same = wanted.find((w) => w.family === reading.family);
    if (same !== undefined && same.address !== reading.address) return undefined;
    if (same === undefined) wanted.push({ family: reading.family, address: reading.address });
  }
  return wanted.length > 0 ? wanted : undefined;
}

const lineOf = (answer: HostAnswer) => [answer.answer, ...answer.addresses].join(' ');

/** The answer, with a Content-Length (ddclient 3.10 cannot read a chunked body). */
function send(res: ServerResponse, lines: string[], status = 200, headers: Record<string, string> = {}) {
  const body = `${lines.join('\n')}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export function dyndnsRoutes(deps: ProtocolDeps): HttpRoute[] {
  const addresses = createRobotAddresses({
    keyChanges: deps.keyChanges,
    state: deps.state,
    robotKeys: deps.robotKeys,
  });
  const count = (outcome: DyndnsAnswer, times = 1) => {
    for (let i = 0; i < times; i += 1) deps.countUpdate(PROTOCOL, outcome);
  };

  /** A refusal of the whole request: one line, counted once. */
  const refuse = (res: ServerResponse, answer: DyndnsAnswer) => {
    count(answer);
    send(res, [answer]);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const query = new URL(req.url ?? '/', 'http://gateway').searchParams;
    const source = sourceAddress(req, deps.trustedProxies);
    const credentials = basicCredentials(req.headers.authorization) ?? queryCredentials(query);
    // No credentials at all: a challenge, for clients that send Basic auth only when asked.
    if (credentials === undefined) {
      count('badauth');
      return send(res, ['badauth'], 401, { 'www-authenticate': 'Basic realm="dyndns", charset="UTF-8"' });
    }
    const check = await deps.keys.check(credentials, source ?? '', 'address');
    // A key used from outside its networks is told what a wrong key is told: `badauth` says
    // "these credentials do not work here" and tells a thief nothing about the secret, where
    // `abuse` would send the owner looking for a block that is not there.
    if (!check.ok) return refuse(res, check.refusal === 'abuse' ? 'abuse' : 'badauth');
    const { key } = check;
    const hosts = readHostList(query.get('hostname') ?? undefined);
    if (!hosts.ok) return refuse(res, hosts.answer);
    const wanted = readWanted(query, source);
    // An address that is none: `dnserr` ("the record could not be written") changes nothing,
    // blames neither the key nor the host, and clients try again later (a router mid-reconnect).
    if (wanted === undefined) {
      count('dnserr', hosts.hosts.length);
      return send(
        res,
        hosts.hosts.map(() => 'dnserr'),
      );
    }
    const answers = await addresses.update(key, hosts.hosts, wanted, source ?? '');
    const lines: string[] = [];
    for (const [index, answer] of answers.entries()) {
      let shown = answer;
      if (answer.answer === 'nochg') {
        const host = hosts.hosts[index] ?? '';
        const seen = await deps.state.hit(`nochg:${key.id}:${host}`, GATEWAY_LIMITS.nochgWindowMs);
        if (seen > GATEWAY_LIMITS.nochgPerHost) shown = { answer: 'abuse', addresses: [] };
      }
      count(shown.answer);
      lines.push(lineOf(shown));
    }
    send(res, lines);
  };

  const route = (path: string): HttpRoute => ({
    method: 'GET',
    path,
    async handle(req, res) {
      try {
        await handle(req, res);
      } catch (error) {
        // Never the request: its query and headers may carry the secret.
        deps.logger.warn({ err: errorForLog(error) }, 'dyndns2 update failed');
        if (!res.headersSent) {
          count('911');
          send(res, ['911']);
        }
      }
    },
  });
  return DYNDNS_PATHS.map(route);
}
