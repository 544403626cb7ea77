import type { InlineKeyboardButton } from 'telegraf/types';
import { escapeHtml } from '../../core/format.js';
import { MESSAGE_LIMIT } from '../../core/paging.js';
import type { Logger } from '../../logger.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { Locale } from '../../storage/chat-store.js';
import type { AccountInUse, BotContext, BotSession } from '../context.js';
import { readCallbackStamp, stampCallback } from '../kit/callback-data.js';
import type { Translate, Translations } from '../kit/i18n.js';
import { gateKeyboard, passOutgoing } from '../kit/outgoing.js';
import { fitsRich } from '../kit/rich-screen.js';

/*
 * Several partner accounts in one chat (docs/accounts.md). Every update acts on one account:
 *   1. a pressed button's: the account is stamped into its data (`a<n>:…`, kit/callback-data.ts)
 *      when the bot sends it, so a button in an old message acts on the account it was made for;
 *      a button of a removed account says so. A button from before accounts (`1:…`) was made
 *      for the chat's single token, which became account 1;
 *   2. an open form's or draft's: the account it started with (`session.account`), for every
 *      answer that is not a command;
 *   3. else the active account (`/accounts`).
 * The choice is handed to `ChatData.useAccount`, so whatever asks the chat's token during the
 * update gets that account's; every keyboard the update sends is stamped with it; and where the
 * chat holds several accounts, the answers that speak of its data (`ctx.headAccount()`, which
 * `partnerApi()` calls) are headed with its name.
 */

/** The session's parts that are work in progress on one account. */
export const DRAFTS = ['dnsImport', 'dnsPreset', 'dnsBulk', 'dnsChange', 'dnsSet', 'nsPending'] as const;

/** Whether the session holds a form or a draft that is still open. */
export function hasOpenWork(session: BotSession): boolean {
  if (session.__scenes?.current !== undefined) return true;
  if (session.memberScenes !== undefined && Object.keys(session.memberScenes).length > 0) return true;
  return DRAFTS.some((draft) => session[draft] !== undefined);
}

/** What the partner calls an account: their own name, the provider's name of the partner, or its number. */
export function accountLabel(
  t: Translate,
  account: { n: number; name?: string | undefined; partner?: string | undefined },
): string {
  return account.name ?? account.partner ?? t('accounts:numbered', { n: account.n });
}

/** Every callback button of a keyboard stamped with account `n` (for messages sent outside updates too). */
export function stampKeyboard(payload: Record<string, unknown>, n: number): Record<string, unknown> {
  return gateKeyboard(payload, (button) => stampButton(button, n));
}

function stampButton(button: InlineKeyboardButton, n: number): InlineKeyboardButton | undefined {
  if (!('callback_data' in button)) return undefined;
  const data = stampCallback(button.callback_data, n);
  return data === button.callback_data ? undefined : { ...button, callback_data: data };
}

/**
 * The payload headed with the account's name: a text message gets a first line, a rich message a
 * first paragraph; left as it is where the heading would break a limit, the payload has no text,
 * or the text names the account itself («…в аккаунте «Студия Б»…»: said once is enough).
 */
export function headPayload(
  method: string,
  payload: Record<string, unknown>,
  label: string,
): Record<string, unknown> {
  const heading = `👤 ${label}`;
  const rich = payload.rich_message;
  if (typeof rich === 'object' && rich !== null && 'blocks' in rich && Array.isArray(rich.blocks)) {
    const headed = { ...rich, blocks: [{ type: 'paragraph', text: heading }, ...rich.blocks] };
    return fitsRich(headed as Parameters<typeof fitsRich>[0])
      ? { ...payload, rich_message: headed }
      : payload;
  }
  if (method !== 'sendMessage' && method !== 'editMessageText') return payload;
  const text = payload.text;
  if (typeof text !== 'string' || payload.entities !== undefined) return payload;
  if (text.includes(`«${escapeHtml(label)}»`) || text.includes(`«${label}»`)) return payload;
  const line = payload.parse_mode === 'HTML' ? `👤 <b>${escapeHtml(label)}</b>` : heading;
  if (payload.parse_mode !== undefined && payload.parse_mode !== 'HTML') return payload;
  const next = `${line}\n${text}`;
  return next.length > MESSAGE_LIMIT ? payload : { ...payload, text: next };
}

export function createAccountContext(deps: {
  chatData: ChatData;
  translations: Translations;
  logger: Logger;
}) {
  const { chatData } = deps;
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return next();
    const query = ctx.callbackQuery;
    let stamped: number | undefined;
    if (query !== undefined && 'data' in query) {
      const read = readCallbackStamp(query.data);
      stamped = read.account;
      // The handlers and the role guard read the data as the codec wrote it.
      query.data = read.data;
    }
    const numbers = await chatData.accountNumbers(chatId);
    if (stamped !== undefined && !numbers.includes(stamped)) {
      await ctx.answerCbQuery(ctx.t('accounts:buttonOfRemoved'), { show_alert: true });
      await ctx.editMessageReplyMarkup(undefined).catch((error: unknown) => {
        deps.logger.debug({ err: String(error) }, 'could not remove a removed account’s keyboard');
      });
      return;
    }
    if (numbers.length === 0) return next();

    // One account: it is the one in use, whatever is pinned or active.
    const active = numbers.length === 1 ? numbers[0] : await chatData.currentAccountNumber(chatId);
    const pinned = ctx.session?.account;
    const n =
      stamped ??
      (query !== undefined && numbers.includes(1) ? 1 : undefined) ??
      (!isCommand(ctx) && pinned !== undefined && numbers.includes(pinned) ? pinned : undefined) ??
      active ??
      numbers[0] ??
      1;
    chatData.useAccount(chatId, n);

    const state = new UpdateAccount(chatData, deps.translations, ctx.locale, chatId, n, numbers);
    ctx.account = state;
    passOutgoing(ctx.telegram, stampAndHead, state);

    await next();

    // A form or draft opened by this update keeps this account until it closes.
    const session = ctx.session;
    if (session === undefined) return;
    if (!hasOpenWork(session)) delete session.account;
    else session.account ??= state.n;
  };
}

/**
 * What every context has of the account middleware, on the context's prototype so an update pays
 * nothing for them: they act on the update's `ctx.account` when there is one (a chat without
 * accounts, and inline mode, have none).
 */
export function installAccountDefaults(context: Partial<BotContext>): void {
  context.headAccount = function (this: BotContext) {
    if (this.account instanceof UpdateAccount) this.account.headed = true;
  };
  context.actOnAccount = function (this: BotContext, other: number) {
    if (!(this.account instanceof UpdateAccount)) throw new Error('this chat has no accounts to choose from');
    this.account.actOn(other);
  };
}

/**
 * The account an update acts on, one instance per update. A class without closures (an object
 * literal with a getter and closures per update cost /help a third more CPU), and without the
 * context: the update's client holds it for the outgoing pass, and a client holding its context
 * kept whole updates alive into the old generation, doubling /help's garbage collection
 * (bench/README.md). Its name is told in the chat's language as the update began.
 */
class UpdateAccount implements AccountInUse {
  /** Whether the update's answers are headed with the account's name (several accounts only). */
  headed = false;
  readonly many: boolean;
  private labelOf: Promise<string> | undefined;

  constructor(
    private readonly chatData: ChatData,
    private readonly translations: Translations,
    private readonly locale: Locale,
    private readonly chatId: number,
    public n: number,
    readonly numbers: readonly number[],
  ) {
    this.many = numbers.length > 1;
  }

  label(): Promise<string> {
    const of = this.n;
    this.labelOf ??= this.chatData
      .getAccount(this.chatId, of)
      .then((found) => accountLabel(this.translations.forLocale(this.locale), found ?? { n: of }));
    return this.labelOf;
  }

  actOn(other: number): void {
    if (!this.numbers.includes(other)) throw new RangeError(`the chat has no account ${other}`);
    this.n = other;
    this.labelOf = undefined;
    this.headed = true;
    this.chatData.useAccount(this.chatId, other);
  }
}

/** The outgoing pass of an update with an account: its buttons stamped, its answers headed. */
function stampAndHead(account: UpdateAccount, method: string, payload: Record<string, unknown>) {
  const stamped = stampKeyboard(payload, account.n);
  if (!(account.headed && account.many)) return stamped;
  return account.label().then((label) => headPayload(method, stamped, label));
}

function isCommand(ctx: BotContext): boolean {
  const message = ctx.message;
  return message !== undefined && 'text' in message && message.text.startsWith('/');
}
