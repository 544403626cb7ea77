import { Composer, Markup } from 'telegraf';
import type { NameServerInput } from '../../../../api/index.js';
import { isIpv4, isIpv6 } from '../../../../core/dns-fields.js';
import { toAsciiDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { echoInput } from '../../../../core/text.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import { commandWords } from '../../../kit/arguments.js';
import { AWAIT_INPUT_SCENE, type AwaitedInput, type InputHandler } from '../../../kit/await-input.js';
import { copyTextButton, styled } from '../../../kit/bot-api-today.js';
import { askMember } from '../../../kit/group-question.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { announce } from '../../team/announce.js';
import { refOfOrder, resolveDomainOrder } from '../domain.js';
import { undoButtons } from '../history/record.js';
import type { DnsPorts } from '../ports.js';
import { renderNameServers } from '../views.js';

/** `ns1.example.by ns2.example.by=192.0.2.1`: the servers, checked before anything is sent. */
function parseServers(words: string[]): NameServerInput[] {
  const servers = words.map((word) => {
    const [ns = '', ip] = word.split('=');
    const ascii = toAsciiDomain(ns);
    if (!ascii) throw new UserInputError('dns:badNs', { value: escapeHtml(echoInput(word)) });
    // The same address checks as records get: one place for what an IP looks like.
    if (ip !== undefined && !isIpv4(ip) && !isIpv6(ip))
      throw new UserInputError('dns:badNsIp', { value: escapeHtml(echoInput(ip)) });
    return ip ? { ns: ascii, ip } : { ns: ascii };
  });
  if (servers.length === 0 || servers.length > 13) throw new UserInputError('dns:nsCount');
  return servers;
}

/** `ns1.example.by, ns2.example.by=192.0.2.1`, HTML-safe. */
const describeServers = (servers: NameServerInput[]) =>
  servers.map((s) => escapeHtml(s.ip ? `${s.ns}=${s.ip}` : s.ns)).join(', ');

/** /ns: the name servers of a domain; hosting, editor, custom or none, each after a confirmation. */
export function createDnsNameServers(deps: {
  router: CallbackRegistrar;
  /** `/ns` without a domain: the partner's domains as buttons. */
  pickDomain(ctx: BotContext, job: 'ns'): Promise<void>;
  ports: DnsPorts;
}) {
  const { router, pickDomain, ports } = deps;
  const composer = new Composer<BotContext>();

  const showNameServers = async (ctx: BotContext, orderId: number) => {
    const ref = await refOfOrder(ctx, orderId);
    const servers = await (await ctx.partnerApi()).listNameServers(ref.orderId, { fresh: true });
    const ask = (label: string, action: string) =>
      Markup.button.callback(ctx.t(label), encodeCallback('nsAsk', ref.orderId, action));
    // The names to paste at another registrar or DNS host, one per line.
    const copy = copyTextButton(ctx.t('dns:nsCopy'), servers.map((server) => server.ns).join('\n'));
    await ctx.reply(renderNameServers(ctx.t, ref.domain, servers), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        [ask('dns:nsHosting', 'hosting'), ask('dns:nsEditor', 'editor')],
        [ask('dns:nsCustom', 'custom'), styled(ask('dns:nsDelete', 'delete'), 'danger')],
        ...(copy ? [[copy]] : []),
      ]),
    });
  };

  /** Replacing or deleting name servers can take a site offline: always ask first. */
  const confirmNs = async (ctx: BotContext, orderId: number, action: string, servers?: NameServerInput[]) => {
    if (servers) ctx.session.nsPending = { orderId, servers };
    const what = servers ? describeServers(servers) : ctx.t(`dns:nsWhat.${action}`);
    await ctx.reply(ctx.t(action === 'delete' ? 'dns:nsDeleteConfirm' : 'dns:nsReplaceConfirm', { what }), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        // Every answer here replaces the domain's name servers (or deletes them): red.
        styled(
          Markup.button.callback(ctx.t('dns:yesApply'), encodeCallback('nsApply', orderId, action)),
          'danger',
        ),
        Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'ns')),
      ]),
    });
  };

  composer.command('ns', async (ctx) => {
    const [target, ...rest] = commandWords(ctx.payload);
    if (target === undefined) return pickDomain(ctx, 'ns');
    const ref = await resolveDomainOrder(ctx, target);
    const first = rest[0]?.toLowerCase();
    if (first === undefined) return showNameServers(ctx, ref.orderId);
    if (first === 'hosting' || first === 'editor' || first === 'delete')
      return confirmNs(ctx, ref.orderId, first);
    return confirmNs(ctx, ref.orderId, 'custom', parseServers(rest));
  });

  router.on('nameServers', (ctx, orderId) => showNameServers(ctx, orderId));
  router.on('nsAsk', async (ctx, orderId, action) => {
    if (action === 'custom') {
      await ctx.scene.enter(AWAIT_INPUT_SCENE, { purpose: 'nsCustom', orderId } satisfies AwaitedInput, true);
      await askMember(ctx, ctx.t('dns:nsCustomAsk'));
      return;
    }
    await confirmNs(ctx, orderId, action);
  });
  router.on('nsApply', async (ctx, orderId, action) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const api = await ctx.partnerApi();
    // The servers before, for the history's undo (read before anything changes).
    const before = await api.listNameServers(orderId, { fresh: true }).catch(() => undefined);
    let what = action === 'hosting' || action === 'editor' ? ctx.t(`dns:nsWhat.${action}`) : '';
    if (action === 'hosting') await api.setHostingNameServers(orderId);
    else if (action === 'editor') await api.setEditorNameServers(orderId);
    else if (action === 'delete') await api.deleteNameServers(orderId);
    else {
      const pending = ctx.session.nsPending;
      if (!pending || pending.orderId !== orderId) throw new UserInputError('dns:nsExpired');
      ctx.session.nsPending = undefined;
      await api.setCustomNameServers(orderId, pending.servers);
      what = describeServers(pending.servers);
    }
    // The change is made: a failed look-up of the new servers costs the history entry, never an error.
    const after =
      action === 'delete' ? [] : await api.listNameServers(orderId, { fresh: true }).catch(() => undefined);
    const entry =
      before && after
        ? await ports.journal.record(ctx, orderId, 'ns', { nameServers: { before, after } })
        : undefined;
    await ctx.reply(
      ctx.t('dns:nsDone'),
      entry ? Markup.inlineKeyboard([undoButtons(ctx.t, orderId, entry)]) : {},
    );
    await announce(ctx, action === 'delete' ? 'nsDeleted' : 'nsSet', { orderId, what });
    await showNameServers(ctx, orderId);
  });

  const nsCustom: InputHandler = (ctx, input, text) =>
    confirmNs(ctx, input.orderId, 'custom', parseServers(text.split(/[\s,]+/).filter(Boolean)));

  return { composer, inputHandlers: { nsCustom } };
}
