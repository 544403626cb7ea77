import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  publicTexts,
  texts,
  textsFor,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { GROUP, inGroup, OWNER, useBot } from '../../helpers/use-bot.js';

/*
 * A team group's messages (docs/team-chats.md): what the whole group sees shows the buttons the
 * group may use and the guard answers a member whose role lacks one, to them alone, saying whom
 * to ask; a message one member sees draws what their role lacks disabled. Roles are picked from
 * a list, a record change is told once, and the group is told it is bound in its own words.
 */

const TECH = { userId: 333, firstName: 'Борис' };
/** A newcomer: nobody gave him a role, so he is a viewer. */
const NEWCOMER = { userId: 999, firstName: 'Глеб' };

const { h } = useBot({ per: 'story', connect: ['partner'], team: [[TECH, 'техник']] });

/** Each button's label, and «(off)» after a disabled one. */
const drawn = (calls: BotCall[]) => buttons(calls).map((b) => ('disabled' in b ? `${b.text} (off)` : b.text));

const CARD = ['Счета заказа', 'DNS-записи', 'NS-серверы', 'Свидетельство о домене'];

describe('a message the whole group sees', () => {
  it('an order card under /orders is live for everyone; a viewer’s tap is refused to him alone, naming who may', async () => {
    const domain = `shared-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);

    const list = await h.send('/orders', inGroup(NEWCOMER));
    expect(drawn(list)).toContain('➕ Новый заказ');
    const card = await h.press(buttonData(list, domain), inGroup(NEWCOMER));
    expect(drawn(card)).toEqual(CARD);

    const tapped = await h.press(buttonData(card, 'Счета заказа'), inGroup(NEWCOMER));
    expect(textsFor(tapped, NEWCOMER.userId)).toEqual([
      'Эта кнопка доступна ролям: бухгалтер, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect(publicTexts(tapped)).toEqual([]);
  });
});

describe('a refusal', () => {
  it('says whom to ask: the owner by name', async () => {
    const domain = `ask-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    expect(textsFor(await h.send(`/dns ${domain}`, inGroup(NEWCOMER)), NEWCOMER.userId)).toEqual([
      'Эта команда доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
  });
});

describe('a member’s role', () => {
  it('is chosen from a list, and one change is announced once', async () => {
    await h.send('/help', inGroup(NEWCOMER));
    const screen = await h.send('/team', inGroup(OWNER));
    expect(drawn(screen)).toEqual(['Борис — техник', 'Глеб — зритель']);

    const choice = await h.press(buttonData(screen, 'Глеб — зритель'), inGroup(OWNER));
    expect(texts(choice).at(-1)).toBe('Какую роль дать участнику Глеб? Сейчас: зритель.');
    expect(drawn(choice)).toEqual(['администратор', 'бухгалтер', 'техник', '✓ зритель', '⬅ Назад']);

    const made = await h.press(buttonData(choice, 'администратор'), inGroup(OWNER));
    expect(texts(made).filter((t) => t.startsWith('👤'))).toEqual([
      '👤 Анна сменил(а) роль участника Глеб: теперь администратор.',
    ]);
    expect(drawn(made)).toEqual(['Глеб — администратор', 'Борис — техник']);
    expect((await h.chatData.getTeam(GROUP))?.members[String(NEWCOMER.userId)]).toBe('admin');

    // The role he has already: nothing changes, nothing is announced.
    const again = await h.press(buttonData(made, 'Глеб — администратор'), inGroup(OWNER));
    const same = await h.press(buttonData(again, '✓ администратор'), inGroup(OWNER));
    expect(texts(same).filter((t) => t.startsWith('👤'))).toEqual([]);
    expect(drawn(same)).toEqual(['Глеб — администратор', 'Борис — техник']);
  });
});

describe('a record change made in the group', () => {
  it('appears once, saying who made it', async () => {
    const domain = `once-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const added = await h.send(`/dns ${domain} add A www 192.0.2.1`, inGroup(TECH));
    expect(publicTexts(added).filter((t) => t.includes('192.0.2.1'))).toEqual([
      expect.stringMatching(
        new RegExp(`^📣 Борис \\(техник\\) добавил\\(а\\) DNS-запись домена ${domain}: `),
      ),
    ]);
    expect(drawn(added)).toContain('↩ Отменить');

    await h.api().addDnsRecord(orderId, { kind: 'a', host: 'mail', ipv4: '93.125.99.10', ttl: 3600 });
    const changed = await h.send(`/dns ${domain} set A mail 192.0.2.55`, inGroup(TECH));
    expect(publicTexts(changed)).toEqual([
      `📣 Борис (техник) изменил(а) DNS-запись домена ${domain}: <b>A</b> mail: <code>93.125.99.10</code> → <code>192.0.2.55</code>`,
    ]);
  });
});

describe('binding', () => {
  it('tells the group whose account it is bound to, in words for the group', async () => {
    // The story's group is bound by its owner already (useBot's team): the text it was told.
    const bound = h.calls.find(
      (c) =>
        c.method === 'sendMessage' && c.payload.chat_id === GROUP && String(c.payload.text).startsWith('✅'),
    );
    const text = String(bound?.payload.text);
    expect(text).toMatch(/^✅ Группа подключена к партнёрскому аккаунту владельца — Анна\./);
    expect(text).not.toContain('вашему');
  });
});
