import { Composer, Markup } from 'telegraf';
import { parseListedRecord } from '../../../core/dns-records.js';
import { escapeHtml } from '../../../core/format.js';
import { ACME_LABEL } from '../../../core/robot-keys.js';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { RegisterResult } from '../../../services/robot-challenges.js';
import type { IssuedKey, RobotKey, RobotKeys } from '../../../storage/robot-keys.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import type { OrderEngine } from '../../forms/engine.js';
import { commandWords } from '../../kit/arguments.js';
import { styled } from '../../kit/bot-api-today.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { refOfOrder } from '../dns/domain.js';
import { announce } from '../team/announce.js';
import type { AcmeDnsPort } from './acme-dns.js';
import { checkKeyLimit, createKeyFlow, KIND, SCOPE } from './key-flow.js';
import { describeScope, type GatewayAddress, gatewayAddress, renderKeyList, renderSecret } from './views.js';

const isGroup = (ctx: BotContext) => ctx.chat?.type === 'group' || ctx.chat?.type === 'supergroup';

/** What the keys feature is built from. */
export interface KeysDeps {
  robotKeys: RobotKeys;
  engine: OrderEngine;
  /** Where robots reach the bot (GATEWAY_URL, else the Mini App's origin), or a placeholder. */
  gateway: (ctx: BotContext) => GatewayAddress;
  /** acme-dns registration (the challenges service), for certificate keys made for cert-manager. */
  acmeDns?: AcmeDnsPort | undefined;
  logger: Logger;
}

/**
 * Shows a key's secret to the one who made or rotated it, once. In a private chat it is the
 * answer itself. In a team group it is never posted: it goes to the member's private chat with
 * the bot; when the bot may not write there (the member never pressed Start), the member is told
 * to open it and rotate the key (the group sees only the announcement, never a secret).
 */
export function createSecretDelivery(deps: Pick<KeysDeps, 'gateway' | 'logger'>) {
  return async (
    ctx: BotContext,
    issued: IssuedKey,
    rotated: boolean,
    acmeDns?: RegisterResult,
  ): Promise<void> => {
    const chat = ctx.chat;
    const from = ctx.from;
    const gateway = deps.gateway(ctx);
    const params = {
      name: escapeHtml(issued.key.name),
      what: describeScope(ctx.t, issued.key.kind, issued.key.scope),
    };
    if (chat === undefined || from === undefined) return;
    if (!isGroup(ctx)) {
      const { text, keyboard } = renderSecret(ctx.t, issued, { rotated, gateway, acmeDns });
      await ctx.reply(text, { parse_mode: 'HTML', ...Markup.inlineKeyboard(keyboard) });
      return;
    }
    const group = 'title' in chat ? chat.title : undefined;
    const { text, keyboard } = renderSecret(ctx.t, issued, { rotated, gateway, group, acmeDns });
    const delivered = await ctx.telegram
      .sendMessage(from.id, text, { parse_mode: 'HTML', ...Markup.inlineKeyboard(keyboard) })
      .then(
        () => true,
        (error: unknown) => {
          deps.logger.info({ chatId: chat.id, err: errorForLog(error) }, 'key secret not sent privately');
          return false;
        },
      );
    await announce(ctx, rotated ? 'keyRotated' : 'keyCreated', params);
    if (delivered) {
      await ctx.toMember.reply(ctx.t('keys:sentPrivately', params), { parse_mode: 'HTML' });
      return;
    }
    const url = `https://t.me/${ctx.botInfo.username}`;
    await ctx.toMember.reply(ctx.t('keys:notSentPrivately', params), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([Markup.button.url(ctx.t('keys:openPrivate'), url)]),
    });
  };
}

/**
 * `/keys`: the chat's keys for robots (routers, certificate clients) — list, make (the guided
 * form, also from a record's card), rotate and revoke, each asked first; in a team group owner,
 * admin and tech only, and announced.
 */
export function createKeysFeature(
  deps: KeysDeps & { deliver: ReturnType<typeof createSecretDelivery> },
): Feature {
  const { robotKeys, engine } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  const showList = async (ctx: BotContext) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    // The account in use's keys, headed with it where the chat holds several.
    ctx.headAccount();
    const keys = await robotKeys.list(chatId, ctx.account?.n);
    const { text, keyboard } = renderKeyList(ctx.t, ctx.locale, keys);
    await ctx.reply(text, { parse_mode: 'HTML', ...Markup.inlineKeyboard(keyboard) });
  };

  const startNew = async (
    ctx: BotContext,
    typed: Record<string, unknown> = {},
    chosen: Record<string, unknown> = {},
  ) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    await checkKeyLimit(robotKeys, chatId, ctx.account?.many);
    await engine.start(ctx, 'keyNew', typed, chosen);
  };

  /** The key a button names, if it is still this chat's; else the partner is told it is gone. */
  const keyOfChat = async (ctx: BotContext, id: string): Promise<RobotKey | undefined> => {
    const key = await robotKeys.get(id);
    if (key !== undefined && key.chatId === ctx.chat?.id) return key;
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    await ctx.reply(
      ctx.t('keys:gone'),
      Markup.inlineKeyboard([Markup.button.callback(ctx.t('keys:listButton'), encodeCallback('keys'))]),
    );
    return undefined;
  };

  /** A key's question: a red Yes, and No. */
  const ask = async (ctx: BotContext, key: RobotKey, what: 'rotate' | 'revoke') => {
    const yes =
      what === 'rotate' ? encodeCallback('keyRotateYes', key.id) : encodeCallback('keyRevokeYes', key.id);
    await ctx.reply(
      ctx.t(`keys:${what}Ask`, {
        name: escapeHtml(key.name),
        what: describeScope(ctx.t, key.kind, key.scope),
      }),
      {
        parse_mode: 'HTML',
        ...Markup.inlineKeyboard([
          styled(Markup.button.callback(ctx.t(`keys:${what}Yes`), yes), 'danger'),
          Markup.button.callback(ctx.t('keys:no'), encodeCallback('keyNo')),
        ]),
      },
    );
  };

  /** A settled question: its buttons go, its text says what happened. */
  const settle = (ctx: BotContext, html: string) =>
    ctx.editMessageText(html, { parse_mode: 'HTML' }).catch(() => ctx.reply(html, { parse_mode: 'HTML' }));

  composer.command('keys', async (ctx) => {
    const [word] = commandWords(ctx.payload);
    if (word?.toLowerCase() === 'new') return startNew(ctx);
    await showList(ctx);
  });

  callbacks.on('keys', (ctx) => showList(ctx));
  callbacks.on('keyNew', (ctx) => startNew(ctx));
  callbacks.on('keyForRecord', async (ctx, orderId, recordId) => {
    const ref = await refOfOrder(ctx, orderId);
    const listed = (await (await ctx.partnerApi()).listDnsRecords(orderId)).find(
      (r) => r.record_id === recordId,
    );
    const record = listed && parseListedRecord(listed);
    if (!record) throw new UserInputError('dns:recordNotFound', { id: recordId });
    const fqdn = (host: string) => (host === '@' ? ref.domain : `${host}.${ref.domain}`);
    if (record.type === 'TXT') {
      const host =
        record.host === ACME_LABEL ? '@' : record.host.replace(new RegExp(`^${ACME_LABEL}\\.`), '');
      return startNew(ctx, { [SCOPE]: fqdn(host) }, { [KIND]: 'certificate' });
    }
    await startNew(ctx, { [SCOPE]: fqdn(record.host) }, { [KIND]: 'address' });
  });
  callbacks.on('keyRotate', async (ctx, id) => {
    const key = await keyOfChat(ctx, id);
    if (key) await ask(ctx, key, 'rotate');
  });
  callbacks.on('keyRevoke', async (ctx, id) => {
    const key = await keyOfChat(ctx, id);
    if (key) await ask(ctx, key, 'revoke');
  });
  callbacks.on('keyRotateYes', async (ctx, id) => {
    const key = await keyOfChat(ctx, id);
    if (!key) return;
    const issued = await robotKeys.rotate(key.id);
    if (!issued) return void (await settle(ctx, ctx.t('keys:gone')));
    await settle(ctx, ctx.t('keys:rotated', { name: escapeHtml(key.name) }));
    // An acme-dns account holds the password: the client needs its JSON again, with the new one.
    const acmeDns =
      key.acmeDnsHost && deps.acmeDns ? await deps.acmeDns.register(issued.key, issued.secret) : undefined;
    await deps.deliver(ctx, issued, true, acmeDns);
  });
  callbacks.on('keyRevokeYes', async (ctx, id) => {
    const key = await keyOfChat(ctx, id);
    if (!key) return;
    await robotKeys.revoke(key.id);
    const params = { name: escapeHtml(key.name), what: describeScope(ctx.t, key.kind, key.scope) };
    await settle(ctx, ctx.t('keys:revoked', params));
    await announce(ctx, 'keyRevoked', params);
  });
  callbacks.on('keyNo', async (ctx) => {
    await settle(ctx, ctx.t('keys:unchanged'));
  });
  callbacks.on('keyHide', async (ctx) => {
    // Telegram lets a bot delete its message for 48 hours; later the text is replaced instead.
    await ctx.deleteMessage().catch(() => settle(ctx, ctx.t('keys:hidden')));
  });

  return { name: 'keys', composer, callbacks: callbacks.registrations, scenes: [] };
}

/**
 * The keys' parts as `createFeatures` wires them: the form that makes a key (run by the order
 * engine, so built before it) and the feature (built with the engine). Robots reach the bot at
 * GATEWAY_URL, else at the Mini App's origin (the same server), else the configs show a placeholder.
 */
export function createKeyParts(deps: {
  robotKeys: RobotKeys;
  gatewayUrl?: string | undefined;
  miniAppUrl?: string | undefined;
  acmeDns?: AcmeDnsPort | undefined;
  logger: Logger;
}) {
  const origin = deps.gatewayUrl ?? (deps.miniAppUrl ? new URL(deps.miniAppUrl).origin : undefined);
  const gateway = (ctx: BotContext) => gatewayAddress(ctx.t, origin);
  const deliver = createSecretDelivery({ gateway, logger: deps.logger });
  return {
    flow: createKeyFlow({ robotKeys: deps.robotKeys, acmeDns: deps.acmeDns, deliver }),
    feature: (engine: OrderEngine) =>
      createKeysFeature({
        robotKeys: deps.robotKeys,
        engine,
        gateway,
        acmeDns: deps.acmeDns,
        logger: deps.logger,
        deliver,
      }),
  };
}
