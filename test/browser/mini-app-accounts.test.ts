/**
 * The Mini App's account switcher, in Debian's Chromium: the built app (`dist/app`) and its API
 * on the bot's HTTP server, over a sandbox of two partners and a private chat holding both
 * accounts (the first partner's active, the second named «Студия Б»). The page is opened as
 * Telegram opens it, with signed launch data in its hash. The DNS screen opens on the chat's active
 * account, its picker listing that partner's domain; switched in the header to «Студия Б», the
 * picker lists the second partner's domains only and its zone opens. The choice is the app's own:
 * the chat's active account stays the first.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, PartnerTransport } from '../../src/api/index.js';
import type { BotServer } from '../../src/http-server.js';
import { LIGHT_THEME, MINI_APP_PLATFORM, MINI_APP_VERSION } from '../../src/playground/mini-app-launch.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { SECOND_TOKEN } from '../helpers/fixtures.js';
import { signLaunch, startMiniAppApi } from '../helpers/mini-app-api.js';
import { hasChromium, launchChromium } from '../helpers/playground.js';

const BOT_TOKEN = '7000000043:AAH-accounts-browser-bot-token_012345678';
const OWNER = 4301;

describe.skipIf(!hasChromium)('the Mini App’s account switcher in Chromium', () => {
  let sandbox: Sandbox;
  let transport: PartnerTransport;
  let server: BotServer;
  let dataDir: string;
  let chatData: ChatData;
  let base: string;
  let browser: Browser;
  let page: Page;
  /** The `X-Account` of every API call the page made, by its path. */
  const named: { path: string; account: string | undefined }[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, partners: [{ token: SECOND_TOKEN }] });
    transport = new PartnerTransport({ baseUrl: sandbox.url, retryDelayMs: 1 });
    dataDir = await mkdtemp(join(tmpdir(), 'mini-app-accounts-browser-'));
    chatData = createChatData({
      store: createLowdbStore({ dataDir: join(dataDir, 'data') }),
      keyring: parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`),
    });
    // Account 1: the first partner; account 2: the second, named by the user; 1 stays active.
    await chatData.setToken(OWNER, sandbox.token);
    const second = await chatData.addAccount(OWNER, SECOND_TOKEN);
    if (!second.ok || second.n !== 2) throw new Error('the second account was not added as 2');
    await chatData.renameAccount(OWNER, 2, 'Студия Б');
    await chatData.switchAccount(OWNER, 1);
    ({ server, base } = await startMiniAppApi({
      botToken: BOT_TOKEN,
      partnerApiUrl: sandbox.url,
      chatData,
      apiFor: createApiFactory(transport),
      lines: [],
    }));
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 390, height: 780 } })).newPage();
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.includes('/api/')) named.push({ path, account: request.headers()['x-account'] });
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await transport?.close();
    await sandbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('opens on the active account; switched to «Студия Б», its domains and zone; the chat’s account stays', async () => {
    // As a Telegram client opens the app: its address (at the DNS screen: with no screen named
    // the app opens on the home), the signed launch in the hash.
    const launch = new URL(base);
    launch.searchParams.set('screen', 'dns');
    launch.hash = new URLSearchParams({
      tgWebAppData: signLaunch(BOT_TOKEN, { id: OWNER, first_name: 'Olga' }),
      tgWebAppVersion: MINI_APP_VERSION,
      tgWebAppPlatform: MINI_APP_PLATFORM,
      tgWebAppThemeParams: JSON.stringify(LIGHT_THEME),
    }).toString();
    await page.goto(launch.href);

    // The header names the chat's active account in its switcher; the picker lists its domain.
    const switcher = page.getByRole('combobox', { name: 'Аккаунт партнёра' });
    await switcher.waitFor({ timeout: 10_000 });
    await expect.poll(() => switcher.locator('option:checked').textContent()).toBe('Аккаунт 1');
    await expect(switcher.getByRole('option').allTextContents()).resolves.toEqual(['Аккаунт 1', 'Студия Б']);
    const domains = page.getByRole('navigation', { name: 'Домены аккаунта' });
    await domains.getByRole('button', { name: 'mysite.by', exact: true }).waitFor({ timeout: 10_000 });

    // «Студия Б» chosen in the header: the picker is the second partner's.
    await switcher.selectOption({ label: 'Студия Б' });
    await domains.getByRole('button', { name: 'studio-b.by', exact: true }).waitFor({ timeout: 10_000 });
    await expect.poll(() => switcher.locator('option:checked').textContent()).toBe('Студия Б');
    await expect(domains.getByRole('button').allTextContents()).resolves.toEqual([
      'studio-b.by',
      'studio-b.com',
    ]);
    await expect(domains.getByRole('button', { name: 'mysite.by' }).count()).resolves.toBe(0);

    // Its zone, with the second partner's A record.
    await domains.getByRole('button', { name: 'studio-b.by', exact: true }).click();
    await page.getByRole('heading', { name: 'DNS-зона studio-b.by' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Значение: A @ — 192.0.2.20' }).waitFor();
    await expect(switcher.locator('option:checked').textContent()).resolves.toBe('Студия Б');

    // Every call after the session named its account: 1 before the switch, 2 after it.
    const zoneCall = named.find((c) => c.path.endsWith('/api/zone'));
    expect(zoneCall?.account).toBe('2');
    expect(named.filter((c) => c.path.endsWith('/api/zone/domains')).map((c) => c.account)).toEqual([
      '1',
      '2',
    ]);
    // The choice was the app's own: the chat's active account is still the first.
    expect(await chatData.currentAccountNumber(OWNER)).toBe(1);
  }, 60_000);
});
