/**
 * The playground: the whole bot with nothing from outside. The provider's sandbox, the local Bot
 * API server, the bot itself in long polling against both, and a web page that is a Telegram
 * client for it, all on 127.0.0.1. `npm run dev` starts it when there is no BOT_TOKEN;
 * `npm run playground` starts it on purpose. The bot serves its Mini App on its own port, and the
 * page opens it in a panel, as Telegram's web client does.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeStartError, main } from '../main.js';
import { APP_DIR } from '../mini-app/index.js';
import { sandboxInstant } from '../sandbox/dates.js';
import { startKeptSandbox } from '../sandbox/persist.js';
import { choosePlaygroundAppPort } from './app-port.js';
import { startBotApiServer } from './bot-api/index.js';
import { CHATS, PEOPLE, TEAM_GROUP } from './people.js';
import { startPlaygroundWeb } from './web.js';

/** Seconds between the watchers' polls: a payment made on the page is told within this. */
const PLAYGROUND_NOTIFY_INTERVAL_S = '5';

/** The Mini App's short name here, as if given to @BotFather: groups get t.me/<bot>/editor. */
const PLAYGROUND_MINI_APP_SHORT_NAME = 'editor';

/**
 * Where the bot serves its Mini App here, unless the env says: on its own port, the same every run
 * (PLAYGROUND_APP_PORT, known before the bot starts), under /app/ on 127.0.0.1, with a short
 * name, so that the bot shows its buttons in private chats and in the bound group.
 */
export async function playgroundMiniApp(
  env: Record<string, string | undefined>,
): Promise<{ port: string; url: string; shortName: string; notice?: string }> {
  const { port, notice } = await choosePlaygroundAppPort(env.PLAYGROUND_APP_PORT);
  return {
    port: String(port),
    url: env.MINI_APP_URL || `http://127.0.0.1:${port}/app/`,
    shortName: env.MINI_APP_SHORT_NAME || PLAYGROUND_MINI_APP_SHORT_NAME,
    ...(notice ? { notice } : {}),
  };
}

/** What the console says when the playground is up: the one address to open. */
export function describePlayground(url: string): string {
  return [
    `Playground: open ${url} in a browser.`,
    'It is a Telegram client for the bot, with the provider’s sandbox behind it; nothing leaves 127.0.0.1.',
    'Ctrl+C stops it. Set BOT_TOKEN (in .env) to run the bot in Telegram instead.',
    '',
  ].join('\n');
}

/**
 * Starts the sandbox, the local Bot API server, the page, and then the bot (which runs until
 * SIGINT/SIGTERM, when it stops gracefully and the process exits).
 */
export async function playground(env: Record<string, string | undefined>): Promise<void> {
  const dataDir = path.join(env.DATA_DIR || './data', 'playground');
  const { sandbox } = await startKeptSandbox(path.join(dataDir, 'sandbox'), {
    port: Number(env.SANDBOX_PORT || 0),
    ...(env.SANDBOX_TOKEN ? { token: env.SANDBOX_TOKEN } : {}),
    // A second partner (its own world: studio-b.by, orders from 11001), to try several accounts in
    // one chat; its token is SANDBOX_TOKEN_2, else one made once and kept in token-2.
    partners: [env.SANDBOX_TOKEN_2 ? { token: env.SANDBOX_TOKEN_2 } : {}],
    dns: { port: Number(env.SANDBOX_DNS_PORT || 0) },
  });
  // Messages are dated by the sandbox's clock: moved a month on, the chat's times move with it.
  const botApi = await startBotApiServer({ messageClock: () => sandbox.instant().getTime() });
  const miniApp = await playgroundMiniApp(env);
  for (const person of PEOPLE) botApi.defineUser(person);
  botApi.defineChat(TEAM_GROUP);
  const web = await startPlaygroundWeb({
    port: Number(env.PLAYGROUND_PORT || 3000),
    botApi,
    sandbox,
    chats: CHATS,
    people: PEOPLE,
    miniApp: { url: miniApp.url, shortName: miniApp.shortName },
  });
  process.stdout.write(describePlayground(web.url));
  if (miniApp.notice) process.stdout.write(`${miniApp.notice}\n\n`);
  if (!existsSync(path.join(APP_DIR, 'index.html'))) {
    // `npm run dev` and `npm run playground` build it first; this is a run from dist/ or a failed build.
    process.stdout.write(
      'The Mini App is not built (dist/app): `npm run build:app` makes it, for its buttons to open it.\n\n',
    );
  }
  await main(
    {
      ...env,
      BOT_TOKEN: botApi.token,
      TELEGRAM_API_ROOT: botApi.apiRoot,
      PARTNER_API_URL: sandbox.url,
      DATA_DIR: dataDir,
      STORAGE: 'lowdb',
      WEBHOOK_URL: '',
      WEBHOOK_SECRET: '',
      ALLOWED_USER_IDS: '',
      PORT: miniApp.port,
      // The bot's HTTP server (the Mini App, /healthz) stays on this machine, as the rest does.
      HOST: env.HOST || '127.0.0.1',
      MINI_APP_URL: miniApp.url,
      MINI_APP_SHORT_NAME: miniApp.shortName,
      NOTIFY_INTERVAL_S: env.NOTIFY_INTERVAL_S || PLAYGROUND_NOTIFY_INTERVAL_S,
      DNS_CHECK_PORT: String(sandbox.dns?.port ?? 53),
      LOG_LEVEL: env.LOG_LEVEL || 'error',
    },
    { watchersNow: () => sandboxInstant(sandbox.now()), dnsCheck: { everyServerAt: '127.0.0.1' } },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (existsSync('.env')) process.loadEnvFile('.env');
  playground(process.env).catch((error: unknown) => {
    process.stderr.write(`${describeStartError(error, undefined)}\n`);
    process.exit(1);
  });
}
