import { describe, expect, it, vi } from 'vitest';
import {
  type BotCall,
  type BotHarness,
  buttonData,
  buttons,
  lastText,
  texts,
  textsFor,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { bindGroup, GROUP, inGroup, OWNER, privately, useBot } from '../../helpers/use-bot.js';

/*
 * Team chats (/team): a partner binds a group to the token of their private chat, and the group's
 * members work with it by role. Several users in one group (-100_500), each with their own id.
 */

const PARTNER = { userId: 222, firstName: 'Пётр' };
const BORIS = { userId: 333, firstName: 'Борис <b>' };
const VERA = { userId: 444, firstName: 'Вера' };
const GLEB = { userId: 555, firstName: 'Глеб' };

const { h } = useBot({ per: 'story', watchers: true, connect: [privately(OWNER)] });

const watchers = () => {
  if (h.watchers === undefined) throw new Error('the harness runs without watchers');
  return h.watchers;
};

/** Every message the bot sent to the group, in all the test. */
const groupMessages = () =>
  h.calls.filter(
    (c) => (c.method === 'sendMessage' || c.method === 'editMessageText') && c.payload.chat_id === GROUP,
  );

const alerts = (calls: BotCall[]) =>
  calls
    .filter((c) => c.method === 'answerCallbackQuery' && c.payload.show_alert === true)
    .map((c) => c.payload.text);

/** The owner binds the group; it must answer that it is bound. */
const bind = () => bindGroup(h);

describe('binding a group', () => {
  it('binds it to the owner’s token, never shows the token, and refuses a second partner', async () => {
    const connect = vi.spyOn(watchers(), 'connect');
    expect(lastText(await h.send('/invoices', inGroup(OWNER)))).toContain('в личном чате');
    // Without a token of one's own there is nothing to bind with.
    expect(lastText(await h.send('/team', inGroup(BORIS)))).toContain(
      'Сначала подключите токен API в личном чате',
    );

    const bound = await bind();
    expect(lastText(bound)).toContain('• Анна — владелец');
    expect(connect).toHaveBeenCalledWith(GROUP, h.sandbox.token);
    expect(await h.chatData.getToken(GROUP)).toBe(h.sandbox.token);
    expect(await h.chatData.getTeamGroups(OWNER.userId)).toEqual([GROUP]);

    // A member without a token of their own is told whose group it is, not of "another partner".
    // It also says which of the owner's accounts the group works with (issue 42).
    expect(lastText(await h.send('/team', inGroup(PARTNER)))).toBe(
      'Аккаунт владельца: <b>mysite.by</b>\nГруппу подключил(а) владелец — Анна: здесь работают с партнёрским аккаунтом владельца. Ваша роль: зритель; роли назначает владелец.',
    );
    await h.connect({ ...PARTNER, chatId: PARTNER.userId });
    expect(lastText(await h.send('/team', inGroup(PARTNER)))).toContain(
      'Эта группа уже подключена другим партнёром (Анна). Ваша роль здесь: зритель.',
    );
    expect((await h.chatData.getTeam(GROUP))?.owner).toBe(OWNER.userId);
    expect(lastText(await h.send('/team', inGroup(OWNER)))).toContain('Команда этого чата');

    // Plain chatter in a bound group is still nobody's business.
    expect(await h.send('всем привет', inGroup(BORIS))).toEqual([]);
    expect(await h.send('mysite.by', inGroup(OWNER))).toEqual([]);

    expect(groupMessages().length).toBeGreaterThan(3);
    for (const message of groupMessages())
      expect(String(message.payload.text)).not.toContain(h.sandbox.token);
  });
});

describe('binding a group from the private chat', () => {
  /** The partner picks the group in Telegram's picker: a message with `chat_shared`, in the private chat. */
  let pickUpdateId = 8_000_000;
  const pick = (groupId: number, member = OWNER) =>
    h.feed({
      update_id: pickUpdateId++,
      message: {
        message_id: 9_001,
        date: Math.floor(Date.now() / 1000),
        from: { id: member.userId, is_bot: false, first_name: member.firstName, language_code: 'ru' },
        chat: { id: member.userId, type: 'private', first_name: member.firstName },
        chat_shared: { request_id: 1, chat_id: groupId },
      },
    });

  it('offers Telegram’s group picker, binds the chosen group as /team there would, and tells the group', async () => {
    const offer = await h.send('/team', privately(OWNER));
    expect(lastText(offer)).toContain('Выберите группу, в которой будет работать команда');
    const keyboard = offer.at(-1)?.payload.reply_markup as {
      keyboard: { text: string; request_chat?: { request_id: number; chat_is_channel: boolean } }[][];
    };
    expect(keyboard.keyboard[0]?.[0]).toMatchObject({
      text: '👥 Выбрать группу',
      request_chat: { request_id: 1, chat_is_channel: false },
    });

    const connect = vi.spyOn(watchers(), 'connect');
    const picked = await pick(GROUP);
    expect(await h.chatData.getToken(GROUP)).toBe(h.sandbox.token);
    expect((await h.chatData.getTeam(GROUP))?.owner).toBe(OWNER.userId);
    expect(await h.chatData.getTeamGroups(OWNER.userId)).toEqual([GROUP]);
    expect(connect).toHaveBeenCalledWith(GROUP, h.sandbox.token);
    const told = picked.find((c) => c.method === 'sendMessage' && c.payload.chat_id === GROUP);
    expect(String(told?.payload.text)).toContain(
      '✅ Группа подключена к партнёрскому аккаунту владельца — Анна.',
    );
    expect(String(told?.payload.text)).toContain('• Анна — владелец');
    const answer = picked.find((c) => c.method === 'sendMessage' && c.payload.chat_id === OWNER.userId);
    expect(String(answer?.payload.text)).toContain('я написал об этом в группе');
    expect(answer?.payload.reply_markup).toEqual({ remove_keyboard: true });
    // /team in the group keeps working: the team screen.
    expect(lastText(await h.send('/team', inGroup(OWNER)))).toContain('Команда этого чата');
  });

  it('refuses a group another partner bound, and asks for a token first', async () => {
    await bind();
    await h.connect({ ...PARTNER, chatId: PARTNER.userId });
    const refused = await pick(GROUP, PARTNER);
    expect(lastText(refused)).toContain('уже подключена другим партнёром (Анна)');
    expect((await h.chatData.getTeam(GROUP))?.owner).toBe(OWNER.userId);
    expect(lastText(await h.send('/team', privately(VERA)))).toContain(
      'Сначала подключите токен API: /token',
    );
  });
});

describe('roles', () => {
  it('a newcomer is a viewer; the owner makes them tech by reply, and tech can do DNS but not billing', async () => {
    await bind();
    expect(lastText(await h.send('/dns mysite.by', inGroup(BORIS)))).toBe(
      'Эта команда доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    );
    // Look-ups are for everyone.
    expect(lastText(await h.send('/zones', inGroup(BORIS)))).not.toContain('доступна ролям');

    const screen = await h.send('/team', inGroup(OWNER));
    expect(lastText(screen)).toContain('• Борис &lt;b&gt; — зритель');
    expect(buttons(screen).map((b) => b.text)).toEqual(['Борис <b> — зритель']);

    const changed = await h.send('/team техник', { ...inGroup(OWNER), replyTo: BORIS });
    expect(lastText(changed)).toBe('👤 Анна сменил(а) роль участника Борис &lt;b&gt;: теперь техник.');

    expect(lastText(await h.send('/dns mysite.by', inGroup(BORIS)))).toContain('DNS-записи mysite.by');
    expect(lastText(await h.send('/invoices', inGroup(BORIS)))).toBe(
      'Эта команда доступна ролям: бухгалтер, администратор, владелец. Ваша роль: техник. Сменить роль может владелец — Анна.',
    );
    // The owner's role is not for giving, nor can a member change roles.
    expect(lastText(await h.send('/team admin', { ...inGroup(OWNER), replyTo: OWNER }))).toContain(
      'Роль владельца не меняется',
    );
    expect(lastText(await h.send('/team viewer', { ...inGroup(BORIS), replyTo: BORIS }))).toBe(
      'Эта команда доступна ролям: владелец. Ваша роль: техник. Сменить роль может владелец — Анна.',
    );
    expect(lastText(await h.send('/team boss', { ...inGroup(OWNER), replyTo: BORIS }))).toContain(
      'Не знаю роль «boss»',
    );
  });

  it('the owner makes an accountant by button; a viewer pressing an invoice link is refused with an alert', async () => {
    await bind();
    await h.send('/help', inGroup(VERA));
    const screen = await h.send('/team', inGroup(OWNER));
    const promote = buttonData(screen, 'Вера — зритель');

    // Only the owner's press counts; Вера alone is told (an ephemeral answer to her tap).
    const refused = await h.press(promote, inGroup(VERA));
    expect(textsFor(refused, VERA.userId)).toEqual([
      'Эта кнопка доступна ролям: владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect((await h.chatData.getTeam(GROUP))?.members[String(VERA.userId)]).toBe('viewer');

    const roles = await h.press(promote, inGroup(OWNER));
    const pressed = await h.press(buttonData(roles, 'бухгалтер'), inGroup(OWNER));
    expect(texts(pressed)).toContain('👤 Анна сменил(а) роль участника Вера: теперь бухгалтер.');
    expect(buttons(pressed).map((b) => b.text)).toContain('Вера — бухгалтер');
    // Roles are stored plain; the members' names only sealed.
    expect(await h.dataFilesContaining('"accountant"')).toHaveLength(1);
    expect(await h.dataFilesContaining('Вера')).toEqual([]);

    const invoices = await h.send('/invoices', inGroup(VERA));
    expect(lastText(invoices)).not.toContain('доступна ролям');
    const link = buttonData(invoices, '🔗');

    const viewer = await h.press(link, inGroup(GLEB));
    expect(texts(viewer)).toEqual([
      'Эта кнопка доступна ролям: бухгалтер, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect(textsFor(viewer, GLEB.userId)).toEqual(texts(viewer));
    expect(texts(await h.press(link, inGroup(VERA))).join('\n')).toContain('/s/');
  });
});

describe('unbinding', () => {
  it('/team off is the owner’s; after it the group is back to private-only', async () => {
    await bind();
    const disconnect = vi.spyOn(watchers(), 'disconnect');
    expect(lastText(await h.send('/team off', inGroup(BORIS)))).toBe(
      'Эта команда доступна ролям: владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    );
    expect(await h.chatData.getToken(GROUP)).toBe(h.sandbox.token);

    expect(lastText(await h.send('/team off', inGroup(OWNER)))).toContain('Группа отключена');
    expect(disconnect).toHaveBeenCalledWith(GROUP, h.sandbox.token);
    expect(await h.chatData.getToken(GROUP)).toBeUndefined();
    expect(await h.chatData.getTeam(GROUP)).toBeUndefined();
    expect(await h.chatData.getTeamGroups(OWNER.userId)).toEqual([]);
    expect(lastText(await h.send('/invoices', inGroup(OWNER)))).toContain('в личном чате');
  });

  it('a new /token in the owner’s private chat moves the owner’s groups to it', async () => {
    await bind();
    // The owner's chat and the group hold an older token (revoked at the provider, say).
    const old = `old-${'x'.repeat(30)}`;
    await h.chatData.setToken(OWNER.userId, old);
    await h.chatData.setToken(GROUP, old);
    const saved = await h.send(`/token ${h.sandbox.token}`, { ...OWNER, chatId: OWNER.userId });
    expect(lastText(saved)).toBe(
      'Подключённые вами командные группы (1) теперь тоже работают с новым токеном.',
    );
    expect(await h.chatData.getToken(GROUP)).toBe(h.sandbox.token);
    expect(lastText(await h.send('/dns mysite.by', inGroup(OWNER)))).toContain('DNS-записи mysite.by');
  });

  it('/logout in the owner’s private chat unbinds the groups the owner bound', async () => {
    await bind();
    const ask = await h.send('/logout', { ...OWNER, chatId: OWNER.userId });
    const out = await h.press(buttonData(ask, 'Да'), { ...OWNER, chatId: OWNER.userId });
    // The group hears of it at once, not at its next command.
    const told = out.filter((c) => c.method === 'sendMessage' && c.payload.chat_id === GROUP);
    expect(told.map((c) => c.payload.text)).toEqual([
      'Группа отключена: владелец вышел из своего аккаунта в боте (/logout). Токен и роли участников забыты. Чтобы работать здесь снова, владелец подключает токен в личном чате и отправляет /team.',
    ]);
    expect(await h.chatData.getToken(OWNER.userId)).toBeUndefined();
    expect(await h.chatData.getToken(GROUP)).toBeUndefined();
    expect(await h.chatData.getTeam(GROUP)).toBeUndefined();
    expect(lastText(await h.send('/dns mysite.by', inGroup(OWNER)))).toContain('в личном чате');
  });
});

describe('forms in a group', () => {
  it('a form is its starter’s: another member’s answers do not feed it, and their own form runs beside it', async () => {
    // A Bot API server without ephemeral messages (an older self-hosted one): the questions are
    // the group's messages, aimed at the member (test/bot/team/ephemeral.test.ts has the rest).
    h.ephemeralSupport = 'refused';
    const domain = `forms-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    await bind();
    await h.send('/help', inGroup(VERA));
    await h.send('/team техник', { ...inGroup(OWNER), replyTo: BORIS });
    await h.send('/team техник', { ...inGroup(OWNER), replyTo: VERA });
    const answer = (user: typeof BORIS, text: string) => h.send(text, { ...inGroup(user), replyToBot: true });

    // Борис opens the guided add and is asked for a host.
    let boris = await h.send(`/dns ${domain}`, inGroup(BORIS));
    boris = await h.press(buttonData(boris, 'Добавить'), inGroup(BORIS));
    const typeScreen = boris;
    boris = await h.press(buttonData(boris, 'TXT'), inGroup(BORIS));
    expect(lastText(boris)).toContain('для какого хоста');
    // Under privacy mode only replies reach the bot: the typed question is a ForceReply aimed at
    // him (named, since a button brought it up), with /cancel to leave in words.
    const hostQuestion = boris.filter((c) => c.method === 'sendMessage').at(-1);
    expect(hostQuestion?.payload.reply_markup).toEqual({ force_reply: true, selective: true });
    expect(String(hostQuestion?.payload.text)).toMatch(
      new RegExp(`^<a href="tg://user\\?id=${BORIS.userId}">Борис &lt;b&gt;</a>, для какого хоста`),
    );
    expect(lastText(boris)).toContain('Выйти — /cancel.');

    // Вера answers his question: told whose form it is; nothing of hers reaches his form.
    const vera = await answer(VERA, 'www');
    expect(texts(vera)).toEqual([
      'Сейчас форму заполняет Борис &lt;b&gt; — ответить на её вопросы может только этот участник. Ваш ответ не записан; свою форму начните командой.',
    ]);
    // His form's buttons are his: her tap is told so, and his message keeps its buttons.
    const tapped = await h.press(buttonData(typeScreen, 'A'), inGroup(VERA));
    expect(tapped.filter((c) => c.method === 'answerCallbackQuery').map((c) => c.payload.text)).toEqual([
      'Эту форму заполняет другой участник — её кнопки только для него. Свою форму начните командой.',
    ]);
    expect(tapped.filter((c) => c.method !== 'answerCallbackQuery')).toEqual([]);
    // Her own command runs meanwhile, and her own form is hers.
    expect(texts(await h.send(`/dns ${domain} add A www 192.0.2.7`, inGroup(VERA))).join('\n')).toContain(
      'добавил(а) DNS-запись домена',
    );
    let own = await h.send(`/dns ${domain}`, inGroup(VERA));
    own = await h.press(buttonData(own, 'Добавить'), inGroup(VERA));
    expect(lastText(own)).toContain('какого типа');

    // Борис goes on where he was: his answers, his record.
    boris = await answer(BORIS, '@');
    expect(lastText(boris)).not.toContain('Для какого хоста');
    boris = await answer(BORIS, 'v=spf1 -all');
    boris = await h.press(buttonData(boris, '3600'), inGroup(BORIS));
    boris = await h.press(buttonData(boris, '✅ Добавить'), inGroup(BORIS));
    expect(texts(boris).join('\n')).toContain('добавил(а) DNS-запись домена');
    const posts = h.sandbox.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith(`/v1/domains/${orderId}/dns/records/`))
      .map((r) => r.body);
    expect(posts).toEqual([
      { ttl: 3600, host: 'www', ipv4: '192.0.2.7' },
      { ttl: 3600, host: '@', text: 'v=spf1 -all' },
    ]);
    // Вера's form is still open; /cancel closes hers only.
    expect(lastText(await h.send('/cancel', inGroup(VERA)))).not.toContain('Нечего отменять');
  });
});

describe('a group upgraded to a supergroup', () => {
  it('carries its binding, roles and settings to the new chat id, once, and says so there', async () => {
    const SUPERGROUP = -100_900;
    await bind();
    await h.send('/team техник', { ...inGroup(OWNER), replyTo: BORIS });
    await h.chatData.setNotifySettings(GROUP, { quiet: { from: 22, to: 8 } });
    const connect = vi.spyOn(watchers(), 'connect');
    const disconnect = vi.spyOn(watchers(), 'disconnect');
    const service = (chat: object, extra: object) =>
      h.feed({
        update_id: 9_000 + Math.floor(Math.random() * 1000),
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          from: { id: OWNER.userId, is_bot: false, first_name: OWNER.firstName },
          chat,
          ...extra,
        },
      } as Parameters<BotHarness['feed']>[0]);

    const moved = await service(
      { id: GROUP, type: 'group', title: 'Студия' },
      { migrate_to_chat_id: SUPERGROUP },
    );
    expect(moved.map((c) => [c.method, c.payload.chat_id, c.payload.text])).toEqual([
      [
        'sendMessage',
        SUPERGROUP,
        'Группа стала супергруппой: подключение к аккаунту, роли участников и настройки уведомлений перенесены, ничего делать не нужно.',
      ],
    ]);
    // The new chat's own service message changes nothing more.
    expect(
      await service({ id: SUPERGROUP, type: 'supergroup', title: 'Студия' }, { migrate_from_chat_id: GROUP }),
    ).toEqual([]);

    expect(await h.chatData.getToken(SUPERGROUP)).toBe(h.sandbox.token);
    expect(await h.chatData.getToken(GROUP)).toBeUndefined();
    expect(await h.chatData.getTeam(GROUP)).toBeUndefined();
    expect(await h.chatData.getTeamGroups(OWNER.userId)).toEqual([SUPERGROUP]);
    expect(await h.chatData.getNotifySettings(SUPERGROUP)).toEqual({ quiet: { from: 22, to: 8 } });
    expect(connect).toHaveBeenCalledWith(SUPERGROUP, h.sandbox.token);
    expect(disconnect).toHaveBeenCalledWith(GROUP, h.sandbox.token);

    const inSuper = (user: typeof BORIS) => ({
      ...user,
      chatType: 'supergroup' as const,
      chatId: SUPERGROUP,
    });
    expect(lastText(await h.send('/dns mysite.by', inSuper(BORIS)))).toContain('DNS-записи mysite.by');
    expect(lastText(await h.send('/invoices', inSuper(BORIS)))).toContain('Ваша роль: техник');
  });
});

describe('every role, every kind of command and button', () => {
  it('allows and refuses by the one table, for commands and for buttons another member brought up', async () => {
    const members = {
      viewer: { userId: 801, firstName: 'Вика' },
      accountant: { userId: 802, firstName: 'Алла' },
      tech: { userId: 803, firstName: 'Тимур' },
      admin: { userId: 804, firstName: 'Дина' },
      owner: OWNER,
    };
    await bind();
    for (const [role, word] of [
      ['viewer', 'зритель'],
      ['accountant', 'бухгалтер'],
      ['tech', 'техник'],
      ['admin', 'админ'],
    ] as const) {
      await h.send(`/team ${word}`, { ...inGroup(OWNER), replyTo: members[role] });
    }
    // The owner brings up one button of each kind in the group.
    const invoices = await h.send('/invoices', inGroup(OWNER));
    const records = await h.send('/dns mysite.by', inGroup(OWNER));
    const menu = await h.send('/order', inGroup(OWNER));
    const team = await h.send('/team', inGroup(OWNER));
    const probes = {
      lookup: { command: '/zones', button: undefined },
      billing: { command: '/payments', button: buttonData(invoices, '🔗') },
      tech: { command: '/dns mysite.by', button: buttonData(records, 'Добавить') },
      all: { command: '/requisites', button: buttonData(menu, 'Домен') },
      roles: { command: '/team off', button: buttonData(team, 'Вика — зритель') },
    };
    // What each role may, as docs/team-chats.md lists it.
    const allowed: Record<keyof typeof members, (keyof typeof probes)[]> = {
      viewer: ['lookup'],
      accountant: ['lookup', 'billing'],
      tech: ['lookup', 'tech'],
      admin: ['lookup', 'billing', 'tech', 'all'],
      owner: ['lookup', 'billing', 'tech', 'all', 'roles'],
    };
    const seen: string[] = [];
    for (const [role, user] of Object.entries(members) as [keyof typeof members, typeof OWNER][]) {
      for (const [kind, probe] of Object.entries(probes) as [
        keyof typeof probes,
        (typeof probes)['lookup'],
      ][]) {
        // The owner's /team off and role button would end the story; the owner's rights are the table's.
        if (role === 'owner' && kind === 'roles') continue;
        const said = lastText(await h.send(probe.command, inGroup(user)));
        const refused = said.includes('доступна ролям');
        seen.push(`${role} ${probe.command}: ${refused ? 'refused' : 'allowed'}`);
        if (probe.button === undefined) continue;
        const pressed = await h.press(probe.button, inGroup(user));
        // A form the button opened (the guided DNS add) is closed before the next probe.
        await h.send('/cancel', inGroup(user));
        // A refusal is the member's alone: an ephemeral message tied to the tap.
        const told = [...alerts(pressed).map(String), ...textsFor(pressed, user.userId)];
        seen.push(
          `${role} button ${kind}: ${told.some((a) => a.includes('доступна ролям')) ? 'refused' : 'allowed'}`,
        );
      }
    }
    const expected = (Object.entries(members) as [keyof typeof members, unknown][]).flatMap(([role]) =>
      (Object.entries(probes) as [keyof typeof probes, (typeof probes)['lookup']][])
        .filter(([kind]) => !(role === 'owner' && kind === 'roles'))
        .flatMap(([kind, probe]) => {
          const verdict = allowed[role].includes(kind) ? 'allowed' : 'refused';
          return [
            `${role} ${probe.command}: ${verdict}`,
            ...(probe.button === undefined ? [] : [`${role} button ${kind}: ${verdict}`]),
          ];
        }),
    );
    expect(seen).toEqual(expected);
  });
});
