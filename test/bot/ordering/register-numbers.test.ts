import { describe, expect, it } from 'vitest';
import { lastText, type UserOptions } from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * The numbers registers issue (УНП, ИНН, ОГРН) as a partner types them in the first minute of an
 * order: copied from a document with the register's name before them, and checked for what the
 * register would never issue.
 */

const { h } = useBot();

/** A conversation with the bot (see test/helpers/conversation.ts). */
class Chat extends Conversation {
  constructor(user: UserOptions) {
    super(() => h, user);
  }
}

let nextUser = 9_300;
async function fresh(): Promise<Chat> {
  nextUser += 1;
  const chat = new Chat({ userId: nextUser, chatId: nextUser });
  await h.connect(chat.user);
  return chat;
}

function lastDomainOrder(): Record<string, unknown> {
  const sent = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');
  return sent.at(-1)?.body as Record<string, unknown>;
}

const EXECUTIVE = ['Петров', 'Пётр', 'Петрович', 'Директор'];
const ADDRESS_BY = ['BY', '220004', 'Минская', 'Минск', 'ул. Немига', '5', '301'];

describe('register numbers typed at their step', () => {
  it('«УНП 591705582» typed at the УНП step is read as 591705582, and the form goes on', async () => {
    const chat = await fresh();
    await chat.say('/order domain unp-label.com');
    await chat.answer('[1 год]', '[BYN]');
    expect(await chat.tap('Юридическое лицо')).toContain('Введите: <b>УНП</b>');
    const next = await chat.say('УНП 591705582');
    expect(next).not.toContain('Поле «УНП»');
    expect(next).toContain('Введите: <b>полное наименование');
    await chat.answer('ООО «Метка»', ...EXECUTIVE, ...ADDRESS_BY, '[Да]', '[Нет]');
    await chat.answer('+375 17 200-00-00', 'office@example.by');
    const summary = await chat.answer('[Нет]');
    expect(summary).toContain('Итог: регистрация домена');
    expect(summary).toContain('591705582');
    expect(summary).not.toContain('УНП 591705582');
    await chat.tap('Подтвердить');
    expect(lastText(chat.last)).toContain('Заказ создан');
    expect(lastDomainOrder()).toMatchObject({
      domain: 'unp-label.com',
      juridical_person_requisites: { ucn: '591705582', company_name: 'ООО «Метка»' },
    });
  });

  it('an ОГРН starting with 2 is refused with the reason, though its control digit holds, and asked again', async () => {
    const chat = await fresh();
    await chat.say('/order domain ogrn-sign.ru');
    await chat.answer('[1 год]', '[RUB]', '[Юридическое лицо]', '190000005', 'ООО «Признак»', ...EXECUTIVE);
    await chat.answer('RU', '125009', 'Москва', 'Москва', 'Тверская', '1', '[Пропустить]', '[Да]', '[Нет]');
    await chat.answer('7707083893', '770701001');
    const asked = 'Введите: <b>WHOIS (организация) — ОГРН</b>';
    expect(lastText(chat.last)).toContain(asked);
    // 202770013219 mod 11 mod 10 is 4: a record number (ГРН) whose control digit holds.
    const refused = await chat.say('2027700132194');
    expect(refused).toContain('Поле «WHOIS (организация) — ОГРН»: первая цифра номера — признак записи');
    expect(refused).toContain('у ОГРН организации это 1 или 5, а не 2');
    expect(refused).toContain('номера записей (ГРН)');
    expect(refused).not.toContain('контрольная');
    expect(lastText(chat.last)).toContain(asked);
    expect(await chat.say('1027700132195')).toContain('контактный телефон');
    const summary = await chat.answer('+79161234567', 'office@example.ru', '[Нет]');
    expect(summary).toContain('Итог: регистрация домена');
    await chat.tap('Подтвердить');
    expect(lastDomainOrder()).toMatchObject({
      domain: 'ogrn-sign.ru',
      whois_company_requisites: { inn: '7707083893', kpp: '770701001', ogrn: '1027700132195' },
    });
  });
});
