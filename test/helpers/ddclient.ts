/**
 * Debian's ddclient (3.10.0, package `ddclient`, binary /usr/bin/ddclient) run once against a
 * dyndns2 server on 127.0.0.1, as a router or a NAS would run it.
 *
 * What it sends (seen with `-verbose` against a node:http server; one request per run for all
 * hosts that share login, password and server):
 *
 *   GET /nic/update?system=dyndns&hostname=a.example.by,b.example.by&myip=203.0.113.7 HTTP/1.1
 *   Host: 127.0.0.1:<port>
 *   Authorization: Basic base64(login:password)      (sent at once, not after a 401 challenge)
 *   User-Agent: ddclient/3.10.0
 *   Connection: close
 *
 * The host list is comma-joined and not percent-encoded; `system=dyndns` comes first.
 *
 * How it reads the answer (its own HTTP code, not a library), traps for the server side:
 * - The body must come with Content-Length, never chunked: ddclient 3.10 does not decode chunked
 *   bodies and takes the chunk size ("22") as the first host's status.
 * - One result line per host, in the order of `hostname=`: line n is host n's. Missing lines
 *   leave the later hosts unreported and the run still exits 0.
 * - Status 200 with `good <ip>` prints `SUCCESS:  updating <host>: good: IP address set to <ip>`
 *   (stdout), exit 0.
 * - `nochg <ip>` prints `WARNING:  updating <host>: nochg: No update required; …` (stderr), exit 0.
 * - `badauth` prints `FAILED:   updating <host>: badauth: Bad authorization (username or password)`
 *   and `nohost` `FAILED:   updating <host>: nohost: The hostname specified does not exist in the
 *   database` (stderr), exit 1. An unknown word prints `FAILED: … unexpected status (<line>)`.
 * - HTTP 401 prints `FAILED:   updating <hosts>: authorization failed (<the whole reply>)`, exit 1.
 * - Any other non-2xx (500 …) prints nothing and exits 0: a 5xx is invisible to the user.
 *
 * Sending again: ddclient keeps the address per host in its cache file and a second run with the
 * same address sends nothing (`-verbose` shows `SUCCESS: <host>: skipped: IP address was already
 * set to <ip>.`), even when the first run failed (3.10 caches the address with status=badauth).
 * `-force` (our `force: true`) or a fresh cache file makes it send again.
 *
 * Config: 3.10 still takes `use=ip, ip=<address>` (marked deprecated); its `usev4=ipv4, ipv4=`
 * also sends but warns that `use=ip` found no address, so we keep the old form. ddclient chmods
 * a config readable by others to 0600 and warns; we write it 0600. A password is read verbatim
 * between single quotes (no escapes), so it must hold neither `'` nor a line break.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCommand, runTool, type ToolRun } from './run-tool.js';

/** Whether Debian's ddclient is installed (`.ci/run` installs it). */
export const hasDdclient = hasCommand('ddclient');

export interface DdclientOptions {
  /** `host:port` of the dyndns2 server, plain HTTP. */
  server: string;
  login: string;
  password: string;
  hosts: string[];
  /** The address to report (`myip=`). */
  ip: string;
  /** Send even when the cache says the address is already set. */
  force?: boolean;
  /** Adds ddclient's `-verbose` (the request and reply; the Authorization value is redacted). */
  verbose?: boolean;
  /** Holds ddclient.conf and ddclient.cache; the same dir keeps the cache between runs. */
  workDir: string;
  timeoutMs?: number;
}

/** A login as a config value: ddclient's parser honours backslash escapes outside quotes. */
const escapeValue = (value: string): string => value.replace(/[\\'",\s#]/g, (c) => `\\${c}`);

/** Runs ddclient once in the foreground (no daemon, syslog, mail or pid file) and returns what it printed. */
export async function runDdclient(options: DdclientOptions): Promise<Pick<ToolRun, 'exitCode' | 'output'>> {
  if (/['\r\n]/.test(options.password))
    throw new Error('ddclient cannot read a password with a quote or newline');
  // The host line is split on commas and spaces, with no escapes.
  if (options.hosts.some((host) => !/^[^\s,#'"\\]+$/.test(host)))
    throw new Error('a host ddclient cannot list');
  const file = join(options.workDir, 'ddclient.conf');
  const config = [
    'daemon=0',
    'syslog=no',
    'ssl=no',
    'timeout=10',
    'protocol=dyndns2',
    `use=ip, ip=${escapeValue(options.ip)}`,
    `server=${escapeValue(options.server)}`,
    `login=${escapeValue(options.login)}`,
    `password='${options.password}'`,
    options.hosts.join(','),
    '',
  ].join('\n');
  // Created 0600 and set again: writeFile's mode applies only to a new file.
  await writeFile(file, config, { mode: 0o600 });
  await chmod(file, 0o600);
  const args = ['-foreground', '-daemon=0', '-file', file, '-cache', join(options.workDir, 'ddclient.cache')];
  if (options.force) args.push('-force');
  if (options.verbose) args.push('-verbose');
  const basic = Buffer.from(`${options.login}:${options.password}`).toString('base64');
  const run = await runTool('ddclient', args, {
    timeoutMs: options.timeoutMs ?? 20_000,
    secrets: [basic, options.password],
  });
  if (run.timedOut) throw new Error(`ddclient did not finish in time:\n${run.output}`);
  return { exitCode: run.exitCode, output: run.output };
}
