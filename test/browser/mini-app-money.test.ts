/**
 * What the Mini App's money screens ask of Telegram (issue 43), in the playground's panel, in
 * Debian's Chromium against the real process (`node dist/playground/main.js`): the bot's menu
 * button by the input opens the app with no screen named; shareMessage of a prepared invoice card
 * offers the user's chats, posts the card in the picked one "via @bot" and the bot learns of it
 * (chosen_inline_result: the card is settled when the client pays); downloadFile asks, then the
 * browser saves the file; the home screen is checked and added. The app is a stand-in served at the
 * menu button's address that speaks to the panel through @tma.js/sdk itself.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appFrame,
  appPanel,
  hasChromium,
  openConnected,
  playgroundState,
  type RunningPlayground,
} from '../helpers/playground.js';

const SDK_IIFE = readFileSync(join('node_modules', '@tma.js', 'sdk', 'dist', 'index.iife.js'), 'utf8');

/** The menu button's address: nothing listens there, the test answers for it (page.route). */
const APP_URL = 'http://127.0.0.1:9/app/';
/**
 * The statement, as the Mini App's server serves it: on another origin than the page, an
 * attachment, no CORS (a real server of the test's: Playwright's route.fulfill would add CORS).
 * The stand-in is given its address when it is served.
 */
const FILE_URL = '__FILE_URL__';
/** A file the page may read (CORS): saved under the app's name for it, not the server's. */
const READABLE_FILE_URL = 'http://127.0.0.1:9/app/files/statement/readable-token';

const STAND_IN = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>stand-in</title></head>
<body>
<ul aria-label="Пришло" id="seen"></ul>
<label>id <input id="prepared"></label>
<button id="share">Поделиться</button>
<button id="save">Сохранить</button>
<button id="save-readable">Сохранить читаемый</button>
<button id="check">Проверить</button>
<button id="add">На главный экран</button>
<script src="__stand-in/sdk.js"></script>
<script>
  const sdk = window.tmajs.sdk;
  const seen = document.getElementById('seen');
  const note = (text) => { const item = document.createElement('li'); item.textContent = text; seen.append(item); };
  sdk.setTargetOrigin('*');
  sdk.init();
  const launch = sdk.retrieveLaunchParams();
  note('start ' + (launch.tgWebAppStartParam ?? 'none') + ' · query ' + (launch.tgWebAppData.query_id ? 'yes' : 'no') + ' · ' + launch.tgWebAppData.chat_type);
  sdk.on('home_screen_added', () => note('home added'));
  sdk.on('home_screen_failed', () => note('home failed'));
  document.getElementById('share').onclick = () => sdk
    .shareMessage(document.getElementById('prepared').value)
    .then(() => note('shared'), (error) => note('share failed ' + (error.message || error.name)));
  document.getElementById('save').onclick = () => sdk
    .downloadFile('${FILE_URL}', 'Акт-сверки-42.html')
    .then(() => note('downloading'), () => note('download cancelled'));
  document.getElementById('save-readable').onclick = () => sdk
    .downloadFile('${READABLE_FILE_URL}', 'Акт-сверки-43.html')
    .then(() => note('downloading 43'), () => note('download 43 cancelled'));
  document.getElementById('check').onclick = () => sdk.checkHomeScreenStatus().then((status) => note('home ' + status));
  document.getElementById('add').onclick = () => sdk.addToHomeScreen();
</script>
</body></html>`;

describe.skipIf(!hasChromium)('the money screens’ Telegram side in the playground’s panel', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);
  const saw = (text: string | RegExp) =>
    app().getByRole('list', { name: 'Пришло' }).getByText(text).first().waitFor({ timeout: 10_000 });

  /** A Bot API call as the bot makes it, to the playground's local server. */
  async function botCall(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { botApi } = await playgroundState(playground);
    const response = await fetch(`${botApi.apiRoot}/bot${botApi.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    const answer = (await response.json()) as { ok: boolean; result: Record<string, unknown> };
    expect(answer.ok).toBe(true);
    return answer.result;
  }

  let fileServer: Server;
  let fileServerUrl = '';

  beforeAll(async () => {
    fileServer = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('Акт-сверки-42.html')}`,
      });
      res.end('<h1>Акт сверки 42</h1>');
    });
    await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
    fileServerUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}/app/files/statement/signed-token`;
    ({ playground, browser, page } = await openConnected());
    await page.route(
      (url) =>
        url.href.startsWith(APP_URL) &&
        !url.pathname.includes('__stand-in') &&
        !url.pathname.includes('/files/'),
      (route) =>
        route.fulfill({
          contentType: 'text/html; charset=utf-8',
          body: STAND_IN.replace(FILE_URL, fileServerUrl),
        }),
    );
    await page.route('**/app/__stand-in/sdk.js', (route) =>
      route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: SDK_IIFE }),
    );
  }, 60_000);

  beforeAll(async () => {
    await page.route(READABLE_FILE_URL, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        headers: {
          'access-control-allow-origin': '*',
          'content-disposition': 'attachment; filename="other.html"',
        },
        body: '<h1>Акт сверки 43</h1>',
      }),
    );
  });

  afterAll(async () => {
    fileServer?.close();
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('the bot’s menu button shows by the input of its chat and opens the app with no screen named', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    const menu = page.locator('#composer').getByRole('button', { name: '📊 Панель' });
    await expect(menu.isVisible()).resolves.toBe(false);
    await botCall('setChatMenuButton', {
      menu_button: { type: 'web_app', text: '📊 Панель', web_app: { url: APP_URL } },
    });
    await menu.waitFor();
    // Only the bot's own chat has it.
    await page.getByRole('button', { name: /Команда студии/ }).click();
    await expect(menu.isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    await menu.click();
    await saw('start none · query yes · sender');
  }, 60_000);

  it('shareMessage: the user’s chats to pick, the card posted there via @bot, and the bot settles it when paid', async () => {
    const { sandbox } = await playgroundState(playground);
    const invoice = sandbox.unpaid[0];
    if (!invoice) throw new Error('the sandbox has no unpaid invoice');
    const prepared = await botCall('savePreparedInlineMessage', {
      user_id: 100_001,
      result: {
        type: 'article',
        id: `invoice-${invoice.id}`,
        title: `Счёт ${invoice.number}`,
        input_message_content: { message_text: `Счёт № ${invoice.number} к оплате` },
        reply_markup: { inline_keyboard: [[{ text: 'Оплатить', url: `https://pay.example/${invoice.id}` }]] },
      },
      allow_user_chats: true,
      allow_group_chats: true,
    });
    await app().getByRole('textbox', { name: 'id' }).fill(String(prepared.id));

    // Declined: the app is told USER_DECLINED.
    await app().getByRole('button', { name: 'Поделиться' }).click();
    const picker = panel().getByRole('alertdialog', { name: 'Отправить в чат' });
    await picker.getByRole('button', { name: 'Отмена' }).click();
    await saw(/^share failed .*USER_DECLINED/);

    // The chats the bot allowed (a user's chat, a group), not the bot's own.
    await app().getByRole('button', { name: 'Поделиться' }).click();
    await picker.getByRole('button', { name: 'Отмена' }).waitFor();
    await expect(picker.getByRole('button').allTextContents()).resolves.toEqual([
      '👥 Команда студии',
      '👤 Мария Клиент',
      'Отмена',
    ]);
    await picker.getByRole('button', { name: '👤 Мария Клиент' }).click();
    await saw('shared');
    await picker.waitFor({ state: 'hidden' });

    // An unknown id: Telegram's error.
    await app().getByRole('textbox', { name: 'id' }).fill('nope');
    await app().getByRole('button', { name: 'Поделиться' }).click();
    await saw(/^share failed .*MESSAGE_EXPIRED/);

    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await page.getByRole('button', { name: /Мария Клиент/ }).click();
    const log = page.getByRole('log');
    const card = log.locator('.message', { hasText: `Счёт № ${invoice.number} к оплате` }).last();
    await card.waitFor();
    await card.getByText('через @partner_test_bot').waitFor();
    await card.getByRole('button', { name: /Оплатить/ }).waitFor();

    // The bot got chosen_inline_result and keeps the card: paid, the card is settled (no Pay).
    const pay = await fetch(`${playground.url}api/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invoiceId: invoice.id }),
    });
    expect(pay.status).toBe(200);
    await log.getByRole('button', { name: /Оплатить/ }).waitFor({ state: 'detached', timeout: 30_000 });
    await expect(log.getByText(`Счёт № ${invoice.number} к оплате`).count()).resolves.toBe(0);
  }, 90_000);

  it('downloadFile asks «Скачать файл …?»; yes saves it, no tells the app it was cancelled', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    await page.locator('#composer').getByRole('button', { name: '📊 Панель' }).click();
    await saw('start none · query yes · sender');
    await app().getByRole('button', { name: 'Сохранить', exact: true }).click();
    const askDownload = panel().getByRole('alertdialog', { name: 'Скачать файл Акт-сверки-42.html?' });
    await askDownload.getByRole('button', { name: 'Отмена' }).click();
    await saw('download cancelled');

    await app().getByRole('button', { name: 'Сохранить', exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 10_000 }),
      askDownload.getByRole('button', { name: 'Скачать' }).click(),
    ]);
    await saw('downloading');
    expect(download.suggestedFilename()).toBe('Акт-сверки-42.html');
    const path = await download.path();
    expect(readFileSync(path, 'utf8')).toBe('<h1>Акт сверки 42</h1>');

    // A file the page may read is saved under the app's name for it.
    await app().getByRole('button', { name: 'Сохранить читаемый' }).click();
    const [readable] = await Promise.all([
      page.waitForEvent('download', { timeout: 10_000 }),
      panel()
        .getByRole('alertdialog', { name: 'Скачать файл Акт-сверки-43.html?' })
        .getByRole('button', { name: 'Скачать' })
        .click(),
    ]);
    await saw('downloading 43');
    expect(readable.suggestedFilename()).toBe('Акт-сверки-43.html');
    expect(readFileSync(await readable.path(), 'utf8')).toBe('<h1>Акт сверки 43</h1>');
  }, 60_000);

  it('the home screen: missed until added; a declined offer fails, an accepted one is remembered', async () => {
    await app().getByRole('button', { name: 'Проверить' }).click();
    await saw('home missed');
    const offer = panel().getByRole('alertdialog', { name: 'Добавить «Partner Bot» на главный экран?' });
    await app().getByRole('button', { name: 'На главный экран' }).click();
    await offer.getByRole('button', { name: 'Отмена' }).click();
    await saw('home failed');
    await app().getByRole('button', { name: 'На главный экран' }).click();
    await offer.getByRole('button', { name: 'Добавить' }).click();
    await saw('home added');
    await app().getByRole('button', { name: 'Проверить' }).click();
    await saw('home added');
    await expect(app().getByRole('list', { name: 'Пришло' }).getByText('home added').count()).resolves.toBe(
      2,
    );
  }, 60_000);
});
