/**
 * Debian's pebble (2.4.0, /usr/bin/pebble: a test ACME server) and lego (4.9.1, /usr/bin/lego:
 * an ACME client) on 127.0.0.1, so the gateway's httpreq endpoints are tested with the client
 * people use for DNS-01 and a CA that really checks the TXT record.
 *
 * What lego 4.9.1's httpreq provider sends (default mode, recorded against a node:http server):
 *
 *   POST /present HTTP/1.1                      (then POST /cleanup, same shape)
 *   Host: 127.0.0.1:<port>
 *   User-Agent: Go-http-client/1.1
 *   Content-Length: <n>
 *   Authorization: Basic base64(HTTPREQ_USERNAME:HTTPREQ_PASSWORD)   (sent at once, no challenge)
 *   Content-Type: application/json
 *   Accept-Encoding: gzip
 *
 *   {"fqdn":"_acme-challenge.example.by.","value":"<43 chars of base64url, no padding>"}
 *
 * - `fqdn` ends with a dot and is the same for `example.by` and `*.example.by`: one name gets
 *   two TXT values at once. lego presents every challenge first, then has the CA check them one
 *   after the other, then cleans each up, so /present must add a value beside the others, never
 *   replace them (replacing fails the first check: `403 :: …unauthorized :: Correct value not
 *   found for DNS challenge`), and /cleanup must remove only its own value.
 * - The paths are HTTPREQ_ENDPOINT's path joined with `present` / `cleanup`: an endpoint of
 *   `http://h/gw/httpreq/` gives `POST /gw/httpreq/present`. Any 2xx is success and lego reads
 *   no body. Otherwise the run fails (non-zero exit) with `acme: error presenting token: httpreq: 403:
 *   request failed: <the body>`, and lego still calls /cleanup for that value.
 * - With `--dns.disable-cp` (it exists in 4.9.1) lego does not wait for the name servers, but it
 *   still asks its resolvers: a CNAME query for `_acme-challenge.<domain>` at each present and
 *   cleanup, and the TXT once before it lets the CA check. Without `--dns.resolvers` that goes to
 *   /etc/resolv.conf, so the harness always names a 127.0.0.1 resolver.
 * - Each check takes ~6 s: pebble sends no Retry-After and lego then polls after 5 s, so two
 *   names take ~15 s.
 *
 * Pebble: Debian's package ships no test certificate (`dpkg -L pebble`: the two binaries, man
 * pages, and /usr/share/doc/pebble/examples/pebble-config.json naming upstream's
 * test/certs/localhost/{cert,key}.pem, which are not installed). So we
 * make a throwaway CA and a 127.0.0.1 certificate with openssl for pebble's HTTPS, and lego
 * trusts that CA through LEGO_CA_CERTIFICATES. Pebble's issuing root is a fresh key each start,
 * served at the management port's /roots/0.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './bot-process.js';
import { hasCommand, runTool, type ToolRun } from './run-tool.js';

const run = promisify(execFile);

/** Whether Debian's pebble, lego and openssl are installed (`.ci/run` installs them). */
export const hasAcmeTools = hasCommand('pebble') && hasCommand('lego') && hasCommand('openssl');

/** A pebble process with its URLs; `close` ends it and removes its files. */
export interface Pebble {
  /** The ACME directory, e.g. https://127.0.0.1:41234/dir */
  directoryUrl: string;
  /** The management interface (roots, intermediates), e.g. https://127.0.0.1:41235 */
  managementUrl: string;
  /** The CA (PEM file) that signed pebble's own HTTPS certificate: what a client must trust. */
  httpsCaFile: string;
  /** What pebble printed so far (its log goes to stdout). */
  output(): string;
  close(): Promise<void>;
}

/** A CA and a certificate for 127.0.0.1/localhost signed by it, for pebble's HTTPS. */
async function makeHttpsCertificate(
  dir: string,
): Promise<{ caFile: string; certFile: string; keyFile: string }> {
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('https-ca.key'),
    '-out',
    file('https-ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=partner-bot test HTTPS CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  await run('openssl', [
    'req',
    ...ec,
    '-keyout',
    file('https.key'),
    '-out',
    file('https.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  await writeFile(
    file('https.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('https.csr'),
    '-CA',
    file('https-ca.pem'),
    '-CAkey',
    file('https-ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('https.ext'),
    '-out',
    file('https.pem'),
  ]);
  return { caFile: file('https-ca.pem'), certFile: file('https.pem'), keyFile: file('https.key') };
}

/** GET over HTTPS trusting only `ca`; the status and body, or undefined when nothing answers. */
function getHttps(url: string, ca: string): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { ca, timeout: 2000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/**
 * Starts pebble on two free 127.0.0.1 ports, asking `dnsServer` (`host:port`) for DNS-01 TXT
 * records, with no random validation sleeps, no rejected nonces and no reused authorizations;
 * resolves once its directory answers.
 */
export async function startPebble(options: { dnsServer: string; timeoutMs?: number }): Promise<Pebble> {
  const dir = await mkdtemp(join(tmpdir(), 'pebble-'));
  const { caFile, certFile, keyFile } = await makeHttpsCertificate(dir);
  const ca = await readFile(caFile, 'utf8');
  const [port, managementPort] = [await freePort(), await freePort()];
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${port}`,
      managementListenAddress: `127.0.0.1:${managementPort}`,
      certificate: certFile,
      privateKey: keyFile,
      // Where pebble would dial for http-01 and tls-alpn-01; unused by DNS-01, never listened on.
      httpPort: 5002,
      tlsPort: 5001,
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
  const configFile = join(dir, 'pebble-config.json');
  await writeFile(configFile, JSON.stringify(config));

  const child = spawn('pebble', ['-config', configFile, '-dnsserver', options.dnsServer], {
    env: {
      PATH: process.env.PATH ?? '',
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_AUTHZREUSE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });

  const pebble: Pebble = {
    directoryUrl: `https://127.0.0.1:${port}/dir`,
    managementUrl: `https://127.0.0.1:${managementPort}`,
    httpsCaFile: caFile,
    output: () => output,
    close: async () => {
      if (!gone) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  const until = Date.now() + (options.timeoutMs ?? 10_000);
  while (Date.now() < until && !gone) {
    const answer = await getHttps(pebble.directoryUrl, ca);
    if (answer?.status === 200 && answer.body.includes('newOrder')) return pebble;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await pebble.close();
  throw new Error(`pebble did not start:\n${output}`);
}

/** Pebble's issuing root certificate (PEM), from its management interface. */
export async function fetchPebbleRoot(pebble: Pebble): Promise<string> {
  const answer = await getHttps(
    `${pebble.managementUrl}/roots/0`,
    await readFile(pebble.httpsCaFile, 'utf8'),
  );
  if (answer?.status !== 200) throw new Error(`pebble's root: ${answer?.status ?? 'no answer'}`);
  return answer.body;
}

export interface LegoOptions {
  directoryUrl: string;
  /** The CA file that signed the ACME server's HTTPS certificate (`Pebble.httpsCaFile`). */
  caFile: string;
  email: string;
  domains: string[];
  /** HTTPREQ_ENDPOINT: the base URL; lego posts to `<endpoint>/present` and `<endpoint>/cleanup`. */
  httpreqEndpoint: string;
  username: string;
  password: string;
  /** `host:port` lego asks for the TXT (and a CNAME) before it lets the CA check. */
  dnsResolvers: string[];
  /** lego's data: accounts/ and certificates/. */
  workDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface LegoRun extends Pick<ToolRun, 'exitCode' | 'output'> {
  /** The certificate chain lego wrote (`certificates/<first domain>.crt`), when it got one. */
  certificatePem?: string;
}

/** lego's file name for a domain: `*.` becomes `_.` (as lego's own sanitizing does). */
const certificateName = (domain: string) => domain.replace(/^\*\./, '_.');

/** Runs `lego … run` once: registers an account and obtains one certificate for all `domains`. */
export async function runLego(options: LegoOptions): Promise<LegoRun> {
  const args = [
    '--accept-tos',
    '--email',
    options.email,
    '--server',
    options.directoryUrl,
    '--path',
    options.workDir,
    '--dns',
    'httpreq',
    // Our /present waits for the name servers itself; lego's own wait would only add time.
    '--dns.disable-cp',
    ...options.dnsResolvers.flatMap((resolver) => ['--dns.resolvers', resolver]),
    ...options.domains.flatMap((domain) => ['--domains', domain]),
    'run',
  ];
  const result = await runTool('lego', args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.workDir,
      LEGO_CA_CERTIFICATES: options.caFile,
      HTTPREQ_ENDPOINT: options.httpreqEndpoint,
      HTTPREQ_USERNAME: options.username,
      HTTPREQ_PASSWORD: options.password,
      HTTPREQ_PROPAGATION_TIMEOUT: '10',
      HTTPREQ_POLLING_INTERVAL: '1',
      HTTPREQ_HTTP_TIMEOUT: '10',
      ...options.env,
    },
    timeoutMs: options.timeoutMs ?? 25_000,
    secrets: [options.password],
  });
  if (result.timedOut) throw new Error(`lego did not finish in time:\n${result.output}`);
  const first = options.domains[0];
  let certificatePem: string | undefined;
  if (first) {
    const dir = join(options.workDir, 'certificates');
    const names = await readdir(dir).catch(() => [] as string[]);
    const name = `${certificateName(first)}.crt`;
    if (names.includes(name)) certificatePem = await readFile(join(dir, name), 'utf8');
  }
  return { exitCode: result.exitCode, output: result.output, ...(certificatePem ? { certificatePem } : {}) };
}
