/**
 * The money in the panel as a partner meets it (issue 43), in Debian's Chromium on the playground
 * (the real process, `node dist/playground/main.js`, the built app on the bot's own port): the
 * bot's menu button opens the home — what is owed, the domains ending, the latest DNS changes —
 * within a second; «Счета» filtered to unpaid and searched by a domain; an invoice shared into
 * another of the page's chats (a prepared message, shareMessage), paid in the sandbox and seen
 * turning «оплачен» there; a statement saved (downloadFile: the browser saves the file).
 */
import { readFile } from 'node:fs/promises';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appFrame,
  appPanel,
  hasChromium,
  openConnected,
  partnerOn,
  playgroundState,
  type RunningPlayground,
} from '../helpers/playground.js';

/** The home's first content after the menu button's tap, in ms (the target). */
const FIRST_CONTENT_MS = 1000;

describe.skipIf(!hasChromium)('the panel’s money in the playground', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);

  beforeAll(async () => {
    ({ playground, browser, page } = await openConnected());
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  /** The sandbox's invoices waiting for payment, as the playground's page knows them. */
  async function unpaidInvoices(): Promise<{ id: number; number: string }[]> {
    return (await playgroundState(playground)).sandbox.unpaid;
  }

  it('the menu button opens the home: owed per currency, domains ending, latest changes, the ways in', async () => {
    // A DNS change first, so the home has one to show.
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by add TXT panel "home-story"');
    await partner.sees(/TXT/);

    const menu = page.locator('#composer').getByRole('button', { name: 'Панель' });
    await menu.waitFor({ timeout: 15_000 });
    const tapped = Date.now();
    await menu.click();
    const owed = app().locator('section[data-block=owed]');
    await owed.getByRole('heading', { name: 'Сейчас к оплате' }).waitFor({ timeout: 10_000 });
    await owed.locator('li[data-invoice-id]').first().waitFor({ timeout: 10_000 });
    const firstContent = Date.now() - tapped;
    expect(firstContent).toBeLessThan(FIRST_CONTENT_MS * 3); // the figure itself: bench/README.md
    const totals = await owed.innerText();
    expect(totals).toMatch(/BYN/);

    const expiring = app().locator('section[data-block=expiring]');
    await expiring.getByRole('heading', { name: 'Истекают домены' }).waitFor();
    const changes = app().locator('section[data-block=changes]');
    await changes.getByRole('heading', { name: 'Последние изменения DNS' }).waitFor();
    await changes
      .getByText(/mysite\.by/)
      .first()
      .waitFor({ timeout: 10_000 });

    const ways = app().getByRole('navigation', { name: 'Разделы' });
    for (const name of ['Счета', 'DNS-зона', 'Новый заказ', 'Заказчики'])
      await ways.getByRole('button', { name }).waitFor();
    const words = await app().locator('body').innerText();
    expect(words).not.toMatch(/WaitingForPayment|undefined|NaN|\bnull\b/);
  }, 90_000);

  it('«Счета»: unpaid, searched by domain; shared into Мария Клиент, paid, and the card says «оплачен»', async () => {
    await app().getByRole('navigation', { name: 'Разделы' }).getByRole('button', { name: 'Счета' }).click();
    const status = app().getByRole('group', { name: 'Статус счёта' });
    await status.getByRole('button', { name: 'К оплате' }).click();
    const rows = app().locator('li.invoice');
    await rows.first().waitFor({ timeout: 10_000 });
    // Everything still owed: the payable and the overdue (the sandbox's seed is past its days).
    for (const state of await rows.evaluateAll((items) => items.map((i) => i.getAttribute('data-status'))))
      expect(['unpaid', 'expired']).toContain(state);

    // Searched by the domain of an owed invoice, as the partner types it.
    const before = await rows.allInnerTexts();
    const domain = before.map((text) => /[\p{L}\d-]+\.(?:by|com|ru|рф)\b/u.exec(text)?.[0]).find(Boolean);
    if (domain === undefined) throw new Error(`no owed invoice names a domain: ${before.join(' | ')}`);
    await app().getByRole('searchbox', { name: 'Поиск' }).fill(domain);
    await expect.poll(() => rows.count()).toBeLessThan(before.length);
    for (const text of await rows.allInnerTexts()) expect(text).toContain(domain);
    const found = rows.first();
    const invoice = {
      id: Number(await found.getAttribute('data-invoice-id')),
      number: (await found.innerText()).match(/СФ-\d{4}-\d+/)?.[0] ?? '',
    };
    expect((await unpaidInvoices()).map((i) => i.id)).toContain(invoice.id);

    await found.getByRole('button', { name: `Поделиться: ${invoice.number}` }).click();
    const picker = panel().getByRole('alertdialog', { name: 'Отправить в чат' });
    await picker.getByRole('button', { name: '👤 Мария Клиент' }).click();
    await app().getByText('Счёт отправлен').waitFor({ timeout: 10_000 });

    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await page.getByRole('button', { name: /Мария Клиент/ }).click();
    const log = page.getByRole('log');
    const card = log.locator('.message', { hasText: invoice.number }).last();
    await card.getByText('через @partner_test_bot').waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: /Оплатить/ }).waitFor();

    const pay = await fetch(`${playground.url}api/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invoiceId: invoice.id }),
    });
    expect(pay.status).toBe(200);
    await log.locator('.message', { hasText: 'оплачен' }).last().waitFor({ timeout: 30_000 });
    await expect(card.getByRole('button', { name: /Оплатить/ }).count()).resolves.toBe(0);
  }, 120_000);

  it('a statement saved: asked first, then the browser saves the file under its name', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    await page.locator('#composer').getByRole('button', { name: 'Панель' }).click();
    await app().getByRole('navigation', { name: 'Разделы' }).getByRole('button', { name: 'Счета' }).click();
    const statements = app().locator('section[data-block=statements]');
    const first = statements.locator('li.statement').first();
    await first.waitFor({ timeout: 10_000 });
    const download = page.waitForEvent('download', { timeout: 20_000 });
    await first.getByRole('button', { name: /^Сохранить/ }).click();
    const ask = panel().getByRole('alertdialog', { name: /Скачать файл/ });
    await ask.getByRole('button', { name: /Скачать|Да/ }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^Акт-сверки-.+\.html$/);
    const path = await saved.path();
    const body = await readFile(path, 'utf8');
    expect(body).toMatch(/<html|<!doctype/i);
  }, 90_000);
});
