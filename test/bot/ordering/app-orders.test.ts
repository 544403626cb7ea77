/*
 * An order placed in the Mini App's order form, told in the chat its account belongs to as the
 * chat's own Confirm tells it: «✅ Заказ создан» with the invoice's link, «Открыть счёт», copy and
 * «Отправить клиенту», headed by where it came from — in the partner's private chat «🧩 Заказ из
 * формы», in a bound group the team's «📣 member (role) оформил(а) заказ». The services run as
 * main wires them (`h.orderPlacing`), over the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { listTariffPeriods } from '../../../src/core/tariff-periods.js';
import { type BotCall, buttons, texts } from '../../helpers/bot-harness.js';
import { SAVED_PERSON } from '../../helpers/fixtures.js';
import { GROUP, OWNER, useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ per: 'story', team: [] });

/** A hosting order of the first tariff and term, for `chatId`'s saved customer. */
async function hostingOrder(chatId: number, key: string) {
  await h.chatData.saveProfile(chatId, { id: 'c0ffee01', label: 'Иванов Иван', data: SAVED_PERSON });
  const api = h.api();
  const [currency] = await api.listCurrencies();
  const [tariff] = await api.listHostingTariffs({ currency_id: currency?.currency_id ?? 1 });
  if (!currency || !tariff) throw new Error('the sandbox lists no hosting tariff');
  const before = h.calls.length;
  const outcome = await h.orderPlacing.place({
    api,
    chatId,
    account: 1,
    who: { id: OWNER.userId, name: OWNER.firstName },
    role: 'owner',
    key,
    order: {
      kind: 'hosting',
      currencyId: currency.currency_id,
      period: listTariffPeriods(tariff)[0] ?? 1,
      customerId: 'c0ffee01',
      tariffId: tariff.tariff_id,
      domain: 'shop.by',
    },
  });
  return { outcome, sent: h.calls.slice(before).filter((c) => c.method === 'sendMessage') };
}

const textOf = (calls: BotCall[]) => texts(calls).join('\n');

describe('an order placed in the Mini App', () => {
  it('in the partner’s private chat: the chat’s own created-order message, headed «🧩 Заказ из формы»', async () => {
    const { outcome, sent } = await hostingOrder(OWNER.userId, 'app-order-private-0001');
    expect(outcome.kind).toBe('created');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload.chat_id).toBe(OWNER.userId);
    const text = textOf(sent);
    expect(text).toMatch(
      /^🧩 Заказ из формы: 🖥 Хостинг — shop\.by, [^,]+, \d+ (мес|год|года|лет)\.\n\n✅ Заказ создан\./,
    );
    expect(text).toMatch(/Ссылка на счёт для клиента:\nhttp/);
    expect(buttons(sent).map((b) => b.text)).toEqual(
      expect.arrayContaining(['Открыть счёт', '📤 Отправить клиенту']),
    );
  });

  it('in a bound group: the team’s announcement with the link; the same key again tells nobody twice', async () => {
    const { outcome, sent } = await hostingOrder(GROUP, 'app-order-group-0001');
    expect(outcome.kind).toBe('created');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload.chat_id).toBe(GROUP);
    expect(textOf(sent)).toMatch(
      /^📣 Анна \(владелец\) оформил\(а\) заказ ЗК-\d{4}-\d{6}: 🖥 Хостинг — shop\.by, [^,]+, \d+ (мес|год|года|лет)\./,
    );
    const again = await hostingOrder(GROUP, 'app-order-group-0001');
    expect(again.outcome).toMatchObject({ kind: 'created', again: true });
    expect(again.sent).toHaveLength(0);
  });
});
