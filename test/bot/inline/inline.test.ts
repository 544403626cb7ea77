import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/core/format.js';
import {
  type BotCall,
  buttons,
  type InlineResult,
  inlineAnswer,
  lastText,
  USER_ID,
} from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { PERSON_ANSWERS } from '../../helpers/fixtures.js';
import { useBot, withBot } from '../../helpers/use-bot.js';

/*
 * Inline mode as a partner uses it: in a client's chat they type `@bot` (or tap "Send to client"),
 * pick an unpaid invoice, and a card with a Pay button lands in that chat. The inline updates
 * carry a user and no chat; the partner's private chat gives the token and the language.
 */

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults'] });
const ids = (calls: BotCall[]) => inlineAnswer(calls).results.map((r) => r.id);
const payUrl = (result: InlineResult | undefined) => result?.reply_markup?.inline_keyboard.flat()[0]?.url;
/** The provider requests made since `before`, as `METHOD path`. */
const requestsSince = (before: number) =>
  h.sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`);

async function invoice(id: number) {
  const [found] = await h.api().listInvoices({ invoice_id: id });
  if (!found) throw new Error(`no invoice ${id} in the sandbox`);
  return found;
}

describe('@bot in a client chat', () => {
  it('lists the unpaid invoices newest first, personal and briefly cached, each posting a card with a Pay link', async () => {
    const calls = await h.inlineQuery('');
    const answer = inlineAnswer(calls);
    expect(answer.is_personal).toBe(true);
    expect(answer.cache_time).toBe(10);
    expect(answer.button).toBeUndefined();
    // The seed's unpaid invoices by day of issue: 18.11, 12.11, 10.11, 22.08, 03.03.2026; 5001 is paid.
    expect(ids(calls)).toEqual([
      'invoice-5012',
      'invoice-5010',
      'invoice-5005',
      'invoice-5008',
      'invoice-5002',
    ]);

    const shop = answer.results.find((r) => r.id === 'invoice-5008');
    const seeded = await invoice(5008);
    const amount = formatMoney(seeded.amount, 'BYN', 'ru');
    expect(shop?.type).toBe('article');
    expect(shop?.title).toBe(`Счёт № СФ-2026-5008 · ${amount}`);
    // The seed's invoices are past their dates: the partner sees it before sending one.
    expect(shop?.description).toBe('⚠️ срок оплаты истёк · shop.com.by · оплатить до 27.08.2026');
    // A hosting order has no domain in the lists: the partner sees its order id instead.
    expect(answer.results.find((r) => r.id === 'invoice-5002')?.description).toBe(
      '⚠️ срок оплаты истёк · заказ 1002 · оплатить до 08.03.2026',
    );
    expect(shop?.input_message_content).toEqual({
      message_text: `🧾 <b>Счёт № СФ-2026-5008</b>\nСумма: <b>${amount}</b>\nОплатить до 27 августа 2026 г.`,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
    // The card is for the client: none of the partner's order bookkeeping.
    expect(shop?.input_message_content.message_text).not.toMatch(/1008|заказ|ожидает/);
    const link = await h.api().getInvoiceUrl(5008);
    // A copy button beside Pay: the client may pay from a computer.
    expect(shop?.reply_markup?.inline_keyboard).toEqual([
      [
        { text: '💳 Оплатить', url: link },
        { text: '📋 Копировать ссылку', copy_text: { text: link } },
      ],
    ]);
    expect(payUrl(shop)).toMatch(/\/s\//);
  });

  it('asks the provider for invoices and for the links of the shown invoices only, never the order list for a number', async () => {
    const before = h.sandbox.requests.length;
    const calls = await h.inlineQuery('СФ-2026-5010');
    expect(ids(calls)).toEqual(['invoice-5010']);
    const asked = requestsSince(before);
    expect(asked).toContain('GET /v1/billing/invoices');
    expect(asked.filter((r) => r.endsWith('/url'))).toEqual(['GET /v1/billing/invoices/5010/url']);
    expect(asked).not.toContain('GET /v1/orders');
  });

  it('filters by the invoice number as the client sees it, whatever the case, dashes or №', async () => {
    expect(ids(await h.inlineQuery('сф-2026-5008'))).toEqual(['invoice-5008']);
    expect(ids(await h.inlineQuery('№ СФ–2026–5008'))).toEqual(['invoice-5008']);
    // Still typing: every number with that part.
    expect(ids(await h.inlineQuery('сф-2026-50'))).toHaveLength(5);
  });

  it('filters by the order id and by the order number of any kind', async () => {
    expect(ids(await h.inlineQuery('1012'))).toEqual(['invoice-5012']);
    // A hosting order's number is only in the general order list, asked for such a query alone.
    const before = h.sandbox.requests.length;
    expect(ids(await h.inlineQuery('зк-2026-001002'))).toEqual(['invoice-5002']);
    expect(requestsSince(before)).toContain('GET /v1/orders');
  });

  it('filters by the domain of the order, whole or in part, Cyrillic too', async () => {
    expect(ids(await h.inlineQuery('shop.com.by'))).toEqual(['invoice-5008']);
    expect(ids(await h.inlineQuery('SHOP'))).toEqual(['invoice-5008']);
    expect(ids(await h.inlineQuery('мойсайт'))).toEqual(['invoice-5010']);
    // mysite.by is paid; its renewal invoice is what the partner shares next.
    expect(ids(await h.inlineQuery('mysite.by'))).toEqual([]);
    const renewal = await h.newInvoice(1006);
    const calls = await h.inlineQuery('mysite.by');
    expect(ids(calls)).toEqual([`invoice-${renewal.invoice_id}`]);
    expect(inlineAnswer(calls).results[0]?.title).toContain(renewal.invoice_number);
    expect(payUrl(inlineAnswer(calls).results[0])).toBe(renewal.invoice_url);
    // Due in 5 days: no past-due mark.
    expect(inlineAnswer(calls).results[0]?.description).toMatch(/^mysite\.by · оплатить до /);
  });

  it('speaks the language of the partner’s private chat, the picker’s dates as notifications write them, the card’s in words', async () => {
    const calls = await h.inlineQuery('shop.com.by', en);
    const [result] = inlineAnswer(calls).results;
    expect(result?.title).toMatch(/^Invoice No\. СФ-2026-5008 · \d+\.\d{2} BYN$/);
    expect(result?.description).toBe('⚠️ past due · shop.com.by · due 27.08.2026');
    expect(result?.input_message_content.message_text).toContain('Please pay by August 27, 2026');
    expect(result?.reply_markup?.inline_keyboard[0]?.[0]?.text).toBe('💳 Pay');
    // Telegram's language says English, the private chat was switched to Russian: Russian wins.
    const switched = { userId: 778, chatId: 778, languageCode: 'en' };
    await h.connect(switched);
    await h.send('/lang ru', switched);
    const ru = inlineAnswer(await h.inlineQuery('shop.com.by', switched)).results[0];
    expect(ru?.input_message_content.message_text).toContain('Оплатить до 27 августа 2026 г.');
  });

  it('shows nothing of the provider’s raw words in Russian: no state codes, no English', async () => {
    const { results } = inlineAnswer(await h.inlineQuery(''));
    const seen = results.flatMap((r) => [
      r.title,
      r.description ?? '',
      r.input_message_content.message_text,
      ...(r.reply_markup?.inline_keyboard.flat().map((b) => b.text) ?? []),
    ]);
    const words = seen
      .join('\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[\p{L}\d-]+(?:\.[\p{L}\d-]+)+/gu, ' ') // domain names are the client's own
      .replace(/\b(?:BYN|USD|EUR|RUB)\b/g, ' ');
    expect(words).not.toMatch(/[A-Za-z]/);
    expect(seen.join('\n')).not.toMatch(/WaitingForPayment|NewOrder|Active|Paid/);
  });
});

describe('a user the picker cannot serve yet', () => {
  it('without a token gets no results but a button to connect one in the private chat, which explains how', async () => {
    const stranger = { userId: 555, chatId: 555, languageCode: 'ru' };
    const before = h.sandbox.requests.length;
    const calls = await h.inlineQuery('', stranger);
    expect(calls.map((c) => c.method)).toEqual(['answerInlineQuery']);
    expect(inlineAnswer(calls)).toMatchObject({
      results: [],
      is_personal: true,
      cache_time: 0,
      button: { text: 'Подключите токен API в личном чате со мной', start_parameter: 'connect' },
    });
    expect(h.sandbox.requests.length).toBe(before);
    // The button opens the private chat with `/start connect`.
    const welcome = lastText(await h.send('/start connect', stranger));
    expect(welcome).toContain('/token');
    expect(welcome).toContain('подключите токен API');
  });

  it('whose token the provider refuses gets a button to connect a new one', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', times: 1, fault: { kind: 'status', status: 401 } });
    const answer = inlineAnswer(await h.inlineQuery('shop'));
    expect(answer.results).toEqual([]);
    expect(answer.button).toEqual({
      text: 'Провайдер не принял токен — подключите новый',
      start_parameter: 'connect',
    });
    const reply = lastText(await h.send('/start connect'));
    expect(reply).toContain('Токен уже подключён');
    expect(reply).toContain('@partner_test_bot');
    expect(reply).toContain('/token');
  });

  it('when the provider is down gets a button saying so, not an empty silence', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', times: 6, fault: { kind: 'status', status: 503 } });
    const answer = inlineAnswer(await h.inlineQuery(''));
    expect(answer.results).toEqual([]);
    expect(answer.button?.text).toBe('Провайдер не отвечает — попробуйте через минуту');
    expect(answer.cache_time).toBe(0);
  });

  it('outside the allow-list gets an empty answer and no provider call', async () => {
    await withBot({ allowedUserIds: [USER_ID] }, async (guarded) => {
      await guarded.connect();
      const before = guarded.sandbox.requests.length;
      const calls = await guarded.inlineQuery('', { userId: 31_337, chatId: 31_337 });
      expect(calls.map((c) => c.method)).toEqual(['answerInlineQuery']);
      expect(inlineAnswer(calls)).toMatchObject({ results: [], is_personal: true });
      expect(inlineAnswer(calls).button).toBeUndefined();
      expect(guarded.sandbox.requests.length).toBe(before);
      // The partner on the list is served as usual.
      expect(inlineAnswer(await guarded.inlineQuery('')).results.length).toBeGreaterThan(0);
    });
  });
});

describe('after the partner picked a card', () => {
  it('the chosen result makes no Bot API call and is logged by invoice id, never by what was typed', async () => {
    const calls = await h.chosenInlineResult('invoice-5008', 'секретный-запрос-клиента');
    expect(calls).toEqual([]);
    const line = h.logLines.find((l) => l.includes('invoice card sent in inline mode'));
    expect(line).toContain('"invoiceId":5008');
    expect(h.logLines.some((l) => l.includes('секретный-запрос-клиента'))).toBe(false);
  });
});

describe('"Send to client" buttons', () => {
  const switchButtons = (calls: BotCall[]) =>
    buttons(calls).filter((b) => b.switch_inline_query_chosen_chat !== undefined);
  /** "Send to client" opens the chat picker on private chats and groups only, never channels or bots. */
  const sendToClient = (text: string, query: string) => ({
    text,
    switch_inline_query_chosen_chat: {
      query,
      allow_user_chats: true,
      allow_group_chats: true,
      allow_bot_chats: false,
      allow_channel_chats: false,
    },
  });

  it('an unpaid invoice’s link message opens the picker with its number, which finds exactly that invoice', async () => {
    const calls = await h.send('/invoice 5008');
    expect(switchButtons(calls)).toEqual([sendToClient('📤 Отправить клиенту', 'СФ-2026-5008')]);
    // The link itself stays the first button.
    expect(buttons(calls)[0]?.url).toBe(await h.api().getInvoiceUrl(5008));
    const picked = await h.inlineQuery(switchButtons(calls)[0]?.switch_inline_query_chosen_chat?.query ?? '');
    expect(ids(picked)).toEqual(['invoice-5008']);
    expect(switchButtons(await h.send('/invoice СФ-2026-5002', en))).toEqual([
      sendToClient('📤 Send to client', 'СФ-2026-5002'),
    ]);
  });

  it('a paid invoice has nothing to send', async () => {
    expect(switchButtons(await h.send('/invoice 5001'))).toEqual([]);
  });

  it('the invoice list carries one under the list, for its unpaid invoices (the order’s, on an order’s list)', async () => {
    const all = switchButtons(await h.send('/invoices'));
    expect(all).toEqual([sendToClient('📤 Отправить клиенту', '')]);
    const ofOrder = switchButtons(await h.send('/invoices 1008'));
    expect(ofOrder).toEqual([sendToClient('📤 Отправить клиенту', '1008')]);
    expect(ids(await h.inlineQuery('1008'))).toEqual(['invoice-5008']);
    // Order 1001 is paid: nothing to send.
    expect(switchButtons(await h.send('/invoices 1001'))).toEqual([]);
  });

  it('a new order’s result carries it too, with the new invoice’s number', async () => {
    const chat = new Conversation(() => h, { userId: 779, chatId: 779, languageCode: 'ru' });
    await h.connect(chat.user);
    const [tariff] = await h.api().listMailTariffs();
    if (!tariff) throw new Error('no mail tariff');
    await chat.say('/order mail');
    await chat.tap(tariff.tariff_name);
    await chat.tap(/^1 мес/);
    await chat.tap('BYN');
    await chat.answer('[Физическое лицо]', ...PERSON_ANSWERS, '+375291234567', 'ivan@example.by');
    await chat.tap('Нет');
    expect(await chat.tap('Подтвердить')).toContain('Заказ создан');
    const [share] = switchButtons(chat.last);
    const newest = (await h.api().listInvoices()).sort((a, b) => b.invoice_id - a.invoice_id)[0];
    expect(share).toEqual(sendToClient('📤 Отправить клиенту', newest?.invoice_number ?? ''));
    expect(ids(await h.inlineQuery(share?.switch_inline_query_chosen_chat?.query ?? ''))).toEqual([
      `invoice-${newest?.invoice_id}`,
    ]);
  });
});
