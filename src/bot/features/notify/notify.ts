import { Composer, Markup } from 'telegraf';
import { NOTIFICATION_KIND_LIST, NOTIFICATION_KINDS, type NotificationKind } from '../../../core/notify.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { NotifySettings } from '../../../storage/chat-store.js';
import type { BotContext, WatchPort } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { commandWords } from '../../kit/arguments.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { kindSwitches, renderNotifySettings } from './views.js';

/** Quiet hours offered as buttons; any other pair is typed (`/notify quiet 23-7`). */
const QUIET_PRESETS = [
  { from: 22, to: 8 },
  { from: 23, to: 9 },
] as const;

const isKind = (word: string): word is NotificationKind => Object.hasOwn(NOTIFICATION_KINDS, word);

/** `22-8` → hours on a Minsk clock; undefined when it is not two hours 0-23 (or the same hour twice). */
export function parseQuietHours(text: string): { from: number; to: number } | undefined {
  const match = /^(\d{1,2})(?::00)?\s*[-–—]\s*(\d{1,2})(?::00)?$/.exec(text.trim());
  if (!match) return undefined;
  const from = Number(match[1]);
  const to = Number(match[2]);
  if (from > 23 || to > 23 || from === to) return undefined;
  return { from, to };
}

/**
 * `/notify`: what the bot tells this chat on its own, by buttons; quiet hours typed or by buttons.
 * The settings are the account's the update acts on (the active one, or the one a button was made
 * for): `getNotifySettings`/`setNotifySettings` answer for it during the update.
 */
export function createNotifyFeature(deps: { chatData: ChatData; watches: WatchPort | undefined }): Feature {
  const { chatData } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  const screen = async (ctx: BotContext, chatId: number, settings: NotifySettings) => {
    const token = await chatData.getToken(chatId);
    const status =
      deps.watches === undefined
        ? 'disabled'
        : token === undefined
          ? 'noToken'
          : (await deps.watches.isStopped(token))
            ? 'rejected'
            : 'watching';
    const label = (kind: NotificationKind) => ctx.t(`notify:kind.${kind}`);
    const rows = kindSwitches(settings).map(({ kind, on }) => [
      Markup.button.callback(
        ctx.t(on ? 'notify:toggleOn' : 'notify:toggleOff', { label: label(kind) }),
        encodeCallback('notifyToggle', kind),
      ),
    ]);
    const current = settings.quiet;
    const quietRow = [
      ...QUIET_PRESETS.filter((q) => q.from !== current?.from || q.to !== current?.to).map((q) =>
        Markup.button.callback(
          ctx.t('notify:quietButton', q),
          encodeCallback('notifyQuiet', `${q.from}-${q.to}`),
        ),
      ),
      ...(current
        ? [Markup.button.callback(ctx.t('notify:quietOffButton'), encodeCallback('notifyQuiet', 'off'))]
        : []),
    ];
    // Each account has settings of its own: the screen is headed with it and says so.
    ctx.headAccount();
    const account = ctx.account?.many ? await ctx.account.label() : undefined;
    return {
      text: renderNotifySettings(ctx.t, settings, status, account),
      extra: { parse_mode: 'HTML' as const, ...Markup.inlineKeyboard([...rows, quietRow]) },
    };
  };

  const show = async (ctx: BotContext, chatId: number, how: 'reply' | 'edit') => {
    const { text, extra } = await screen(ctx, chatId, await chatData.getNotifySettings(chatId));
    if (how === 'edit') await ctx.editMessageText(text, extra).catch(() => ctx.reply(text, extra));
    else await ctx.reply(text, extra);
  };

  const setQuiet = async (chatId: number, quiet: { from: number; to: number } | undefined) => {
    const { quiet: _old, ...settings } = await chatData.getNotifySettings(chatId);
    await chatData.setNotifySettings(chatId, quiet ? { ...settings, quiet } : settings);
  };

  composer.command('notify', async (ctx) => {
    const [word, value] = commandWords(ctx.payload);
    if (word === undefined) return show(ctx, ctx.chat.id, 'reply');
    const lower = word.toLowerCase();
    if (lower === 'off' || lower === 'on') {
      // Everything at once; the buttons then turn single kinds back.
      const settings = await chatData.getNotifySettings(ctx.chat.id);
      await chatData.setNotifySettings(ctx.chat.id, {
        ...settings,
        off: lower === 'off' ? [...NOTIFICATION_KIND_LIST] : [],
      });
      return show(ctx, ctx.chat.id, 'reply');
    }
    if (lower !== 'quiet') throw new UserInputError('notify:usage');
    if (value?.toLowerCase() === 'off') await setQuiet(ctx.chat.id, undefined);
    else {
      const quiet = value === undefined ? undefined : parseQuietHours(value);
      if (quiet === undefined) throw new UserInputError('notify:quietBad');
      await setQuiet(ctx.chat.id, quiet);
    }
    await show(ctx, ctx.chat.id, 'reply');
  });

  callbacks.on(
    'notifyToggle',
    async (ctx, kind) => {
      const chatId = ctx.chat?.id;
      if (chatId === undefined || !isKind(kind)) {
        await ctx.answerCbQuery(ctx.t('common:buttonExpired'));
        return;
      }
      const settings = await chatData.getNotifySettings(chatId);
      const off = new Set(settings.off ?? []);
      const turningOn = off.has(kind);
      if (turningOn) off.delete(kind);
      else off.add(kind);
      const label = ctx.t(`notify:kind.${kind}`);
      await ctx.answerCbQuery(ctx.t(turningOn ? 'notify:toastOn' : 'notify:toastOff', { label }));
      await chatData.setNotifySettings(chatId, { ...settings, off: [...off].sort() });
      await show(ctx, chatId, 'edit');
    },
    { selfAnswer: true },
  );

  callbacks.on(
    'notifyQuiet',
    async (ctx, word) => {
      const chatId = ctx.chat?.id;
      const quiet = word === 'off' ? undefined : parseQuietHours(word);
      if (chatId === undefined || (word !== 'off' && quiet === undefined)) {
        await ctx.answerCbQuery(ctx.t('common:buttonExpired'));
        return;
      }
      await ctx.answerCbQuery(quiet ? ctx.t('notify:toastQuiet', quiet) : ctx.t('notify:toastQuietOff'));
      await setQuiet(chatId, quiet);
      await show(ctx, chatId, 'edit');
    },
    { selfAnswer: true },
  );

  return { name: 'notify', composer, callbacks: callbacks.registrations, scenes: [] };
}
