import { Composer, Markup } from 'telegraf';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { echoInput } from '../../../core/text.js';
import type { BotContext, BotSession } from '../../context.js';
import { UserInputError } from '../../errors.js';
import type { OrderEngine } from '../../forms/engine.js';
import { commandWords } from '../../kit/arguments.js';
import { createAwaitInputScene, type InputHandler } from '../../kit/await-input.js';
import { linkKeyboard } from '../../kit/keyboards.js';
import type { PagedLists } from '../../kit/paged-list.js';
import { type CallbackAction, CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { renderLink } from '../billing/views.js';
import { createPlanApplier } from './apply.js';
import { createDnsBulk } from './bulk/bulk.js';
import { createDnsChanges } from './change/change.js';
import type { ChangeRunner } from './change/runner.js';
import { type DomainRef, resolveDomainOrder } from './domain.js';
import { createDnsHistoryScreens } from './history/history.js';
import { checkOnDemand } from './live-check/check-command.js';
import { createDnsNameServers } from './name-servers/name-servers.js';
import type { DnsPorts } from './ports.js';
import { createDnsPresets } from './presets/presets.js';
import { createDnsRecords, type ShowAdded, type ShowRecords } from './records/records.js';
import { createDnsZoneFile } from './zone-file/zone-file.js';

export { type DomainRef, resolveDomainOrder } from './domain.js';
export { createDnsJournal } from './history/record.js';
export type { DnsPorts } from './ports.js';
export { createDnsRecordList, type ShowAdded, type ShowRecords } from './records/records.js';

/**
 * The previews a DNS question keeps open in the session until its button, by the topic of its
 * "No" (`dismiss`): "No" closes its own, `/cancel` and a new command close them all (`closeOpen`).
 */
const OPEN_PREVIEWS = {
  zone: 'dnsImport',
  ns: 'nsPending',
  preset: 'dnsPreset',
  bulk: 'dnsBulk',
  set: 'dnsSet',
} as const satisfies Record<string, keyof BotSession>;

/** The preview a "No" of this topic closes, if its topic keeps one (`records` and `undo` do not). */
function previewOf(topic: string): (typeof OPEN_PREVIEWS)[keyof typeof OPEN_PREVIEWS] | undefined {
  return Object.hasOwn(OPEN_PREVIEWS, topic) ? OPEN_PREVIEWS[topic as keyof typeof OPEN_PREVIEWS] : undefined;
}

/** The parts of the DNS feature a `/dns` word reaches. */
interface DnsParts {
  records: ReturnType<typeof createDnsRecords>;
  changes: ReturnType<typeof createDnsChanges>;
  zoneFile: ReturnType<typeof createDnsZoneFile>;
  history: ReturnType<typeof createDnsHistoryScreens>;
  presets: ReturnType<typeof createDnsPresets>;
  ports: DnsPorts;
}

/** What a word does: its domain resolved, the words after it, and the rest of the line as typed. */
type DnsWordRun = (
  parts: DnsParts,
  ctx: BotContext,
  ref: DomainRef,
  line: { words: readonly string[]; rest: string },
) => Promise<unknown>;

/**
 * `/dns <domain> <word> …`, by word, in the order the refusal of an unknown word lists them.
 * `/dns` alone picks a domain, `/dns <domain>` lists its records, and `/dns bulk` comes before any
 * domain; a word not here (nor an alias below) is told with one example for the domain typed.
 */
const DNS_WORDS = {
  // The rest of the line as typed: a TXT text keeps its spaces.
  add: (parts, ctx, ref, line) => parts.records.addFromLine(ctx, ref, line.rest),
  set: (parts, ctx, ref, line) => parts.changes.setFromLine(ctx, ref, line.rest),
  del: (parts, ctx, ref, line) => parts.changes.deleteFromWords(ctx, ref, line.words, line.rest),
  import: (parts, ctx, ref) => parts.zoneFile.askImport(ctx, ref.orderId),
  export: (parts, ctx, ref) => parts.zoneFile.exportRecords(ctx, ref),
  history: (parts, ctx, ref) => parts.history.showHistory(ctx, ref),
  preset: (parts, ctx, ref) => parts.presets.choose(ctx, ref),
  check: (parts, ctx, ref, line) => checkOnDemand(parts.ports.liveChecks, ctx, ref, line.words),
} as const satisfies Record<string, DnsWordRun>;
type DnsWord = keyof typeof DNS_WORDS;

/** Other spellings partners type for a word. */
const DNS_WORD_ALIASES: Readonly<Record<string, DnsWord>> = { delete: 'del', presets: 'preset' };

/** The words, as the refusal of an unknown one lists them. */
const WORD_LIST = Object.keys(DNS_WORDS).join(', ');

/** Own keys only: `constructor` is not a word. */
const isDnsWord = (word: string): word is DnsWord => Object.hasOwn(DNS_WORDS, word);

/** The run of a `/dns` word or alias, if it is one. */
function runOfWord(word: string): DnsWordRun | undefined {
  const name = Object.hasOwn(DNS_WORD_ALIASES, word) ? DNS_WORD_ALIASES[word] : word;
  return name !== undefined && isDnsWord(name) ? DNS_WORDS[name] : undefined;
}

/** What a domain picked from the list opens. */
export type DomainJob = 'dns' | 'ns' | 'cert';
const JOB_ACTIONS = { dns: 'dns', ns: 'nameServers', cert: 'certificate' } as const satisfies Record<
  DomainJob,
  CallbackAction
>;

/**
 * `/dns`, `/ns`, `/cert` without a domain: the partner's domain orders as buttons, paged, each
 * opening that job for its order.
 */
function createDomainPicker(lists: PagedLists) {
  const list = lists.register({
    id: 'pick',
    perPage: 10,
    async load(ctx, filter) {
      const job: DomainJob = filter === 'ns' || filter === 'cert' ? filter : 'dns';
      const index = await (await ctx.partnerApi()).domainOrderIndex({ fresh: true });
      const orders = [...index.byOrderId.entries()].sort(([a], [b]) => b - a);
      return {
        title: ctx.t(`dns:pick.${job}`),
        empty: ctx.t('dns:pickNone'),
        rows: orders.map(([orderId, domain]) => {
          const name = toUnicodeDomain(domain);
          return {
            html: ctx.t('dns:pickRow', { domain: escapeHtml(name), id: orderId }),
            button: Markup.button.callback(name, encodeCallback(JOB_ACTIONS[job], orderId)),
          };
        }),
      };
    },
  });
  return (ctx: BotContext, job: DomainJob) => lists.show(ctx, list, job, 0, 'reply');
}

/**
 * /dns, /ns and /cert: the `/dns` words routed to records, zone files and name servers, each
 * part in its own module; the domain is resolved once per update. The records list comes in
 * built (the engine's guided add ends on it too); the zone file and name server answers are
 * taken by this feature's await-input scene.
 */
export function createDnsFeature(deps: {
  engine: OrderEngine;
  lists: PagedLists;
  showRecords: ShowRecords;
  showAdded: ShowAdded;
  changes: ChangeRunner;
  downloadFile: (ctx: BotContext, fileId: string) => Promise<string>;
  ports: DnsPorts;
}): Feature {
  const { engine, showRecords, showAdded, downloadFile, ports } = deps;
  const callbacks = new CallbackSet();
  const applyPlan = createPlanApplier({ ports, showRecords });
  const records = createDnsRecords({ router: callbacks, engine, showRecords, showAdded, ports });
  const changes = createDnsChanges({
    router: callbacks,
    engine,
    changes: deps.changes,
    ports,
    askDelete: records.askDelete,
  });
  const pickDomain = createDomainPicker(deps.lists);
  const zoneFile = createDnsZoneFile({ router: callbacks, applyPlan });
  const nameServers = createDnsNameServers({ router: callbacks, pickDomain, ports });
  const history = createDnsHistoryScreens({ router: callbacks, lists: deps.lists, showRecords, ports });
  const presets = createDnsPresets({
    router: callbacks,
    applyPlan,
    presetForBulk: (ctx, draft) => bulk.presetChosen(ctx, draft),
  });
  const bulk = createDnsBulk({ router: callbacks, askPresetParams: presets.askParams, ports });
  const parts: DnsParts = { records, changes, zoneFile, history, presets, ports };

  // "No" on a DNS confirmation: the question stays, says nothing changed, and loses its buttons.
  callbacks.on('dismiss', async (ctx, topic) => {
    const message = ctx.callbackQuery?.message;
    const question = message && 'text' in message ? escapeHtml(message.text) : '';
    const note = ctx.t(`dns:kept.${topic}`, { defaultValue: ctx.t('dns:kept.records') });
    const preview = previewOf(topic);
    if (preview !== undefined) ctx.session[preview] = undefined;
    await ctx
      .editMessageText(question ? `${question}\n\n<i>${note}</i>` : note, { parse_mode: 'HTML' })
      .catch(() => ctx.editMessageReplyMarkup(undefined).catch(() => undefined));
  });
  const composer = new Composer<BotContext>();

  composer.command('dns', async (ctx) => {
    const words = commandWords(ctx.payload);
    if (words[0] === undefined) return pickDomain(ctx, 'dns');
    if (words[0].toLowerCase() === 'bulk') return bulk.start(ctx);
    const ref = await resolveDomainOrder(ctx, words[0]);
    const action = words[1]?.toLowerCase();
    if (action === undefined) return records.showRecords(ctx, ref.orderId);
    const run = runOfWord(action);
    // The rest of the line as typed, after the action word.
    const rest = ctx.payload.trim().replace(/^\S+\s+\S+\s*/, '');
    if (run) return run(parts, ctx, ref, { words: words.slice(2), rest });
    // One example for the domain typed, not every form of the command.
    throw new UserInputError('dns:badAction', {
      words: WORD_LIST,
      word: escapeHtml(echoInput(words[1] ?? '')),
      domain: escapeHtml(toUnicodeDomain(ref.domain)),
    });
  });

  composer.command('cert', async (ctx) => {
    const target = commandWords(ctx.payload)[0];
    if (target === undefined) return pickDomain(ctx, 'cert');
    const ref = await resolveDomainOrder(ctx, target);
    const url = await (await ctx.partnerApi()).getDomainCertificateUrl(ref.orderId);
    const domain = escapeHtml(toUnicodeDomain(ref.domain));
    await ctx.reply(renderLink(ctx.t, 'dns:certificateLink', { domain }, url), {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...linkKeyboard(ctx.t('common:openLink'), url),
    });
  });

  composer.use(nameServers.composer);

  const inputHandlers: Record<string, InputHandler> = {
    ...zoneFile.inputHandlers,
    ...nameServers.inputHandlers,
    ...presets.inputHandlers,
    ...bulk.inputHandlers,
  };
  return {
    name: 'dns',
    composer,
    callbacks: callbacks.registrations,
    scenes: [createAwaitInputScene(inputHandlers, downloadFile)],
    settle: deps.changes.settle,
    closeOpen(ctx) {
      const { session } = ctx;
      const previews = Object.values(OPEN_PREVIEWS);
      const open = previews.some((preview) => session[preview] !== undefined);
      for (const preview of previews) session[preview] = undefined;
      return open;
    },
  };
}
