import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { loadConfig } from '../../src/config.js';
import { type BotServer, startBotServer } from '../../src/http-server.js';
import { createLogger } from '../../src/logger.js';
import { miniAppRoutes } from '../../src/mini-app/index.js';
import { createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { quietServices } from '../helpers/mini-app-api.js';

/**
 * The Mini App's address when the app is not built (a fresh clone before `npm run build`): a page
 * in the user's language that says why and what to run, for every path under the app's, instead
 * of "nothing at this address".
 */

let dataDir: string;
const servers: BotServer[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mini-app-not-built-'));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(dataDir, { recursive: true, force: true });
});

/** The app's routes as main mounts them, serving `appDir`; resolves with the app's address. */
async function serveApp(appDir: string): Promise<string> {
  const logger = createLogger({ level: 'silent' });
  const chatData = createChatData({
    store: createLowdbStore({ dataDir: join(dataDir, 'data') }),
    keyring: parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`),
  });
  const server = await startBotServer({
    port: 0,
    host: '127.0.0.1',
    logger,
    health: () => ({}),
    onUpdate: () => undefined,
    routes: miniAppRoutes({
      config: loadConfig({
        BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
        PARTNER_API_URL: 'http://127.0.0.1:9/',
        MINI_APP_URL: 'http://127.0.0.1:8080/app/',
      }),
      chatData,
      apiFor: () => {
        throw new Error('no provider call serves a file');
      },
      services: quietServices(chatData, logger),
      translate: loadTranslations().t,
      logger,
      appDir,
    }),
  });
  servers.push(server);
  return `http://127.0.0.1:${server.port}/app/`;
}

describe('the Mini App when it is not built', () => {
  it('answers a page saying so and what to run, in Russian by default, for the app and its files', async () => {
    const base = await serveApp(join(dataDir, 'no-such-app'));
    for (const path of ['', '?domain=mysite.by', 'assets/index-3f2a.js']) {
      const answer = await fetch(new URL(path, base));
      expect(answer.status, path).toBe(503);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
      const page = await answer.text();
      expect(page).toContain('<html lang="ru">');
      expect(page).toContain('<h1>Панель не собрана</h1>');
      expect(page).toContain('Панель не собрана: выполните npm run build и откройте её снова.');
      expect(page).not.toContain('По этому адресу ничего нет');
    }
  });

  it('speaks the browser’s language', async () => {
    const base = await serveApp(join(dataDir, 'no-such-app'));
    const answer = await fetch(base, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    const page = await answer.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('The panel is not built: run npm run build, then open it again.');
  });

  it('an empty dist/app is not built either; a built one still answers a missing file 404', async () => {
    const empty = join(dataDir, 'empty');
    await mkdir(empty);
    expect((await fetch(await serveApp(empty))).status).toBe(503);

    const built = join(dataDir, 'built');
    await mkdir(built);
    await writeFile(join(built, 'index.html'), '<!doctype html><title>Partner</title>');
    const base = await serveApp(built);
    expect((await fetch(base)).status).toBe(200);
    const missing = await fetch(new URL('assets/gone.js', base));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('По этому адресу ничего нет.\n');
  });
});
