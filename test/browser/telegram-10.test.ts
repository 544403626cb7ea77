/**
 * What the bot itself sends since Bot API 10.1–10.3, as a partner and a team see it on the
 * playground page in Debian's Chromium (the real process, `node dist/playground/main.js`): lists as
 * one rich message with a real table (and, with `RICH_MESSAGES=off`, today's HTML lines, paged);
 * in a bound team group a member's refusals and form questions seen by that member alone, marked
 * «видно только вам», the change seen by all; a newcomer's order card with the buttons of other
 * roles drawn disabled. Every wait is a Playwright wait on what the page shows.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  openConnected,
  type PlaygroundSandbox,
  partnerOn,
  type RunningPlayground,
} from '../helpers/playground.js';

/** The seeded order of mysite.by in the sandbox (src/sandbox/seed-orders.ts). */
const MYSITE_ORDER = 1006;

/** A call of the partner API on the sandbox, with the partner's token, as another tool would make it. */
async function partnerApi(
  sandbox: PlaygroundSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${sandbox.url}${path}?version=1.0`, {
    method,
    headers: { 'x-api-token': sandbox.token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** mysite.by's records as the provider lists them: `value` is «host data» (`www 93.125.99.10`). */
async function zoneRecords(sandbox: PlaygroundSandbox): Promise<{ type: string; value: string }[]> {
  const listed = await partnerApi(sandbox, 'GET', `/v1/domains/${MYSITE_ORDER}/dns/records`);
  return (listed as { records: { type: string; value: string }[] }).records;
}

/** Brings mysite.by's zone to `total` records, adding A records h1, h2… straight at the provider. */
async function growZone(sandbox: PlaygroundSandbox, total: number): Promise<number> {
  const path = `/v1/domains/${MYSITE_ORDER}/dns/records`;
  const count = async () => (await zoneRecords(sandbox)).length;
  for (let n = 1, have = await count(); have < total; n += 1, have += 1) {
    await partnerApi(sandbox, 'POST', `${path}/a`, { host: `h${n}`, ipv4: `192.0.2.${n}`, ttl: 3600 });
  }
  return count();
}

/** The log's message bubbles (articles) that hold this text. */
const bubbles = (page: Page, text: string | RegExp): Locator =>
  page.getByRole('log').getByRole('article').filter({ hasText: text });

/** The cells of each row of a table, header row first. */
const rowsOf = (table: Locator): Promise<string[][]> =>
  table
    .getByRole('row')
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));

describe.skipIf(!hasChromium)('Bot API 10.1–10.3 from the bot, on the playground page', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  let sandbox: PlaygroundSandbox;

  const writeAs = (name: string) =>
    page.getByRole('combobox', { name: 'Пишет' }).selectOption({ label: name });

  beforeAll(async () => {
    ({ playground, browser, page, sandbox } = await openConnected());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('/dns mysite.by is one message with a real table and the record buttons, all records in it at 60+', async () => {
    const partner = partnerOn(page);
    const articles = partner.log.getByRole('article');
    const before = await articles.count();
    await partner.send('/dns mysite.by');
    const list = bubbles(page, 'DNS-записи mysite.by').last();
    const table = list.getByRole('table');
    await table.waitFor();
    await expect(list.getByRole('heading', { name: /DNS-записи mysite\.by/ }).count()).resolves.toBe(1);
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
      'Тип',
      'Хост',
      'Значение',
      'TTL, с',
    ]);
    await expect(rowsOf(table)).resolves.toContainEqual(['A', 'www', '93.125.99.10', '3600']);
    // The record buttons are under the table, in the same message.
    await list.getByRole('button', { name: 'A www → 93.125.99.10' }).waitFor();
    await list.getByRole('button', { name: '➕ Добавить' }).waitFor();
    // One message: the command and the list, nothing else.
    await expect.poll(() => articles.count()).toBe(before + 2);

    const total = await growZone(sandbox, 65);
    expect(total).toBeGreaterThanOrEqual(60);
    await partner.send('/dns mysite.by');
    const long = bubbles(page, `DNS-записи mysite.by (${total})`).last();
    const longTable = long.getByRole('table');
    await longTable.waitFor();
    // Every record is a row (the header row aside), on one message with no pager.
    await expect(longTable.getByRole('row').count()).resolves.toBe(total + 1);
    await expect(rowsOf(longTable)).resolves.toContainEqual(['A', 'h55', '192.0.2.55', '3600']);
    await expect(long.getByText(/стр\./).count()).resolves.toBe(0);
    await expect(long.getByRole('button', { name: /стр\./ }).count()).resolves.toBe(0);
    await expect.poll(() => articles.count()).toBe(before + 4);
  }, 60_000);

  it('/invoices is a table with a row per invoice and the link buttons', async () => {
    const partner = partnerOn(page);
    await partner.send('/invoices');
    const list = partner.log
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: 'Счета' }) })
      .last();
    const table = list.getByRole('table');
    await table.waitFor();
    const { invoices } = (await partnerApi(sandbox, 'GET', '/v1/billing/invoices')) as {
      invoices: { invoice_number: string }[];
    };
    const rows = await rowsOf(table);
    expect(rows[0]?.slice(0, 3)).toEqual(['№', 'Сумма', 'Статус']);
    expect(
      rows
        .slice(1)
        .map((cells) => cells[0])
        .sort(),
    ).toEqual(invoices.map((invoice) => invoice.invoice_number).sort());
    await expect(
      table
        .getByRole('row', { name: /СФ-2026-5012/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(expect.arrayContaining(['СФ-2026-5012', 'ожидает оплаты']));
    const links = await list.getByRole('button', { name: /^🔗 Счёт / }).allTextContents();
    expect(links.sort()).toEqual(invoices.map((invoice) => `🔗 Счёт ${invoice.invoice_number}`).sort());
    // A link button answers with the invoice's link.
    await list.getByRole('button', { name: '🔗 Счёт СФ-2026-5012' }).click();
    await partner.sees('Ссылка на счёт № СФ-2026-5012');
  }, 60_000);

  it("in the team group, the newcomer's refusal is seen by the newcomer alone", async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const group = partnerOn(page);
    await writeAs('Андрей Партнёр');
    await group.send('/team');
    await group.sees(/Андрей — владелец/);

    await writeAs('Иван Новичок');
    await group.send('/dns mysite.by');
    const refusal = bubbles(page, 'Эта команда доступна ролям: техник, администратор, владелец');
    await refusal.last().getByText('видно только вам').waitFor();
    await expect(refusal.last().getByText('Ваша роль: зритель.').count()).resolves.toBe(1);

    // The owner sees Иван's command (an ordinary message) and not the answer meant for Иван.
    await writeAs('Андрей Партнёр');
    await bubbles(page, /Иван\s*\/dns mysite\.by/)
      .last()
      .waitFor();
    await expect(refusal.count()).resolves.toBe(0);
    await expect(page.getByRole('log').getByText('видно только вам').count()).resolves.toBe(0);
  }, 60_000);

  it("a tech's guided DNS add: her questions in her view only, the record and its news in everyone's", async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const group = partnerOn(page);
    // Ольга joins the team (a viewer), and the owner moves her to tech with his /team buttons.
    await writeAs('Ольга Техник');
    await group.send('/team');
    await group.sees(/Ваша роль: зритель/);
    await writeAs('Андрей Партнёр');
    await group.send('/team');
    await group.tap('Ольга — зритель');
    await group.tap(/^техник$/);
    await group.sees('Ольга — техник');

    await writeAs('Ольга Техник');
    await group.send('/dns mysite.by');
    await bubbles(page, 'DNS-записи mysite.by').last().getByRole('table').waitFor();
    await group.tap('➕ Добавить');
    const typeQuestion = bubbles(page, 'Какого типа запись?');
    await typeQuestion.last().getByText('видно только вам').waitFor();

    // Андрей sees the list she opened, and none of her form.
    await writeAs('Андрей Партнёр');
    await bubbles(page, 'DNS-записи mysite.by').last().waitFor();
    await expect(typeQuestion.count()).resolves.toBe(0);

    await writeAs('Ольга Техник');
    await group.tap(/^A$/);
    const hostQuestion = bubbles(page, 'Для какого хоста?');
    await hostQuestion.last().getByText('видно только вам').waitFor();
    await group.send('olga');
    const addressQuestion = bubbles(page, /IPv4/).filter({ hasText: 'видно только вам' });
    await addressQuestion.last().waitFor();
    await group.send('192.0.2.99');
    await group.tap('3600');
    const summary = bubbles(page, 'Добавить запись');
    await summary.last().getByText('видно только вам').waitFor();

    await writeAs('Андрей Партнёр');
    for (const question of [typeQuestion, hostQuestion, addressQuestion, summary]) {
      await expect(question.count()).resolves.toBe(0);
    }
    await expect(page.getByRole('log').getByText('видно только вам').count()).resolves.toBe(0);

    await writeAs('Ольга Техник');
    await group.tap('✅ Добавить');
    // In the team group the record's reply is its announcement: the change appears once.
    const added = bubbles(page, /📣 Ольга \(техник\) добавил\(а\) DNS-запись домена mysite\.by/).filter({
      hasText: 'olga',
    });
    await added.last().waitFor();

    // The result, which is its announcement, is the group's: the owner sees it, unmarked.
    await writeAs('Андрей Партнёр');
    await added.last().waitFor();
    await expect(added.last().getByText('видно только вам').count()).resolves.toBe(0);
    await bubbles(page, /📣 Ольга \(техник\) добавил\(а\) DNS-запись домена mysite\.by/)
      .last()
      .waitFor();
    await expect(page.getByRole('log').getByText('видно только вам').count()).resolves.toBe(0);
    expect(await zoneRecords(sandbox)).toContainEqual(
      expect.objectContaining({ type: 'A', value: 'olga 192.0.2.99' }),
    );
  }, 60_000);

  it("the newcomer's order card is the group's: its buttons are live, and his tap is refused to him alone", async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const group = partnerOn(page);
    await writeAs('Иван Новичок');
    await group.send('/orders');
    const list = bubbles(page, 'Заказы, новые сверху').last();
    await list.getByRole('table').waitFor();
    // The whole group sees the list (the owner too): nothing on it is locked.
    await list.getByRole('button', { name: '➕ Новый заказ', disabled: false }).waitFor();
    await list.getByRole('button', { name: /ЗК-2026-001006 · mysite\.by/ }).click();
    const card = bubbles(page, 'ЗК-2026-001006').last();
    await card.getByRole('button', { name: 'DNS-записи', disabled: false }).waitFor();
    await expect(card.getByRole('button', { name: /^🔒/ }).count()).resolves.toBe(0);
    await card.getByRole('button', { name: 'DNS-записи' }).click();
    // The refusal names whom to ask, and only he sees it.
    const refusal = bubbles(page, /Эта кнопка доступна ролям: техник.*Сменить роль может владелец — /).last();
    await refusal.getByText('видно только вам').waitFor();
  }, 60_000);
});

describe.skipIf(!hasChromium)('with RICH_MESSAGES=off, lists as today’s HTML lines', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  let sandbox: PlaygroundSandbox;

  beforeAll(async () => {
    ({ playground, browser, page, sandbox } = await openConnected({ RICH_MESSAGES: 'off' }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('/dns mysite.by is lines of text with no table, paged once the zone is long', async () => {
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by');
    const list = bubbles(page, 'DNS-записи mysite.by (10)').last();
    await list.getByText(/A www → 93\.125\.99\.10 · TTL 3600 с/).waitFor();
    await expect(list.getByText(/#\d+ MX @ → 10 mx1\.sandbox-host\.by · TTL 3600 с/).count()).resolves.toBe(
      1,
    );
    await expect(partner.log.getByRole('table').count()).resolves.toBe(0);
    await expect(list.getByText(/стр\./).count()).resolves.toBe(0);

    const total = await growZone(sandbox, 65);
    await partner.send('/dns mysite.by');
    const paged = bubbles(page, `DNS-записи mysite.by (${total}) · стр. 1 из 5`).last();
    await paged.waitFor();
    await expect(partner.log.getByRole('table').count()).resolves.toBe(0);
    await expect(paged.getByText(/ h55 → /).count()).resolves.toBe(0);
    await paged.getByRole('button', { name: 'стр. 2 ▶' }).click();
    await partner.sees(`DNS-записи mysite.by (${total}) · стр. 2 из 5`);
  }, 60_000);
});
