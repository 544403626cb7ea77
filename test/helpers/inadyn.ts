/**
 * Debian's inadyn (2.10.0, package `inadyn`, /usr/sbin/inadyn) run once against a dyndns2 server
 * on 127.0.0.1, as a router would run it, through a `custom` provider section (the built-in
 * dyndns2 providers name their own servers).
 *
 * What it sends (seen with `-l debug`; one request per host, HTTP/1.0):
 *
 *   GET /nic/update?hostname=office.mysite.by&myip=198.51.100.9 HTTP/1.0
 *   Host: 127.0.0.1
 *   Authorization: Basic base64(login:password)
 *   User-Agent: inadyn/2.10.0 followed by its own project address
 *
 * How it reads the answer (a `custom` section uses its generic check, not its dyndns2 one):
 * `good`/`nochg` (among a few other words) anywhere in the body is success; anything else,
 * `911` and `dnserr` included, is "DDNS server response not OK" and the daemon exits unless
 * started with `--continue-on-error`. (Its built-in dyndns2 providers differ: `911`/`dnserr` are
 * "try later", `badauth` fatal.) Its debug log prints the Authorization header, so the output
 * handed back here has the Basic value redacted.
 *
 * Sending again: inadyn keeps the address per host in `--cache-dir` and, with `--once`, sends
 * nothing while it is the same; `--force` sends anyway.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCommand, runTool, type ToolRun } from './run-tool.js';

/** Whether Debian's inadyn is installed (`.ci/run` installs it). */
export const hasInadyn = hasCommand('inadyn');

export interface InadynOptions {
  /** `host:port` of the dyndns2 server, plain HTTP. */
  server: string;
  login: string;
  password: string;
  host: string;
  /** The address it reports (its check-IP command echoes it). */
  ip: string;
  force?: boolean;
  /** Holds inadyn.conf, its cache dir and pid file; the same dir keeps the cache between runs. */
  workDir: string;
}

/** Runs inadyn once in the foreground, debug log on, and returns what it printed. */
export async function runInadyn(options: InadynOptions): Promise<Pick<ToolRun, 'exitCode' | 'output'>> {
  if (/["\\\r\n]/.test(options.password + options.login + options.host))
    throw new Error('a value inadyn.conf cannot quote');
  if (!/^[\d.:a-f]+$/i.test(options.ip)) throw new Error('not an address to echo');
  const file = join(options.workDir, 'inadyn.conf');
  const config = [
    'period = 300',
    'custom bot {',
    '    ssl = false',
    `    username = "${options.login}"`,
    `    password = "${options.password}"`,
    `    ddns-server = "${options.server}"`,
    '    ddns-path = "/nic/update?hostname=%h&myip=%i"',
    `    checkip-command = "echo ${options.ip}"`,
    `    hostname = "${options.host}"`,
    '}',
    '',
  ].join('\n');
  await writeFile(file, config, { mode: 0o600 });
  await chmod(file, 0o600);
  const args = [
    '--once',
    '--foreground',
    '--loglevel=debug',
    `--config=${file}`,
    `--cache-dir=${join(options.workDir, 'cache')}`,
    `--pidfile=${join(options.workDir, 'inadyn.pid')}`,
  ];
  if (options.force) args.push('--force');
  const basic = Buffer.from(`${options.login}:${options.password}`).toString('base64');
  const run = await runTool('inadyn', args, { timeoutMs: 20_000, secrets: [basic, options.password] });
  if (run.timedOut) throw new Error(`inadyn did not finish in time:\n${run.output}`);
  return { exitCode: run.exitCode, output: run.output };
}
