/**
 * `npm run dev`: the sandbox and the bot in one process, for trying every command without the
 * provider. With BOT_TOKEN (in .env or the environment) the bot talks to Telegram; without one it
 * starts the playground (a local Telegram in the browser). PARTNER_API_URL is set to the sandbox.
 * The sandbox's token and data are kept in DATA_DIR/sandbox, so the token the bot stored keeps
 * working after a restart.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeStartError, main } from './main.js';
import { playground } from './playground/main.js';
import { sandboxInstant } from './sandbox/dates.js';
import { type KeptSandboxFiles, startKeptSandbox } from './sandbox/persist.js';
import { SANDBOX_DNS_PORT } from './sandbox/server.js';

/** What `npm run dev` prints about the sandbox it started. */
export function describeDevSandbox(
  url: string,
  token: string,
  files: KeptSandboxFiles,
  secondToken?: string,
): string {
  const kept = {
    env: '(SANDBOX_TOKEN)',
    kept: `(kept in ${files.tokenFile}: the same after every restart)`,
    new: `(new; kept in ${files.tokenFile} for the next restarts)`,
  }[files.tokenFrom];
  const lines = [`Sandbox on ${url}. In Telegram, send /token to your bot and paste: ${token} ${kept}`];
  if (secondToken) lines.push(`A second partner's token (another account, studio-b.by): ${secondToken}`);
  if (files.notice) lines.push(`Sandbox: ${files.notice}.`);
  lines.push(
    files.dataFrom === 'kept'
      ? `Sandbox data restored from ${files.stateFile} (delete ${path.dirname(files.stateFile)} to start from the seed).`
      : `Sandbox data: the seed, kept in ${files.stateFile} from now on.`,
  );
  return `${lines.join('\n')}\n`;
}

/** Starts the sandbox (token and data kept under DATA_DIR) and the bot against it. */
export async function dev(env: Record<string, string | undefined>): Promise<void> {
  const { sandbox, files } = await startKeptSandbox(path.join(env.DATA_DIR || './data', 'sandbox'), {
    port: Number(env.SANDBOX_PORT || 8787),
    ...(env.SANDBOX_HOST ? { host: env.SANDBOX_HOST } : {}),
    ...(env.SANDBOX_TOKEN ? { token: env.SANDBOX_TOKEN } : {}),
    ...(env.SANDBOX_LINK_BASE ? { linkBase: env.SANDBOX_LINK_BASE } : {}),
    partners: [env.SANDBOX_TOKEN_2 ? { token: env.SANDBOX_TOKEN_2 } : {}],
    dns: { port: Number(env.SANDBOX_DNS_PORT || SANDBOX_DNS_PORT) },
  });
  process.stdout.write(describeDevSandbox(sandbox.url, sandbox.token, files, sandbox.partners[1]?.token));
  // The watchers live in the sandbox's time: `POST /__sandbox/clock` moves it for them too. The
  // live check asks the sandbox's DNS server, which stands in for every name server (so nothing
  // beyond 127.0.0.1 is dialed, even for a domain whose name servers carry other addresses).
  await main(
    { ...env, PARTNER_API_URL: sandbox.url, DNS_CHECK_PORT: String(sandbox.dns?.port ?? SANDBOX_DNS_PORT) },
    { watchersNow: () => sandboxInstant(sandbox.now()), dnsCheck: { everyServerAt: '127.0.0.1' } },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (existsSync('.env')) process.loadEnvFile('.env');
  // The same one line as `npm start` for every failed start (a refused token included), no stack.
  const start = process.env.BOT_TOKEN?.trim() ? dev : playground;
  start(process.env).catch((error: unknown) => {
    process.stderr.write(`${describeStartError(error, process.env.BOT_TOKEN)}\n`);
    process.exit(1);
  });
}
