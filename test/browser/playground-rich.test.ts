/**
 * Bot API 10.1–10.3 on the playground page, in Debian's Chromium: the real playground process
 * (`node dist/playground/main.js`), with the test acting as the bot straight on the local Bot API
 * server the page's state names (the bot itself does not send these yet). A rich message is drawn
 * as a phone draws it — a heading, a real table, details, a list — with a disabled button greyed
 * and not pressable; an ephemeral message in the team group is seen by its receiver only, marked
 * «видно только вам», and shown in place of the message they pressed when the bot asks so.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchChromium,
  type RunningPlayground,
  startPlayground,
} from '../helpers/playground.js';

const PARTNER = 100_001;
const TECH = 100_002;
const TEAM_GROUP = -4_000_000_001;

describe.skipIf(!hasChromium)('rich and ephemeral messages on the playground page', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  let botApi: { apiRoot: string; token: string };

  /** A call to the local Bot API server as the bot makes it. */
  const asBot = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const response = await fetch(`${botApi.apiRoot}/bot${botApi.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    const answer = (await response.json()) as { ok: boolean; result: Record<string, unknown> };
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    return answer.result;
  };

  /** The message bubble (an <article>) in the log holding this text. */
  const bubble = (text: string): Locator =>
    page.getByRole('log').getByRole('article').filter({ hasText: text });

  const writeAs = (name: string) =>
    page.getByRole('combobox', { name: 'Пишет' }).selectOption({ label: name });

  beforeAll(async () => {
    playground = await startPlayground();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await page.goto(playground.url);
    await page.locator('body[data-ready="true"]').waitFor();
    const state = (await (await fetch(`${playground.url}api/state`)).json()) as { botApi: typeof botApi };
    botApi = state.botApi;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('draws a rich message: a heading, a table with its header and cells, details, a list, a disabled button', async () => {
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
    const cell = (text: string, extra: Record<string, unknown> = {}) => ({
      text,
      align: 'left',
      valign: 'top',
      ...extra,
    });
    await asBot('sendRichMessage', {
      chat_id: PARTNER,
      rich_message: {
        blocks: [
          { type: 'heading', size: 2, text: 'Счета за май' },
          { type: 'paragraph', text: ['Неоплачено: ', { type: 'bold', text: '2' }] },
          {
            type: 'table',
            is_bordered: true,
            is_striped: true,
            caption: 'Неоплаченные счета',
            cells: [
              [cell('Счёт', { is_header: true }), cell('Сумма', { is_header: true, align: 'right' })],
              [cell('СФ-2026-5012'), cell('120,00 BYN', { align: 'right' })],
              [cell('СФ-2026-5013'), cell('35,50 BYN', { align: 'right' })],
            ],
          },
          {
            type: 'details',
            summary: 'Как оплатить',
            blocks: [
              {
                type: 'list',
                items: [
                  { type: '1', blocks: [{ type: 'paragraph', text: 'Откройте ссылку' }] },
                  { type: '1', blocks: [{ type: 'paragraph', text: 'Оплатите картой' }] },
                ],
              },
            ],
          },
          { type: 'divider' },
          { type: 'footer', text: 'обновлено только что' },
        ],
      },
      reply_markup: {
        inline_keyboard: [
          [
            { text: 'Скоро: автоплатёж', disabled: {} },
            { text: 'Обновить', callback_data: 'v1:pg-refresh' },
          ],
        ],
      },
    });
    const log = page.getByRole('log');
    await log.getByRole('heading', { name: 'Счета за май', level: 2 }).waitFor();
    const table = log.getByRole('table', { name: 'Неоплаченные счета' });
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual(['Счёт', 'Сумма']);
    await expect(table.getByRole('row').count()).resolves.toBe(3);
    await expect(
      table
        .getByRole('row', { name: /СФ-2026-5012/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(['СФ-2026-5012', '120,00 BYN']);
    // Details are collapsed until opened; the list inside has its numbers.
    const details = log.locator('details').filter({ hasText: 'Как оплатить' });
    await expect(details.getByText('Откройте ссылку').isVisible()).resolves.toBe(false);
    await details.getByText('Как оплатить').click();
    await details.getByText('Откройте ссылку').waitFor();
    await expect(details.getByRole('listitem').allTextContents()).resolves.toEqual([
      '1.Откройте ссылку',
      '2.Оплатите картой',
    ]);
    // The disabled button is a disabled button; the other one is not.
    await expect(
      log.getByRole('button', { name: 'Скоро: автоплатёж', disabled: true }).count(),
    ).resolves.toBe(1);
    await expect(log.getByRole('button', { name: 'Обновить' }).isDisabled()).resolves.toBe(false);
  }, 60_000);

  it('shows an ephemeral message only to its receiver in the team group, marked «видно только вам»', async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    await writeAs('Андрей Партнёр');
    await asBot('sendMessage', { chat_id: TEAM_GROUP, text: 'Всем: релиз в пятницу' });
    await asBot('sendMessage', {
      chat_id: TEAM_GROUP,
      text: 'Ольге: проверь DNS до релиза',
      ephemeral_message_parameters: { receiver_user_id: TECH },
      reply_markup: { inline_keyboard: [[{ text: 'Позже', disabled: {} }]] },
    });
    await bubble('Всем: релиз в пятницу').waitFor();
    // Андрей sees the group's message and not Ольга's.
    await expect(bubble('Ольге: проверь DNS').count()).resolves.toBe(0);
    await expect(page.getByRole('log').getByText('видно только вам').count()).resolves.toBe(0);

    await writeAs('Ольга Техник');
    const secret = bubble('Ольге: проверь DNS до релиза');
    await secret.waitFor();
    await secret.getByText('видно только вам').waitFor();
    await expect(secret.getByRole('button', { name: 'Позже', disabled: true }).count()).resolves.toBe(1);
    await expect(bubble('Всем: релиз в пятницу').count()).resolves.toBe(1);

    await writeAs('Иван Новичок');
    await bubble('Всем: релиз в пятницу').waitFor();
    await expect(bubble('Ольге: проверь DNS').count()).resolves.toBe(0);

    // In English the mark says so too.
    await writeAs('Ольга Техник');
    await page.getByRole('combobox', { name: 'Язык / Language' }).selectOption('en');
    await bubble('Ольге: проверь DNS').getByText('only you can see this').waitFor();
    await page.getByRole('combobox', { name: 'Язык / Language' }).selectOption('ru');
  }, 60_000);

  it('shows the ephemeral answer to a press in place of the pressed message, for the presser only', async () => {
    await page.getByRole('button', { name: /Команда студии/ }).click();
    const menu = await asBot('sendMessage', {
      chat_id: TEAM_GROUP,
      text: 'Меню группы',
      reply_markup: { inline_keyboard: [[{ text: 'Моя роль', callback_data: 'v1:pg-role' }]] },
    });
    // Ольга presses «Моя роль» through the page's own action, as the button would.
    const pressed = await fetch(`${playground.url}api/press`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        chatId: TEAM_GROUP,
        userId: TECH,
        messageId: menu.message_id,
        text: 'Моя роль',
        data: 'v1:pg-role',
        lang: 'ru',
      }),
    });
    const { callbackQueryId } = (await pressed.json()) as { callbackQueryId: string };
    await asBot('sendMessage', {
      chat_id: TEAM_GROUP,
      text: 'Ваша роль: техник',
      ephemeral_message_parameters: {
        receiver_user_id: TECH,
        callback_query_id: callbackQueryId,
        replace_callback_query_message: true,
      },
    });
    await writeAs('Ольга Техник');
    await bubble('Ваша роль: техник').getByText('видно только вам').waitFor();
    await expect(bubble('Меню группы').count()).resolves.toBe(0);
    await writeAs('Андрей Партнёр');
    await bubble('Меню группы').waitFor();
    await expect(bubble('Ваша роль: техник').count()).resolves.toBe(0);
  }, 60_000);
});
