/**
 * The bot's Mini App opened from the playground page as Telegram's web client opens it, in Debian's
 * Chromium (the real process, `node dist/playground/main.js`): a `web_app` button or a direct link
 * to t.me/<bot>/editor asks the page's server for the launch (initData signed there with the bot's
 * token), and a panel over the chat loads the app in a frame, with «Закрыть», «Назад» and the
 * app's main button. The app is the built one (`dist/app`) on the bot's own port; the bridge story
 * puts a stand-in page at the app's address that drives the panel through @tma.js/sdk itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  appFrame,
  appPanel,
  hasChromium,
  openConnected,
  partnerOn,
  type RunningPlayground,
} from '../helpers/playground.js';

/** How long a tap may take to show the zone's table, in ms (a phone's app would feel slow past it). */
const TAP_TO_TABLE_MS = 1000;

/** The SDK the app bundles, as one script for the stand-in page. */
const SDK_IIFE = readFileSync(join('node_modules', '@tma.js', 'sdk', 'dist', 'index.iife.js'), 'utf8');

/**
 * A stand-in for the app, served at the app's own address by the test, that speaks to the panel
 * through @tma.js/sdk 3.3.0 and lists what comes back. It tells the SDK to post to any origin, as
 * Telegram's own telegram-web-app.js does (tma.js posts to https://web.telegram.org by default).
 */
const STAND_IN = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>stand-in</title></head>
<body>
<ul aria-label="Пришло" id="seen"></ul>
<button id="enable">Включить</button>
<button id="haptic">Отклик</button>
<button id="ask">Спросить</button>
<button id="guard">Защитить</button>
<button id="close">Закрыть приложение</button>
<script src="__stand-in/sdk.js"></script>
<script>
  const sdk = window.tmajs.sdk;
  const seen = document.getElementById('seen');
  const note = (text) => { const item = document.createElement('li'); item.textContent = text; seen.append(item); };
  sdk.setTargetOrigin('*');
  sdk.init();
  const launch = sdk.retrieveLaunchParams();
  note('version ' + launch.tgWebAppVersion + ' · ' + launch.tgWebAppPlatform);
  note('user ' + launch.tgWebAppData.user.id + ' · ' + launch.tgWebAppData.user.language_code);
  sdk.on('theme_changed', (event) => note('theme ' + event.theme_params.bg_color));
  sdk.on('safe_area_changed', (inset) => note('safe area ' + [inset.top, inset.bottom, inset.left, inset.right].join(' ')));
  sdk.postEvent('web_app_request_theme');
  sdk.postEvent('web_app_request_safe_area');
  sdk.viewport.mount().then(() => note('viewport ' + sdk.viewport.width() + '×' + sdk.viewport.height()));
  sdk.backButton.mount();
  sdk.backButton.show();
  sdk.backButton.onClick(() => note('back pressed'));
  sdk.mainButton.mount();
  sdk.mainButton.setParams({ text: 'Сохранить', isVisible: true, isEnabled: false, bgColor: '#2ea44f', textColor: '#ffffff' });
  sdk.mainButton.onClick(() => { note('main pressed'); sdk.hapticFeedback.notificationOccurred('error'); });
  sdk.closingBehavior.mount();
  sdk.miniApp.mount();
  sdk.miniApp.ready();
  document.getElementById('enable').onclick = () => sdk.mainButton.setParams({ isEnabled: true });
  document.getElementById('haptic').onclick = () => { sdk.hapticFeedback.impactOccurred('light'); sdk.hapticFeedback.selectionChanged(); };
  document.getElementById('ask').onclick = () => sdk.popup
    .show({ title: 'Удалить запись?', message: 'A www → 93.125.99.10', buttons: [{ id: 'delete', type: 'destructive', text: 'Удалить' }, { id: 'cancel', type: 'cancel' }] })
    .then((id) => note('popup ' + id));
  document.getElementById('guard').onclick = () => { sdk.closingBehavior.enableConfirmation(); note('guarded'); };
  document.getElementById('close').onclick = () => sdk.miniApp.close();
</script>
</body></html>`;

describe.skipIf(!hasChromium)('the Mini App in the playground’s panel', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;

  /** The panel: a dialog named after the bot. */
  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);

  beforeAll(async () => {
    ({ playground, browser, page } = await openConnected());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  // A story that stops half-way leaves no panel over the chat for the next one.
  afterEach(async () => {
    await page?.unrouteAll();
    if (!(await panel().isVisible())) return;
    await panel().locator('#mini-app-close').click();
    const ask = panel().getByRole('alertdialog', { name: /Закрыть\?/ });
    if (await ask.isVisible()) await ask.getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
  });

  /** The partner's private chat, `/dns mysite.by`, and its «🧩 Открыть редактор» button. */
  async function dnsInPrivate(): Promise<ReturnType<typeof partnerOn>> {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by');
    await partner.log.getByRole('button', { name: '🧩 Открыть редактор' }).last().waitFor();
    return partner;
  }

  it('«🧩 Открыть редактор» opens the panel, the app shows the zone of mysite.by within a second; ✕ closes it', async () => {
    const partner = await dnsInPrivate();
    const started = performance.now();
    await partner.tap('🧩 Открыть редактор');
    const table = app().getByRole('table');
    await table.waitFor();
    const elapsed = Math.round(performance.now() - started);
    console.log(`mini app: tap → zone table in ${elapsed} ms`);
    expect(elapsed).toBeLessThan(TAP_TO_TABLE_MS);

    await app().getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor();
    // The app's columns (an owner's table has its actions after them).
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers.slice(0, 4)).toEqual(['Тип', 'Хост', 'Значение', 'TTL, с']);
    await table.getByRole('row').filter({ hasText: '93.125.99.10' }).first().waitFor();
    await app().getByText('Аккаунт: личный · Роль: владелец').waitFor();
    // The panel's header names the bot as the chat's header does (its getMe name).
    const chatTitle = await page.locator('#chat-title').textContent();
    await expect(panel().getByRole('heading').first().textContent()).resolves.toBe(chatTitle);
    // Phone-sized, over the chat.
    const box = await panel().boundingBox();
    expect(box?.width).toBeLessThanOrEqual(420);
    expect(box?.height).toBeLessThanOrEqual(720);
    // The app's main button is not shown: it sets none.
    await expect(panel().locator('#mini-app-main').isVisible()).resolves.toBe(false);

    // Focus is in the panel while it is open, and back on the button once it closes.
    await expect(page.locator(':focus').getAttribute('aria-label')).resolves.toBe('Закрыть');
    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    await expect(page.locator(':focus').textContent()).resolves.toBe('🧩 Открыть редактор');
  }, 60_000);

  // The app's calls to Telegram reach the panel because the app posts them to whichever client
  // framed it (`setTargetOrigin('*')` in app/src/telegram.ts; tma.js alone posts to
  // https://web.telegram.org only, and Chromium drops such a post on the way to this page).
  it('the app’s Telegram side in the panel: «Назад», a cell edit’s «Применить» as the main button, ✕ asking first', async () => {
    const partner = await dnsInPrivate();
    await partner.tap('🧩 Открыть редактор');
    await app().getByRole('table').waitFor();
    const back = panel().getByRole('button', { name: 'Назад' });
    await back.waitFor({ timeout: 3_000 });
    // A TTL edited in place: a selection haptic on the tap, Apply once the server planned it.
    await app().getByRole('button', { name: 'TTL: A www — 3600' }).click();
    await expect.poll(() => panel().getAttribute('data-haptics')).toContain('selection_change');
    const ttl = app().getByRole('textbox', { name: 'TTL: A www' });
    await ttl.fill('600');
    await ttl.press('Enter');
    const apply = panel().getByRole('button', { name: 'Применить (1)' });
    await apply.waitFor({ timeout: 5_000 });
    await expect.poll(() => apply.isEnabled()).toBe(true);
    // Pending edits: ✕ asks, and «Остаться» keeps them.
    await panel().locator('#mini-app-close').click();
    const ask = panel().getByRole('alertdialog', { name: 'Закрыть? Несохранённые изменения пропадут.' });
    await ask.getByRole('button', { name: 'Остаться' }).click();
    await apply.click();
    await app().getByRole('button', { name: 'TTL: A www — 600' }).waitFor({ timeout: 10_000 });
    await apply.waitFor({ state: 'hidden' });
    // Apply's report is the app's last step: «Назад» is taken again after it.
    await app().getByRole('status').filter({ hasText: /\S/ }).first().waitFor();
    await expect.poll(() => panel().getAttribute('data-haptics')).toContain('notification:success');
    // Nothing pending: «Назад» brings the domain field, and the back button goes.
    await back.click();
    await app().getByRole('textbox', { name: 'Домен' }).waitFor({ timeout: 3_000 });
    await back.waitFor({ state: 'hidden', timeout: 3_000 });
  }, 30_000);

  it('in the bound team group, the direct link opens the app for the group’s account', async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const group = partnerOn(page);
    await page.getByRole('combobox', { name: 'Пишет' }).selectOption({ label: 'Андрей Партнёр' });
    await group.send('/team');
    await group.sees(/Андрей — владелец/);
    await group.send('/dns mysite.by');
    const opener = group.log.getByRole('button', { name: '🧩 Открыть редактор' }).last();
    await opener.waitFor();
    await opener.click();
    // The link carries the group and the screen (startapp=g<id>_dns): the account is the group’s, and the app
    // asks for the domain.
    await app().getByText('Аккаунт: группа · Роль: владелец').waitFor();
    const domain = app().getByRole('textbox', { name: 'Домен' });
    await domain.fill('mysite.by');
    await app().getByRole('button', { name: 'Показать' }).click();
    await app().getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor();
    await app().getByRole('table').getByRole('row').filter({ hasText: '93.125.99.10' }).first().waitFor();
    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
  }, 60_000);

  it('speaks Telegram’s web bridge to @tma.js/sdk: main button, back, popup, haptics, closing', async () => {
    // The stand-in answers for the app's page; its launch is still the one the server signed.
    const isAppPage = (url: URL) => url.pathname.endsWith('/app/') && url.searchParams.has('domain');
    await page.route(isAppPage, (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: STAND_IN }),
    );
    await page.route('**/app/__stand-in/sdk.js', (route) =>
      route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: SDK_IIFE }),
    );
    try {
      const partner = await dnsInPrivate();
      await partner.tap('🧩 Открыть редактор');
      const seen = app().getByRole('list', { name: 'Пришло' });
      const saw = (text: string | RegExp) => seen.getByText(text).first().waitFor();
      // The launch as the SDK reads it, and the panel's answers to its requests.
      await saw('version 9.1 · weba');
      await saw('user 100001 · ru');
      await saw('theme #ffffff');
      await saw('safe area 0 0 0 0');
      await saw(/^viewport \d+×\d+$/);

      // The main button as the app set it: a real button, disabled, in the app's colours.
      const main = panel().getByRole('button', { name: 'Сохранить' });
      await expect(main.isDisabled()).resolves.toBe(true);
      await expect(
        main.evaluate((b) => b.ownerDocument.defaultView?.getComputedStyle(b).backgroundColor),
      ).resolves.toBe('rgb(46, 164, 79)');
      await app().getByRole('button', { name: 'Включить' }).click();
      await expect.poll(() => main.isEnabled()).toBe(true);
      await main.click();
      await saw('main pressed');
      // Haptic feedback, recorded on the dialog for tests to read.
      await expect.poll(() => panel().getAttribute('data-haptics')).toBe('notification:error');
      await app().getByRole('button', { name: 'Отклик' }).click();
      await expect
        .poll(() => panel().getAttribute('data-haptics'))
        .toBe('notification:error impact:light selection_change');

      // Telegram's back button, shown by the app.
      await panel().getByRole('button', { name: 'Назад' }).click();
      await saw('back pressed');

      // A popup: the app's buttons; the one pressed is told back.
      await app().getByRole('button', { name: 'Спросить' }).click();
      const popup = panel().getByRole('alertdialog', { name: 'Удалить запись?' });
      await popup.getByText('A www → 93.125.99.10').waitFor();
      await expect(popup.getByRole('button').allTextContents()).resolves.toEqual(['Удалить', 'Отмена']);
      await popup.getByRole('button', { name: 'Удалить' }).click();
      await popup.waitFor({ state: 'hidden' });
      await saw('popup delete');

      // Messages that are not the app's frame's are ignored: this page posting to itself.
      await panel().evaluate((element) => {
        const self = element.ownerDocument.defaultView;
        self?.postMessage(JSON.stringify({ eventType: 'web_app_close' }), '*');
        self?.postMessage(
          JSON.stringify({ eventType: 'web_app_setup_main_button', eventData: { is_visible: false } }),
          '*',
        );
      });
      await page.waitForTimeout(200);
      await expect(main.isVisible()).resolves.toBe(true);

      // Closing with unsaved changes: the page asks; «Остаться» keeps the app, «Закрыть» closes it.
      await app().getByRole('button', { name: 'Защитить' }).click();
      await saw('guarded');
      await panel().getByRole('button', { name: 'Закрыть' }).first().click();
      const ask = panel().getByRole('alertdialog', { name: 'Закрыть? Несохранённые изменения пропадут.' });
      await ask.getByRole('button', { name: 'Остаться' }).click();
      await ask.waitFor({ state: 'hidden' });
      await saw('guarded');
      await panel().getByRole('button', { name: 'Закрыть' }).first().click();
      await ask.getByRole('button', { name: 'Закрыть' }).click();
      await panel().waitFor({ state: 'hidden' });

      // The app closing itself needs no confirmation, even when it asked for one.
      await partner.tap('🧩 Открыть редактор');
      await saw('version 9.1 · weba');
      await expect.poll(() => panel().getAttribute('data-haptics')).toBe('');
      await app().getByRole('button', { name: 'Защитить' }).click();
      await saw('guarded');
      await app().getByRole('button', { name: 'Закрыть приложение' }).click();
      await panel().waitFor({ state: 'hidden' });
    } finally {
      await page.unrouteAll();
    }
  }, 60_000);
});
