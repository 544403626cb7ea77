import { describe, expect, it } from 'vitest';
import { type BotCall, buttons, lastText } from '../../helpers/bot-harness.js';
import { EN, GROUP, inGroup, OWNER, privately, useBot } from '../../helpers/use-bot.js';

/*
 * «🧩 Открыть форму» on /requisites, only when MINI_APP_URL is set: in the partner's private chat a
 * web_app button that opens the app's saved customers for their own account; a team group's
 * customers (shown in the member's private chat after the hand-over) open by the group's direct
 * link, which needs the app's short name — a web_app button would open the member's own account.
 */

const APP = 'https://bot.example.by/app/';
const ADMIN = { userId: 444, firstName: 'Вера' };

/** The form's buttons: label and what they open. */
const formButtons = (calls: BotCall[]) =>
  buttons(calls)
    .filter((b) => /Открыть форму|Open form/.test(b.text))
    .map(({ text, url, web_app }) => ({ text, ...(url ? { url } : {}), ...(web_app ? { web_app } : {}) }));

/** The group's list in the admin's private chat: /requisites in the group, then its hand-over link. */
async function groupListPrivately(h: ReturnType<typeof useBot>['h']): Promise<BotCall[]> {
  const asked = await h.send('/requisites', inGroup(ADMIN));
  const start = /\?start=([\w-]+)$/.exec(buttons(asked).find((b) => b.url)?.url ?? '')?.[1];
  if (start === undefined) throw new Error('no hand-over link');
  return h.send(`/start ${start}`, privately(ADMIN));
}

describe('with MINI_APP_URL and MINI_APP_SHORT_NAME', () => {
  const { h } = useBot({
    miniApp: { url: APP, shortName: 'partner_app' },
    connect: ['en'],
    team: [[ADMIN, 'админ']],
  });

  it('the partner’s /requisites: a web_app button to the saved customers, below the list, in ru and en', async () => {
    await h.chatData.saveProfile(OWNER.userId, { id: 'c1', label: 'ООО Ромашка', data: {} });
    const ru = await h.send('/requisites', privately(OWNER));
    expect(lastText(ru)).toBe('Сохранённые заказчики (хранятся зашифрованными):');
    expect(buttons(ru).map((b) => b.text)).toEqual([
      'ООО Ромашка',
      '➕ Добавить заказчика',
      '🧩 Открыть форму',
    ]);
    expect(formButtons(ru)).toEqual([
      { text: '🧩 Открыть форму', web_app: { url: `${APP}?screen=customers` } },
    ]);
    const en = await h.send('/requisites', EN);
    expect(formButtons(en)).toEqual([{ text: '🧩 Open form', web_app: { url: `${APP}?screen=customers` } }]);
  });

  it('/order: the kinds, and under them the order form in the app, in ru and en', async () => {
    const ru = await h.send('/order', privately(OWNER));
    expect(lastText(ru)).toBe('Что заказываем?');
    expect(buttons(ru).at(-1)).toMatchObject({
      text: '🧩 Открыть форму',
      web_app: { url: `${APP}?screen=order` },
    });
    expect(buttons(ru)).toHaveLength(5);
    expect(formButtons(await h.send('/order', EN))).toEqual([
      { text: '🧩 Open form', web_app: { url: `${APP}?screen=order` } },
    ]);
  });

  it('/order in the bound group: the group’s direct link to the form (the app checks the role)', async () => {
    expect(formButtons(await h.send('/order', inGroup(ADMIN)))).toEqual([
      { text: '🧩 Открыть форму', url: `https://t.me/partner_test_bot/partner_app?startapp=g${GROUP}_order` },
    ]);
  });

  it('a group’s customers in the admin’s private chat: the group’s direct link, never a web_app button', async () => {
    const list = await groupListPrivately(h);
    expect(lastText(list)).toBe(
      'У группы пока нет сохранённых реквизитов: они сохраняются при заказе для группы.',
    );
    expect(formButtons(list)).toEqual([
      {
        text: '🧩 Открыть форму',
        url: `https://t.me/partner_test_bot/partner_app?startapp=g${GROUP}_customers`,
      },
    ]);
    expect(buttons(list).some((b) => b.web_app !== undefined)).toBe(false);
  });
});

describe('with MINI_APP_URL and no short name', () => {
  const { h } = useBot({ miniApp: { url: APP, shortName: undefined }, team: [[ADMIN, 'админ']] });

  it('the private chat has the web_app button; a group’s list has none', async () => {
    expect(formButtons(await h.send('/requisites', privately(OWNER)))).toHaveLength(1);
    const list = await groupListPrivately(h);
    expect(lastText(list)).toBe(
      'У группы пока нет сохранённых реквизитов: они сохраняются при заказе для группы.',
    );
    expect(formButtons(list)).toEqual([]);
  });
});

describe('without MINI_APP_URL', () => {
  const { h } = useBot({ connect: ['partner'] });

  it('no form button on /order', async () => {
    expect(formButtons(await h.send('/order'))).toEqual([]);
  });

  it('no form button on /requisites', async () => {
    const calls = await h.send('/requisites');
    expect(lastText(calls)).toContain('Сохранённых заказчиков пока нет');
    expect(buttons(calls).map((b) => b.text)).toEqual(['➕ Добавить заказчика']);
  });
});
