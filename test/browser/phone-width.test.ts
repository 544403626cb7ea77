/**
 * The playground and the zone editor on a phone (390 × 780), in Debian's Chromium over the real
 * playground process, as a new partner meets them: the sandbox panel folds away, a wide table or
 * row of buttons scrolls inside its bubble (never the whole chat sideways), the group's message
 * box keeps its width beside «Пишет», a line break in a rich message shows, a copy button says it
 * copied, the `/dns` record buttons show their values, and in the editor every column and mark is
 * readable. Widths are measured (boundingBox, scrollWidth), not eyeballed.
 * `PHONE_SCREENSHOTS=before|after` writes the docs' pictures (docs/images/phone-*-<when>.png).
 */
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appFrame,
  appPanel,
  hasChromium,
  openConnected,
  partnerOn,
  type RunningPlayground,
} from '../helpers/playground.js';

const PHONE = { width: 390, height: 780 };
const PARTNER = 100_001;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on the page');
  return box;
}

/** Whether `inner` lies within `outer` across (1 px of rounding allowed). */
const withinAcross = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;

describe.skipIf(!hasChromium)('the playground and the zone editor at 390 × 780', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let phone: Page;
  let botApi: { apiRoot: string; token: string };

  const shot = async (target: Page | Locator, name: string) => {
    const when = process.env.PHONE_SCREENSHOTS;
    if (when) await target.screenshot({ path: `docs/images/phone-${name}-${when}.png` });
  };

  /** A call to the local Bot API server as the bot makes it (for the page's own drawing). */
  const asBot = async (method: string, params: Record<string, unknown>) => {
    const response = await fetch(`${botApi.apiRoot}/bot${botApi.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    expect(response.ok).toBe(true);
  };

  const bubble = (text: string | RegExp): Locator =>
    phone.getByRole('log').getByRole('article').filter({ hasText: text }).last();

  /** The chat never scrolls sideways: neither the page nor the message log is wider than the phone. */
  const chatFitsAcross = async () => {
    const widths = {
      page: await phone.locator('html').evaluate((html) => html.scrollWidth),
      ...(await phone
        .getByRole('log')
        .evaluate((log) => ({ log: log.scrollWidth, logShown: log.clientWidth }))),
    };
    expect(widths.page).toBeLessThanOrEqual(PHONE.width);
    expect(widths.log).toBeLessThanOrEqual(widths.logShown);
  };

  beforeAll(async () => {
    ({ playground, browser } = await openConnected());
    ({ botApi } = (await (await fetch(`${playground.url}api/state`)).json()) as { botApi: typeof botApi });
    phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    phone.setDefaultTimeout(10_000);
    await phone.goto(playground.url);
    await phone.locator('body[data-ready="true"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('the sandbox panel is folded on a phone and opens on a tap; the chat gets the height', async () => {
    const toggle = phone.getByRole('button', { name: 'Песочница провайдера' });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(phone.getByRole('button', { name: 'Клиент оплатил' }).isVisible()).resolves.toBe(false);
    const log = await boxOf(phone.getByRole('log'));
    expect(log.height).toBeGreaterThan(PHONE.height * 0.45);

    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await phone.getByRole('button', { name: 'Клиент оплатил' }).waitFor();
    await toggle.click();
    await expect(phone.getByRole('button', { name: 'Клиент оплатил' }).isVisible()).resolves.toBe(false);
  }, 30_000);

  it('the copy button says it copied', async () => {
    await phone.getByRole('button', { name: 'Песочница провайдера' }).click();
    await phone.getByRole('button', { name: '📋 Копировать' }).first().click();
    await phone.getByRole('button', { name: '✓ Скопировано' }).first().waitFor();
    await phone.getByRole('button', { name: 'Песочница провайдера' }).click();
  }, 30_000);

  it('/invoices and /dns: a wide table scrolls inside its bubble, «TTL» and «Оплатить до» reachable', async () => {
    await phone.getByRole('button', { name: /^Partner Bot/ }).click();
    const partner = partnerOn(phone);
    await partner.send('/invoices');
    const invoices = bubble('Оплатить до');
    await invoices.getByRole('table').waitFor();
    await partner.send('/dns mysite.by');
    const records = bubble(/DNS-записи mysite\.by/);
    await records.getByRole('table').waitFor();
    await shot(phone, 'playground');
    await chatFitsAcross();

    for (const [message, column] of [
      [invoices, 'Оплатить до'],
      [records, 'TTL, с'],
    ] as const) {
      const header = message.getByRole('columnheader', { name: column });
      await header.scrollIntoViewIfNeeded();
      expect(withinAcross(await boxOf(header), await boxOf(message))).toBe(true);
      expect(withinAcross(await boxOf(message), await boxOf(phone.getByRole('log')))).toBe(true);
    }
    await chatFitsAcross();
  }, 60_000);

  it('a row of buttons wider than the bubble scrolls inside it', async () => {
    const labels = ['Первый счёт', 'Второй счёт', 'Третий счёт', 'Четвёртый счёт', 'Пятый счёт', 'Шестой'];
    await asBot('sendRichMessage', {
      chat_id: PARTNER,
      rich_message: {
        blocks: [
          { type: 'paragraph', text: 'Ряд кнопок' },
          {
            type: 'buttons',
            buttons: labels.map((text, i) => ({ text, callback_data: `v1:pg-wide-${i}` })),
          },
        ],
      },
    });
    const message = bubble('Ряд кнопок');
    const last = message.getByRole('button', { name: 'Шестой' });
    await last.waitFor();
    await chatFitsAcross();
    await last.scrollIntoViewIfNeeded();
    expect(withinAcross(await boxOf(last), await boxOf(message))).toBe(true);
    // Each label whole, not cut.
    for (const text of labels) {
      const button = message.getByRole('button', { name: text });
      const cut = await button.evaluate((b) => b.scrollWidth > b.clientWidth);
      expect(cut, text).toBe(false);
    }
  }, 30_000);

  it('a line break inside a rich message’s text shows', async () => {
    await asBot('sendRichMessage', {
      chat_id: PARTNER,
      rich_message: {
        blocks: [
          { type: 'paragraph', text: 'одна строка' },
          { type: 'paragraph', text: 'было: 1\nстанет: 2' },
        ],
      },
    });
    const one = await boxOf(phone.getByRole('log').getByText('одна строка'));
    const two = await boxOf(phone.getByRole('log').getByText(/^было: 1/));
    expect(two.height).toBeGreaterThanOrEqual(one.height * 1.8);
  }, 30_000);

  it('/dns: each record button shows the record’s value, one to a row', async () => {
    const lists = phone
      .getByRole('log')
      .getByRole('article')
      .filter({ hasText: /DNS-записи mysite\.by/ });
    const before = await lists.count();
    await partnerOn(phone).send('/dns mysite.by');
    await expect.poll(() => lists.count()).toBe(before + 1);
    await lists.last().getByRole('button', { name: /→/ }).first().waitFor();
    // Measured in one go: the page redraws the log as events arrive.
    const buttons = await lists.last().evaluate((message) =>
      [...message.querySelectorAll('button')]
        .filter((b) => b.textContent?.includes('→'))
        .map((b) => ({
          label: b.textContent ?? '',
          cut: b.scrollWidth > b.clientWidth,
          top: Math.round(b.getBoundingClientRect().top),
        })),
    );
    expect(buttons.length).toBeGreaterThan(3);
    for (const button of buttons) expect(button.cut, button.label).toBe(false);
    expect(new Set(buttons.map((b) => b.top)).size).toBe(buttons.length);
  }, 30_000);

  it('the group’s message box keeps its width beside «Пишет»', async () => {
    await phone.getByRole('button', { name: /Команда студии/ }).click();
    await phone.getByRole('combobox', { name: 'Пишет' }).waitFor();
    const input = await boxOf(phone.getByRole('textbox', { name: 'Сообщение' }));
    expect(input.width).toBeGreaterThanOrEqual(150);
    await phone.getByRole('button', { name: /^Partner Bot/ }).click();
  }, 30_000);

  it('the zone editor: every column and the «будет удалена» mark readable, TTL not under ✕', async () => {
    await phone.getByRole('button', { name: /^Partner Bot/ }).click();
    const partner = partnerOn(phone);
    // www changed in the chat first: in the editor it keeps its place (by type, then host).
    await partner.send('/dns mysite.by set A www 93.125.99.11');
    await partner.sees(/www: 93\.125\.99\.10 → 93\.125\.99\.11/);
    await partner.send('/dns mysite.by');
    await bubble(/DNS-записи mysite\.by/)
      .getByRole('button', { name: '🧩 Открыть редактор' })
      .waitFor();
    await partner.tap('🧩 Открыть редактор');
    const panel = appPanel(phone);
    const app: FrameLocator = appFrame(phone);
    await app.getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor();
    await app.getByRole('button', { name: 'Удалить CNAME ftp' }).click();
    await app.getByRole('button', { name: 'Вернуть CNAME ftp' }).waitFor();
    const frame = await boxOf(panel.locator('iframe'));
    const named = (await app
      .getByRole('button', { name: /^TTL: / })
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''))) as string[];
    const order = named.map((label) => /^TTL: (\S+) (\S+)/.exec(label)?.slice(1, 3).join(' ') ?? label);
    expect(order.slice(0, 2)).toEqual(['A @', 'A www']);
    const key = (typeHost: string) => typeHost.toLowerCase();
    expect(order.map(key)).toEqual([...order].map(key).sort());
    await shot(panel, 'editor');

    // The headers all inside the app's width: nothing hidden off to the side.
    for (const name of ['Тип', 'Хост', 'Значение', 'TTL, с']) {
      const header = app.getByRole('columnheader', { name, exact: true });
      expect(withinAcross(await boxOf(header), frame), name).toBe(true);
    }
    // Each TTL whole and left of the row's ✕ / ↩.
    const ttls = app.getByRole('button', { name: /^TTL: / });
    const actions = app.getByRole('button', { name: /^(Удалить|Вернуть) / });
    const count = await ttls.count();
    expect(count).toBeGreaterThan(3);
    for (let i = 0; i < count; i++) {
      const ttl = ttls.nth(i);
      const name = (await ttl.getAttribute('aria-label')) ?? '';
      const box = await boxOf(ttl);
      const action = await boxOf(actions.nth(i));
      expect(box.x + box.width, name).toBeLessThanOrEqual(action.x + 1);
      expect(withinAcross(box, frame), name).toBe(true);
      const cut = await ttl.evaluate((b) => b.scrollWidth > b.clientWidth);
      expect(cut, name).toBe(false);
    }
    // The deleted row's mark is seen, inside the app.
    const mark = app.getByText('будет удалена');
    await expect(mark.isVisible()).resolves.toBe(true);
    const markBox = await boxOf(mark);
    expect(withinAcross(markBox, frame)).toBe(true);
    const markCut = await mark.evaluate((m) => m.scrollWidth > m.clientWidth);
    expect(markCut).toBe(false);
  }, 60_000);
});
