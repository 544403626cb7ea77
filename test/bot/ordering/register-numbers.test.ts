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
});
