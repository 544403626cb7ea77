/**
 * The Mini App's account switcher, in Debian's Chromium: the built app (`dist/app`) and its API
 * on the bot's HTTP server, over a sandbox of two partners and a private chat holding both
 * accounts (the first partner's active, the second named «Студия Б»). The page is opened as
 * Telegram opens it, with signed launch data in its hash. The DNS screen opens on the chat's active
 * account, its picker listing that partner's domain; switched in the header to «Студия Б», the
 * picker lists the second partner's domains only and its zone opens. The choice is the app's own:
 * the chat's active account stays the first.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIGHT_THEME, MINI_APP_PLATFORM, MINI_APP_VERSION } from '../../src/playground/mini-app-launch.js';
import type { ChatData } from '../../src/storage/chat-data.js';
import { SECOND_TOKEN } from '../helpers/fixtures.js';
import { signLaunch } from '../helpers/mini-app-api.js';
import { type MiniAppWorld, startMiniAppWorld } from '../helpers/mini-app-world.js';
import { hasChromium, launchChromium } from '../helpers/playground.js';

const BOT_TOKEN = '7000000043:AAH-accounts-browser-bot-token_012345678';
const OWNER = 4301;

describe.skipIf(!hasChromium)('the Mini App’s account switcher in Chromium', () => {
  let world: MiniAppWorld | undefined;
  let chatData: ChatData;
  let base: string;
  let browser: Browser;
  let page: Page;
  /** The `X-Account` of every API call the page made, by its path. */
  const named: { path: string; account: string | undefined }[] = [];

  beforeAll(async () => {
    world = await startMiniAppWorld({
      botToken: BOT_TOKEN,
      name: 'mini-app-accounts-browser',
      provider: { partners: [{ token: SECOND_TOKEN }] },
      chats: [OWNER],
      // Account 1: the first partner; account 2: the second, named by the user; 1 stays active.
      async setUp({ chatData }) {
        const second = await chatData.addAccount(OWNER, SECOND_TOKEN);
        if (!second.ok || second.n !== 2) throw new Error('the second account was not added as 2');
        await chatData.renameAccount(OWNER, 2, 'Студия Б');
        await chatData.switchAccount(OWNER, 1);
      },
    });
    ({ chatData, base } = world);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 390, height: 780 } })).newPage();
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.includes('/api/')) named.push({ path, account: request.headers()['x-account'] });
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
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
