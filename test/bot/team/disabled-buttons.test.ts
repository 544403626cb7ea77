import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  lastText,
  publicTexts,
  textsFor,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { inGroup, OWNER, PARTNER, useBot } from '../../helpers/use-bot.js';

/*
 * Buttons and roles (docs/team-chats.md#disabled-buttons): in the bound team group a message the
 * whole group sees keeps its buttons live whoever asked for it (the owner reads it too); a tap
 * outside one's role is refused to that member alone, naming who may. A disabled button naming
 * the role it needs is drawn only in a message one member sees (test/unit/role-keyboards.test.ts).
 * Private chats draw nothing disabled (every story checks that, too).
 */

const TECH = { userId: 333, firstName: 'Борис' };
const ACCOUNTANT = { userId: 444, firstName: 'Вера' };
/** A newcomer: nobody gave him a role, so he is a viewer. */
const NEWCOMER = { userId: 999, firstName: 'Глеб' };

const { h } = useBot({
  per: 'story',
  connect: ['partner'],
  team: [
    [TECH, 'техник'],
    [ACCOUNTANT, 'бухгалтер'],
  ],
});

/** Each button's label, and «(off)» after a disabled one (which must carry no callback data). */
const drawn = (calls: BotCall[]) =>
  buttons(calls).map((b) => {
    const disabled = 'disabled' in b;
    if (disabled) expect(b.callback_data, b.text).toBeUndefined();
    return disabled ? `${b.text} (off)` : b.text;
  });

/** A fresh domain order and its card as `member` opens it from /orders. */
async function orderCard(domain: string, member: typeof TECH) {
  const list = await h.send('/orders', inGroup(member));
  return { list, card: await h.press(buttonData(list, domain), inGroup(member)) };
}

describe('a member sees what their role lacks, disabled, with the role it needs', () => {
  it('an order card the group sees is live for the newcomer, the accountant and the owner alike', async () => {
    const domain = `locks-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);

    const newcomer = await orderCard(domain, NEWCOMER);
    // The list is the group's message: a new order is the admin’s, but the owner reads it too.
    expect(drawn(newcomer.list)).toContain('➕ Новый заказ');
    expect(drawn(newcomer.list)).toContain(
      `№ ${lastText(newcomer.card).match(/ЗК-\d{4}-\d+/)?.[0]} · ${domain}`,
    );
    expect(drawn(newcomer.card)).toEqual([
      'Счета заказа',
      'DNS-записи',
      'NS-серверы',
      'Свидетельство о домене',
    ]);

    const accountant = await orderCard(domain, ACCOUNTANT);
    expect(drawn(accountant.card)).toEqual([
      'Счета заказа',
      'DNS-записи',
      'NS-серверы',
      'Свидетельство о домене',
    ]);

    const owner = await orderCard(domain, OWNER);
    expect(drawn(owner.list)).toContain('➕ Новый заказ');
    expect(drawn(owner.card)).toEqual(['Счета заказа', 'DNS-записи', 'NS-серверы', 'Свидетельство о домене']);
  });

  it('the tech’s /dns screen is live; the newcomer tapping the tech’s old 🗑 is refused and nothing is deleted', async () => {
    const domain = `locks-dns-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);

    // The newcomer may not open DNS at all: the command is refused, naming the roles.
    expect(lastText(await h.send(`/dns ${domain}`, inGroup(NEWCOMER)))).toBe(
      'Эта команда доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    );

    const screen = await h.send(`/dns ${domain}`, inGroup(TECH));
    expect(drawn(screen).filter((label) => label.includes('🔒'))).toEqual([]);
    expect(drawn(screen)).toContain('➕ Добавить');
    const added = await h.send(`/dns ${domain} add A www 192.0.2.1`, inGroup(TECH));
    const trash = buttons(added).find((b) => /^🗑 #\d+$/.test(b.text));
    expect(trash?.callback_data).toBeDefined();

    // The tech’s message answered the tech: its 🗑 is live, and the guard answers anyone else,
    // to them alone (an ephemeral message tied to the tap).
    const tapped = await h.press(buttonData(added, '🗑'), inGroup(NEWCOMER));
    expect(textsFor(tapped, NEWCOMER.userId)).toEqual([
      'Эта кнопка доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect(publicTexts(tapped)).toEqual([]);
    expect(await h.api().listDnsRecords(orderId)).toHaveLength(1);

    // So is the owner’s live DNS button, tapped by the accountant.
    const owner = await orderCard(domain, OWNER);
    expect(
      textsFor(await h.press(buttonData(owner.card, 'DNS-записи'), inGroup(ACCOUNTANT)), ACCOUNTANT.userId),
    ).toEqual([
      'Эта кнопка доступна ролям: техник, администратор, владелец. Ваша роль: бухгалтер. Сменить роль может владелец — Анна.',
    ]);
  });

  it('in English: the card is live and a tap outside the role is refused in English, naming the owner', async () => {
    const domain = `locks-en-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    expect(lastText(await h.send('/lang en', inGroup(OWNER)))).toContain('English');
    const { list, card } = await orderCard(domain, NEWCOMER);
    expect(drawn(list)).toContain('➕ New order');
    expect(drawn(card)).toEqual([
      'Invoices of the order',
      'DNS records',
      'Name servers',
      'Domain certificate',
    ]);
    const tapped = await h.press(buttonData(card, 'DNS records'), inGroup(NEWCOMER));
    expect(textsFor(tapped, NEWCOMER.userId)).toEqual([
      'This button is for the roles: tech, admin, owner. Your role: viewer. Roles are changed by the owner, Анна.',
    ]);
  });

  it('a private chat draws nothing disabled', async () => {
    const domain = `locks-private-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    const list = await h.send('/orders', PARTNER);
    const card = await h.press(buttonData(list, domain), PARTNER);
    expect(drawn(list)).toContain('➕ Новый заказ');
    expect(drawn(card)).toEqual(['Счета заказа', 'DNS-записи', 'NS-серверы', 'Свидетельство о домене']);
  });
});
