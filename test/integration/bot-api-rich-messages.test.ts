/**
 * Rich messages (Bot API 10.1) and disabled buttons (10.3) on the local Bot API server, over HTTP
 * as the bot calls it: what a rich message comes back as, each of Telegram's limits at its edge
 * (the last one accepted, the first one refused), and a disabled button that nothing can press.
 */

import { afterEach, describe, expect, it } from 'vitest';
import {
  type BotApiServer,
  DEFAULT_USER_ID,
  PressRefused,
  RICH_REFUSALS,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';
import { call, result } from '../helpers/bot-api-call.js';

const servers: BotApiServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(): Promise<BotApiServer> {
  const server = await startBotApiServer();
  servers.push(server);
  return server;
}

async function refusal(
  server: BotApiServer,
  method: string,
  params: Record<string, unknown>,
): Promise<string> {
  const answer = await call(server, method, params);
  if (answer.ok) throw new Error(`${method} was accepted: ${JSON.stringify(answer.result)}`);
  expect(answer.error_code).toBe(400);
  return answer.description;
}

const CHAT = DEFAULT_USER_ID;
const cell = (text: unknown, extra: Record<string, unknown> = {}) => ({
  text,
  align: 'left',
  valign: 'top',
  ...extra,
});
const paragraph = (text: unknown) => ({ type: 'paragraph', text });
const send = (server: BotApiServer, blocks: unknown[]) =>
  call(server, 'sendRichMessage', { chat_id: CHAT, rich_message: { blocks } });

describe('sendRichMessage and editMessageText with rich_message', () => {
  it('sends a report of blocks and gets it back as the Message’s rich_message, then edits it', async () => {
    const server = await start();
    const blocks = [
      { type: 'heading', size: 2, text: 'Счета' },
      paragraph(['Итого: ', { type: 'bold', text: '3 счёта' }, ', ', { type: 'code', text: 'СФ-1' }]),
      {
        type: 'table',
        is_bordered: true,
        is_striped: true,
        caption: 'Неоплаченные',
        cells: [
          [cell('№', { is_header: true }), cell('Сумма', { is_header: true, align: 'right' })],
          [
            cell({ type: 'url', text: 'СФ-1', url: 'https://pay.example/1' }),
            cell('10,00', { align: 'right' }),
          ],
        ],
      },
      {
        type: 'details',
        summary: 'Подробнее',
        is_open: true,
        blocks: [
          {
            type: 'list',
            items: [
              { blocks: [paragraph('первый')] },
              { blocks: [paragraph('второй')], type: '1', value: 2 },
            ],
          },
        ],
      },
      { type: 'divider' },
      { type: 'pre', text: 'a IN A 192.0.2.1', language: 'dns' },
      { type: 'blockquote', blocks: [paragraph({ type: 'italic', text: 'цитата' })] },
      { type: 'footer', text: 'обновлено сейчас' },
    ];
    const sent = await result(server, 'sendRichMessage', {
      chat_id: CHAT,
      rich_message: { blocks },
      reply_markup: { inline_keyboard: [[{ text: 'Обновить', callback_data: 'v1:refresh' }]] },
    });
    expect(sent.text).toBeUndefined();
    const rich = sent.rich_message as { blocks: Record<string, unknown>[] };
    // What the bot sent comes back, with what a Message adds: list labels; cells keep their alignment.
    expect(rich.blocks[0]).toEqual({ type: 'heading', size: 2, text: 'Счета' });
    expect(rich.blocks[2]).toEqual(blocks[2]);
    expect(rich.blocks[3]).toEqual({
      type: 'details',
      summary: 'Подробнее',
      is_open: true,
      blocks: [
        {
          type: 'list',
          items: [
            { label: '•', blocks: [paragraph('первый')] },
            { label: '2.', blocks: [paragraph('второй')], type: '1', value: 2 },
          ],
        },
      ],
    });
    expect(rich.blocks.slice(4)).toEqual(blocks.slice(4));
    expect(server.visibleMessages(CHAT).map((m) => m.rich_message)).toEqual([rich]);

    // A callback's message carries the rich message (telegraf's message.text is undefined then).
    const press = server.pressButton('v1:refresh');
    expect((press.callback_query as { message: Record<string, unknown> }).message).toMatchObject({
      message_id: sent.message_id,
      rich_message: rich,
    });

    // Edited to another rich message: the keyboard goes unless given again, as with a text.
    const edit = {
      chat_id: CHAT,
      message_id: sent.message_id,
      rich_message: { blocks: [paragraph('Оплачено')] },
    };
    const edited = await result(server, 'editMessageText', edit);
    expect(edited.rich_message).toEqual({ blocks: [paragraph('Оплачено')] });
    expect(edited.reply_markup).toBeUndefined();
    expect(await refusal(server, 'editMessageText', edit)).toMatch(/^Bad Request: message is not modified/);
    // And to a plain text again: the rich message is gone from it.
    const text = await result(server, 'editMessageText', {
      chat_id: CHAT,
      message_id: sent.message_id,
      text: 'Готово',
    });
    expect(text).toMatchObject({ text: 'Готово' });
    expect(text.rich_message).toBeUndefined();
    expect(
      await refusal(server, 'editMessageText', {
        chat_id: CHAT,
        message_id: sent.message_id,
        text: 'x',
        rich_message: { blocks: [paragraph('y')] },
      }),
    ).toBe('Bad Request: exactly one of "text" and "rich_message" must be specified');
  });

  it('takes a text message to a rich one by editMessageText', async () => {
    const server = await start();
    const sent = await result(server, 'sendMessage', { chat_id: CHAT, text: 'Загрузка…' });
    const edited = await result(server, 'editMessageText', {
      chat_id: CHAT,
      message_id: sent.message_id,
      rich_message: { blocks: [{ type: 'heading', size: 1, text: 'Отчёт' }] },
    });
    expect(edited.text).toBeUndefined();
    expect(edited.rich_message).toEqual({ blocks: [{ type: 'heading', size: 1, text: 'Отчёт' }] });
  });
});

describe('a rich message’s limits, at the edge', () => {
  it('counts up to 32,768 characters as code points, in every text: cells, summaries, captions', async () => {
    const server = await start();
    // '𝄞' is one code point and two UTF-16 units: the limit counts code points.
    const clef = (n: number) => '𝄞'.repeat(n);
    const blocks = (n: number) => [
      paragraph(clef(n - 300)),
      { type: 'table', caption: clef(50), cells: [[cell(clef(100))]] },
      { type: 'details', summary: clef(100), blocks: [paragraph({ type: 'bold', text: clef(50) })] },
    ];
    expect((await send(server, blocks(32_768))).ok).toBe(true);
    expect(
      await refusal(server, 'sendRichMessage', { chat_id: CHAT, rich_message: { blocks: blocks(32_769) } }),
    ).toBe(`Bad Request: ${RICH_REFUSALS.tooLong}`);
  });

  it('takes 500 blocks and refuses 501, counting nested blocks, list items and table rows', async () => {
    const server = await start();
    const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => paragraph(`p${i}`));
    expect((await send(server, paragraphs(500))).ok).toBe(true);
    expect((await send(server, paragraphs(501))).ok).toBe(false);
    // A table of 499 rows is 500 blocks; of 500 rows, 501.
    const table = (rows: number) => ({
      type: 'table',
      cells: Array.from({ length: rows }, () => [cell('x')]),
    });
    expect((await send(server, [table(499)])).ok).toBe(true);
    expect(
      await refusal(server, 'sendRichMessage', { chat_id: CHAT, rich_message: { blocks: [table(500)] } }),
    ).toBe(`Bad Request: ${RICH_REFUSALS.tooManyBlocks}`);
    // A list and its 249 items, each with a paragraph, and a paragraph: 1 + 249 + 249 + 1 = 500; one more item is over.
    const list = (items: number) => ({
      type: 'list',
      items: Array.from({ length: items }, () => ({ blocks: [paragraph('i')] })),
    });
    expect((await send(server, [list(249), paragraph('end')])).ok).toBe(true);
    expect((await send(server, [list(250), paragraph('end')])).ok).toBe(false);
  });

  it('takes 16 levels of nested blocks and formatting, and refuses 17', async () => {
    const server = await start();
    // n levels: n - 1 quotations around a paragraph.
    const quotes = (levels: number): unknown =>
      levels === 1 ? paragraph('x') : { type: 'blockquote', blocks: [quotes(levels - 1)] };
    expect((await send(server, [quotes(16)])).ok).toBe(true);
    expect(
      await refusal(server, 'sendRichMessage', { chat_id: CHAT, rich_message: { blocks: [quotes(17)] } }),
    ).toBe(`Bad Request: ${RICH_REFUSALS.tooDeep}`);
    // A paragraph is a level, and each formatting inside it one more.
    const bold = (levels: number): unknown => (levels === 0 ? 'x' : { type: 'bold', text: bold(levels - 1) });
    expect((await send(server, [paragraph(bold(15))])).ok).toBe(true);
    expect((await send(server, [paragraph(bold(16))])).ok).toBe(false);
    // Details in details count too.
    const details = (levels: number): unknown =>
      levels === 1 ? paragraph('x') : { type: 'details', summary: 's', blocks: [details(levels - 1)] };
    expect((await send(server, [details(16)])).ok).toBe(true);
    expect((await send(server, [details(17)])).ok).toBe(false);
  });

  it('takes a table of 20 columns and refuses 21, a colspan counting as its columns', async () => {
    const server = await start();
    const row = (n: number) => Array.from({ length: n }, (_, i) => cell(`c${i}`));
    expect((await send(server, [{ type: 'table', cells: [row(20), row(3)] }])).ok).toBe(true);
    expect(
      await refusal(server, 'sendRichMessage', {
        chat_id: CHAT,
        rich_message: { blocks: [{ type: 'table', cells: [row(21)] }] },
      }),
    ).toBe(`Bad Request: ${RICH_REFUSALS.tooManyColumns}`);
    const wide = [cell('wide', { colspan: 19 }), cell('a'), cell('b')];
    expect((await send(server, [{ type: 'table', cells: [wide] }])).ok).toBe(false);
  });

  it('wants exactly one of html, markdown and blocks, takes blocks only, and refuses an empty message', async () => {
    const server = await start();
    const rich = (richMessage: unknown) =>
      refusal(server, 'sendRichMessage', { chat_id: CHAT, rich_message: richMessage });
    expect(await rich({})).toBe(`Bad Request: ${RICH_REFUSALS.oneOf}`);
    expect(await rich({ blocks: [paragraph('x')], html: '<p>x</p>' })).toBe(
      `Bad Request: ${RICH_REFUSALS.oneOf}`,
    );
    expect(await rich({ html: '<p>x</p>' })).toBe(`Bad Request: ${RICH_REFUSALS.blocksOnly}`);
    expect(await rich({ markdown: '# x' })).toBe(`Bad Request: ${RICH_REFUSALS.blocksOnly}`);
    expect(await rich({ blocks: [] })).toBe(`Bad Request: ${RICH_REFUSALS.empty}`);
    expect(await rich({ blocks: [paragraph('   '), { type: 'divider' }] })).toBe(
      `Bad Request: ${RICH_REFUSALS.empty}`,
    );
    expect(await refusal(server, 'sendRichMessage', { chat_id: CHAT })).toBe(
      `Bad Request: ${RICH_REFUSALS.required}`,
    );
    expect(await rich({ blocks: [{ type: 'heading', size: 7, text: 'x' }] })).toBe(
      "Bad Request: can't parse rich block: heading size must be between 1 and 6",
    );
    expect(await rich({ blocks: [{ type: 'sparkles' }] })).toBe(
      'Bad Request: can\'t parse rich block: unknown type "sparkles"',
    );
    expect(await rich({ blocks: [paragraph({ type: 'blink', text: 'x' })] })).toBe(
      'Bad Request: can\'t parse rich text: unknown type "blink"',
    );
    expect(await rich({ blocks: [{ type: 'thinking', text: '…' }] })).toBe(
      'Bad Request: thinking blocks can be used only in sendRichMessageDraft',
    );
  });
});

describe('disabled buttons (Bot API 10.3)', () => {
  it('are kept on a message, in a keyboard and in a rich message, with exactly one action', async () => {
    const server = await start();
    const keyboard = {
      inline_keyboard: [
        [
          { text: 'Нельзя', disabled: {} },
          { text: 'Можно', callback_data: 'v1:ok', style: 'success' },
        ],
      ],
    };
    const sent = await result(server, 'sendMessage', {
      chat_id: CHAT,
      text: 'Выбор',
      reply_markup: keyboard,
    });
    expect(sent.reply_markup).toEqual(keyboard);
    const rich = await result(server, 'sendRichMessage', {
      chat_id: CHAT,
      rich_message: {
        blocks: [
          paragraph('x'),
          { type: 'buttons', buttons: [{ text: 'Скоро', disabled: {}, style: 'primary' }] },
        ],
      },
    });
    expect((rich.rich_message as { blocks: unknown[] }).blocks[1]).toEqual({
      type: 'buttons',
      buttons: [{ text: 'Скоро', disabled: {}, style: 'primary' }],
    });
    expect(
      await refusal(server, 'sendMessage', {
        chat_id: CHAT,
        text: 'x',
        reply_markup: { inline_keyboard: [[{ text: 'Два', disabled: {}, callback_data: 'v1:x' }]] },
      }),
    ).toBe("Bad Request: can't parse inline keyboard button: exactly one action is allowed");
    expect(
      await refusal(server, 'sendMessage', {
        chat_id: CHAT,
        text: 'x',
        reply_markup: { inline_keyboard: [[{ text: 'Так', disabled: true }]] },
      }),
    ).toBe("Bad Request: can't parse inline keyboard button: field disabled must be an object");
  });

  it('cannot be pressed: the press is refused and nothing reaches the bot', async () => {
    const server = await start();
    const sent = await result(server, 'sendMessage', {
      chat_id: CHAT,
      text: 'Выбор',
      reply_markup: {
        inline_keyboard: [
          [
            { text: 'Нельзя', disabled: {} },
            { text: 'Можно', callback_data: 'v1:ok' },
          ],
        ],
      },
    });
    const messageId = Number(sent.message_id);
    const before = server.pendingUpdates().length;
    expect(() => server.pressButton('v1:ok', { messageId, text: 'Нельзя' })).toThrow(PressRefused);
    expect(() => server.pressButton('v1:ok', { messageId, text: 'Нельзя' })).toThrow(
      'the button "Нельзя" is disabled',
    );
    expect(() => server.pressButton('v1:forged', { messageId, text: 'Можно' })).toThrow(PressRefused);
    expect(server.pendingUpdates()).toHaveLength(before);
    // The enabled one presses as ever.
    const press = server.pressButton('v1:ok', { messageId, text: 'Можно' });
    expect((press.callback_query as { data: string }).data).toBe('v1:ok');
  });
});
