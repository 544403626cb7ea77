/**
 * `npm run dev`: the sandbox and the bot in one process, for trying every command without the
 * provider. Needs BOT_TOKEN (in .env or the environment); PARTNER_API_URL is set to the sandbox.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from './config.js';
import { main } from './main.js';
import { startSandbox } from './sandbox/server.js';

async function dev() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const sandbox = await startSandbox({
    port: Number(process.env.SANDBOX_PORT || 8787),
    ...(process.env.SANDBOX_TOKEN ? { token: process.env.SANDBOX_TOKEN } : {}),
  });
  process.stdout.write(
    `Sandbox on ${sandbox.url}. In Telegram, send /token to your bot and paste: ${sandbox.token}\n`,
  );
  await main({ ...process.env, PARTNER_API_URL: sandbox.url });
}

dev().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
