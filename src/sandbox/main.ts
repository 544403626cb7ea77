/**
 * `npm run sandbox`: starts the partner API sandbox and prints its base URL and token.
 * Environment: SANDBOX_PORT (default 8787), SANDBOX_HOST (default 127.0.0.1), SANDBOX_TOKEN
 * (default: a random token made once and kept, printed), SANDBOX_LINK_BASE (optional base of the
 * short links), DATA_DIR (default ./data): the token and data are kept in DATA_DIR/sandbox, the
 * same folder `npm run dev` uses, so a restart changes neither. A second partner (its own world,
 * for trying several accounts in one chat) answers SANDBOX_TOKEN_2 or a token kept in token-2.
 */

import path from 'node:path';
import { startKeptSandbox } from './persist.js';
import { SANDBOX_DNS_PORT, type SandboxOptions } from './server.js';

function port(value: string | undefined, key = 'SANDBOX_PORT', fallback = 8787): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    throw new Error(`${key} must be a port number, got "${value}"`);
  }
  return number;
}

async function main(): Promise<void> {
  const options: SandboxOptions = {
    port: port(process.env.SANDBOX_PORT),
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    dns: { port: port(process.env.SANDBOX_DNS_PORT, 'SANDBOX_DNS_PORT', SANDBOX_DNS_PORT) },
  };
  const token = process.env.SANDBOX_TOKEN;
  if (token) options.token = token;
  const linkBase = process.env.SANDBOX_LINK_BASE;
  if (linkBase) options.linkBase = linkBase;

  const second = process.env.SANDBOX_TOKEN_2;
  const { sandbox, files } = await startKeptSandbox(path.join(process.env.DATA_DIR || './data', 'sandbox'), {
    ...options,
    partners: [second ? { token: second } : {}],
  });
  const lines = [
    `Partner API sandbox listening on ${sandbox.url}`,
    `  PARTNER_API_URL=${sandbox.url}`,
    token
      ? '  token: the one in SANDBOX_TOKEN (send it in x-api-token or x-auth-token)'
      : `  token: ${sandbox.token}  (kept in ${files.tokenFile}; send it in x-api-token or x-auth-token)`,
    second
      ? '  second partner token: the one in SANDBOX_TOKEN_2 (studio-b.by, orders from 11001)'
      : `  second partner token: ${sandbox.partner(2).token}  (kept in ${files.partners[0]?.tokenFile}; studio-b.by, orders from 11001)`,
    ...(files.notice ? [`  ${files.notice}`] : []),
    `  data: ${files.dataFrom === 'kept' ? 'restored from' : 'the seed, kept in'} ${files.stateFile} (delete ${path.dirname(files.stateFile)} to start afresh)`,
    `  DNS (UDP and TCP) on ${options.host}:${sandbox.dns?.port}: the authoritative server of the domain orders' zones; the bot's DNS_CHECK_PORT=${sandbox.dns?.port}`,
    `  every call needs ?version=1.0, e.g. ${sandbox.url}/v1/billing/currencies?version=1.0`,
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the sandbox\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
