/**
 * The playground in a real browser: Debian's Chromium, driven by playwright-core, on the page the
 * real process serves (`node dist/playground/main.js`, no BOT_TOKEN). A partner taps through the
 * screens in Russian; each step checks what the page shows and what the provider's sandbox got.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchChromium,
  partnerOn,
  type RunningPlayground,
  startPlayground,
} from '../helpers/playground.js';

/** `PLAYGROUND_SCREENSHOTS=1` saves the main screens to docs/ for the README (no secrets shown). */
const screenshots = process.env.PLAYGROUND_SCREENSHOTS === '1';
const shoot = async (page: Page, name: string): Promise<void> => {
  if (screenshots) await page.screenshot({ path: join('docs', 'images', `playground-${name}.png`) });
};

interface SandboxRequest {
  method: string;
  path: string;
  body: unknown;
}

describe.skipIf(!hasChromium)('the playground in Chromium', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  let sandbox: { url: string; token: string; secondToken: string };

  const requests = async (): Promise<SandboxRequest[]> =>
    (
      (await (
        await fetch(`${sandbox.url}/__sandbox/requests`, { headers: { 'x-api-token': sandbox.token } })
      ).json()) as { requests: SandboxRequest[] }
    ).requests;

  /** The invoices the provider's sandbox holds, newest first, as the partner API lists them. */
  const sandboxInvoices = async (): Promise<string[]> => {
    const response = await fetch(`${sandbox.url}/v1/billing/invoices?version=1.0`, {
      headers: { 'x-api-token': sandbox.token },
    });
    const { invoices } = (await response.json()) as { invoices: { invoice_number: string }[] };
    return invoices.map((invoice) => invoice.invoice_number);
  };

  beforeAll(async () => {
    playground = await startPlayground(
      screenshots
        ? { SANDBOX_TOKEN: 'playground-demo-token-0001', SANDBOX_TOKEN_2: 'playground-demo-token-0002' }
        : {},
    );
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    await page.goto(playground.url);
    await page.locator('body[data-ready="true"]').waitFor();
    const state = (await (await fetch(`${playground.url}api/state`)).json()) as { sandbox: typeof sandbox };
    sandbox = state.sandbox;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('says how to connect, and a partner connects the sandbox token by /token', async () => {
    const partner = partnerOn(page);
    // The first screen shows the token to paste, with a copy button.
    await expect(page.locator('#welcome-token').textContent()).resolves.toBe(sandbox.token);
    await page.getByRole('button', { name: 'Начать' }).click();
    await partner.sees('Чтобы начать, подключите токен API партнёра');
    await partner.send('/token');
    await partner.sees('Отправьте токен API партнёра одним сообщением');
    await partner.send(sandbox.token);
    await partner.sees('Токен проверен и сохранён');
    // The message with the token is deleted from the chat, as the bot promises.
    expect(await partner.log.getByText(sandbox.token).count()).toBe(0);
    // The command menu the bot registered, in Russian.
    await page.getByRole('button', { name: 'Меню команд' }).click();
    await expect(
      page
        .getByRole('navigation', { name: 'Меню команд' })
        .getByRole('button', { name: /\/invoices/ })
        .count(),
    ).resolves.toBe(1);
    await page.getByRole('button', { name: 'Меню команд' }).click();
  }, 60_000);

  it("shows the second partner's token, which the sandbox takes for its own world", async () => {
    // Beside the first token, in the sandbox panel and on the first screen, each with a copy button.
    expect(sandbox.secondToken).toMatch(/\S{16,}/);
    expect(sandbox.secondToken).not.toBe(sandbox.token);
    const panel = page.locator('#second-token-line');
    await expect(panel.getByText('Токен второго партнёра:').isVisible()).resolves.toBe(true);
    await expect(panel.locator('code').textContent()).resolves.toBe(sandbox.secondToken);
    await panel.getByRole('button', { name: '📋 Копировать' }).click();
    await page.getByRole('status').getByText(`Скопировано: ${sandbox.secondToken}`).waitFor();
    await expect(page.locator('#welcome-token-2').textContent()).resolves.toBe(sandbox.secondToken);
    // The same sandbox answers it with the second partner's orders (studio-b.by, from 11001), and
    // the first partner's ids are another partner's to it.
    const as = (path: string) =>
      fetch(`${sandbox.url}${path}?version=1.0`, { headers: { 'x-api-token': sandbox.secondToken } });
    const listed = await as('/v1/orders');
    expect(listed.status).toBe(200);
    const { orders } = (await listed.json()) as { orders: { order_id: number }[] };
    expect(orders.map((order) => order.order_id).sort()).toEqual([11001, 11002, 11003, 11004]);
    expect((await as('/v1/domains/11002/dns/records')).status).toBe(200);
    expect((await as('/v1/billing/invoices/5002/url')).status).toBe(403);
  }, 60_000);

  it('lists invoices and opens an invoice link from its button', async () => {
    const partner = partnerOn(page);
    await partner.send('/invoices');
    // One rich message: a heading, a table with a row per invoice, a link button per invoice.
    const list = partner.log
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: 'Счета' }) });
    const table = list.getByRole('table');
    await table.waitFor();
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
      '№',
      'Сумма',
      'Статус',
      'Заказ',
      'Выставлен',
      'Оплатить до',
    ]);
    const numbers = await sandboxInvoices();
    expect(numbers.length).toBeGreaterThan(1);
    await expect(table.getByRole('row').count()).resolves.toBe(numbers.length + 1);
    await expect(
      table
        .getByRole('row', { name: /СФ-2026-5012/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(expect.arrayContaining(['СФ-2026-5012', 'ожидает оплаты', '1012']));
    const links = await list.getByRole('button', { name: /^🔗 Счёт / }).allTextContents();
    expect(links.sort()).toEqual(numbers.map((number) => `🔗 Счёт ${number}`).sort());
    await expect(partner.log.getByText(/стр\. \d+ из/).count()).resolves.toBe(0);
    await partner.tap('🔗 Счёт СФ-2026-5012');
    const message = await partner.sees('Ссылка на счёт № СФ-2026-5012');
    const link = /http:\/\/127\.0\.0\.1:\d+\/s\/\S+/.exec((await message.textContent()) ?? '')?.[0];
    expect(link).toBeDefined();
    // The URL button opens the link in a new tab, as Telegram opens it in the browser.
    const opened = page.context().waitForEvent('page');
    await partner.tap('Открыть ссылку');
    const tab = await opened;
    expect(tab.url()).toBe(link);
    await tab.close();
    // The copy button copies the link (the page shows what it copied).
    await partner.tap('📋 Копировать ссылку');
    await page.getByRole('status').getByText(`Скопировано: ${link}`).waitFor();
    await shoot(page, 'invoices');
    expect((await requests()).map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /v1/billing/invoices', 'GET /v1/billing/invoices/5012/url']),
    );
  }, 60_000);

  it('adds a DNS record through the buttons, and the provider receives it', async () => {
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by');
    await partner.sees('DNS-записи mysite.by');
    await partner.tap('➕ Добавить');
    await partner.sees('Какого типа');
    await partner.tap(/^A$/);
    await partner.sees('Для какого хоста');
    await partner.send('playground');
    await partner.sees(/IPv4/);
    await partner.send('192.0.2.77');
    await partner.tap('3600');
    await partner.sees('Добавить запись');
    await partner.tap('✅ Добавить');
    await partner.sees('Запись добавлена');
    const added = (await requests()).filter((r) => r.method === 'POST' && /\/dns\/records\/a$/.test(r.path));
    expect(added.map((r) => r.body)).toEqual([{ host: 'playground', ipv4: '192.0.2.77', ttl: 3600 }]);
  }, 60_000);

  it('draws a delete red and a Confirm green (Bot API 9.4 styles), their labels as they were', async () => {
    const partner = partnerOn(page);
    const background = (label: string) =>
      partner.log
        .getByRole('button', { name: label, exact: true })
        .last()
        .evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).backgroundColor);
    await partner.send('/dns mysite.by');
    await partner.sees('DNS-записи mysite.by');
    await partner.tap('➕ Добавить');
    await partner.tap(/^A$/);
    await partner.sees('Для какого хоста');
    await partner.send('styles');
    await partner.sees(/IPv4/);
    await partner.send('192.0.2.78');
    await partner.tap('3600');
    await partner.sees('Добавить запись');
    // The summary's Confirm is green; Cancel beside it keeps the page's own light blue. Polled: the
    // log may draw the message again between finding a button and reading its style (a detached
    // element has no computed style), as it did under CI's load.
    await expect.poll(() => background('✅ Добавить')).toBe('rgb(46, 125, 50)');
    await expect.poll(() => background('✖ Отмена')).toBe('rgba(51, 144, 236, 0.12)');
    await partner.tap('✅ Добавить');
    await partner.sees('Запись добавлена');
    await partner.tap(/^🗑 #\d+$/);
    await partner.sees('Удалить запись?');
    await expect.poll(() => background('🗑 Да, удалить')).toBe('rgb(211, 47, 47)');
    await expect.poll(() => background('Нет')).toBe('rgba(51, 144, 236, 0.12)');
    await partner.tap('🗑 Да, удалить');
    await partner.sees('Запись удалена');
    const deleted = (await requests()).filter(
      (r) => r.method === 'DELETE' && /\/dns\/records\/a\//.test(r.path),
    );
    expect(deleted).toHaveLength(1);
  }, 60_000);

  it('imports a zone file sent as a document', async () => {
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by');
    await partner.sees('DNS-записи mysite.by');
    await partner.tap('⬆ Импорт');
    await page.locator('#file').setInputFiles({
      name: 'mysite.by.zone',
      mimeType: 'text/plain',
      buffer: Buffer.from('$ORIGIN mysite.by.\nshop 3600 IN A 192.0.2.50\n'),
    });
    await partner.sees('mysite.by.zone');
    // The bot read the file and previews the change before anything is sent to the provider.
    await partner.sees(/shop.*192\.0\.2\.50/);
  }, 60_000);

  it('binds the team group with /team and sees a member join', async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const group = partnerOn(page);
    await group.send('/team');
    await group.sees(/Андрей — владелец/);
    const writer = page.getByRole('combobox', { name: 'Пишет' });
    await writer.selectOption({ label: 'Ольга Техник' });
    await group.send('/team');
    await group.sees(/Ваша роль: зритель/);
    // The owner's team list now names her, with the role a newcomer gets.
    await writer.selectOption({ label: 'Андрей Партнёр' });
    await group.send('/team');
    await group.sees(/• Ольга — зритель/);
    await shoot(page, 'team');
  }, 60_000);

  it("in the team group, a form's questions are the asking member's alone, answered by typing", async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const group = partnerOn(page);
    const question = (text: string | RegExp) =>
      group.log.getByRole('article').filter({ hasText: text }).last();
    await page.getByRole('combobox', { name: 'Пишет' }).selectOption({ label: 'Андрей Партнёр' });
    await group.send('/dns mysite.by');
    await group.sees('DNS-записи mysite.by');
    await group.tap('➕ Добавить');
    await question('Какого типа запись?').getByText('видно только вам').waitFor();
    await group.tap(/^TXT$/);
    // The host question is Андрей's alone (an ephemeral message, Bot API 10.2): it needs no name
    // and no reply; his next message in the group is taken as the answer, his form being open.
    await question('Для какого хоста?').getByText('видно только вам').waitFor();
    await group.send('group-pg');
    await question(/текст/).getByText('видно только вам').waitFor();
    await group.send('hello from the group');
    await group.tap('3600');
    await group.tap('✅ Добавить');
    // The result is the group's: an ordinary message, not marked; in a team group it is the
    // change's one announcement.
    const result = group.log
      .getByRole('article')
      .filter({ hasText: /📣 Андрей \(владелец\) добавил\(а\) DNS-запись домена mysite\.by/ })
      .last();
    await result.waitFor();
    await expect(result.getByText('видно только вам').count()).resolves.toBe(0);
    const added = (await requests()).filter(
      (r) => r.method === 'POST' && /\/dns\/records\/txt$/.test(r.path),
    );
    expect(added.map((r) => r.body)).toEqual([{ host: 'group-pg', text: 'hello from the group', ttl: 3600 }]);
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
  }, 60_000);

  it('"Send to client" opens the chat picker: the client chat with the invoice among the inline results', async () => {
    const partner = partnerOn(page);
    await partner.send('/invoice 5012');
    await partner.sees('Ссылка на счёт № СФ-2026-5012');
    await partner.tap('📤 Отправить клиенту');
    await page.getByRole('heading', { name: 'Мария Клиент' }).waitFor();
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /СФ-2026-5012/ })
      .waitFor();
    await page.getByRole('textbox', { name: 'Сообщение' }).fill('');
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
  }, 60_000);

  it('binds a group from the private chat through the group picker the bot offers', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    const partner = partnerOn(page);
    await partner.send('/team');
    await partner.sees('Выберите группу, в которой будет работать команда');
    const keyboard = page.getByRole('navigation', { name: 'Клавиатура бота' });
    await keyboard.getByRole('button', { name: '👥 Выбрать группу' }).click();
    await keyboard.getByRole('button', { name: '👥 Команда студии' }).click();
    // The group was bound by /team before: the bot says so, and the keyboard goes away.
    await partner.sees(/Группа подключена к вашему партнёрскому аккаунту/);
    await keyboard.waitFor({ state: 'hidden' });
  }, 60_000);

  it('shares an invoice with a client through inline mode', async () => {
    await page.getByRole('button', { name: /Мария Клиент/ }).click();
    const partner = partnerOn(page);
    await partner.input.fill('@partner_test_bot СФ-2026-5012');
    const result = page.getByRole('listbox').getByRole('option').first();
    await result.waitFor({ timeout: 15_000 });
    await shoot(page, 'inline');
    await result.click();
    await partner.sees('СФ-2026-5012');
    await partner.sees('через @partner_test_bot');
  }, 60_000);

  it('tells the partner when a client pays, after the sandbox button', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    const partner = partnerOn(page);
    const unpaid = page.getByRole('combobox', { name: 'Неоплаченный счёт' });
    await unpaid.selectOption('5012');
    await page.getByRole('button', { name: 'Клиент оплатил' }).click();
    await page.locator('#sandbox-result').getByText('Готово').waitFor();
    // The watchers poll every 5 s in the playground: the news arrives as a notification would.
    await partner.sees(/Пришла оплата по счёту № СФ-2026-5012/, 30_000);
    const after = (await (await fetch(`${playground.url}api/state`)).json()) as {
      sandbox: { unpaid: { id: number }[] };
    };
    expect(after.sandbox.unpaid.map((i) => i.id)).not.toContain(5012);
  }, 60_000);

  it("dates the chat's messages by the sandbox's clock, in its zone", async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    const partner = partnerOn(page);
    const clock = (now: string) =>
      fetch(`${playground.url}api/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ now }),
      });
    const before = (
      (await (await fetch(`${playground.url}api/state`)).json()) as { sandbox: { now: string } }
    ).sandbox.now;
    // The same day, another time of it: the reply is dated 04:07 Minsk time (or the minute after).
    expect((await clock(`${before.slice(0, 10)} 04:07`)).status).toBe(200);
    try {
      await partner.send('/help');
      await partner.sees('Что умеет бот');
      const time = await partner.log.locator('.meta').last().textContent();
      expect(time).toMatch(/^04:0[78]$/);
    } finally {
      await clock(before);
    }
  }, 60_000);

  it('switches to English: the page, the language the bot answers in, and its command menu', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    await page.getByRole('combobox', { name: 'Язык / Language' }).selectOption('en');
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('/help');
    await input.press('Enter');
    await page.getByRole('log', { name: 'Messages' }).getByText('What the bot does').last().waitFor();
    // The page's own labels are English too: the chats' names, the screen readers' labels.
    const chats = page.getByRole('list', { name: 'Chats' });
    await chats.getByRole('button', { name: /^Studio team · 3 members/ }).waitFor();
    await chats.getByRole('button', { name: /^Maria \(client\)/ }).waitFor();
    await expect(page.getByRole('complementary', { name: 'Chats and sandbox' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Command menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Command menu' });
    await menu.getByText('invoices: /invoices [order id]').waitFor();
    await page.getByRole('combobox', { name: 'Язык / Language' }).selectOption('ru');
  }, 60_000);
});
