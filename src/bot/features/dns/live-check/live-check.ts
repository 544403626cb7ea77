import type { Telegram } from 'telegraf';
import type { InlineKeyboardMarkup } from 'telegraf/types';
import type { PartnerApi } from '../../../../api/index.js';
import {
  type DnsProbe,
  type Expectation,
  expectChange,
  isDelegation,
  judge,
  LIVE_CHECK_LIMIT_MS,
  type ProbeResult,
  retryDelay,
  type Sighting,
  serverSighting,
  summarizeRound,
} from '../../../../core/dns-check.js';
import type { DnsRecordData } from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import type { Logger } from '../../../../logger.js';
import { errorForLog } from '../../../../logger.js';
import type { BotContext } from '../../../context.js';
import { speakAs, stampRows } from '../../../kit/account-speaker.js';
import { callBotApi } from '../../../kit/bot-api-today.js';
import type { Translate } from '../../../kit/i18n.js';
import { fitsRich, screenRich } from '../../../kit/rich-screen.js';
import type { Screen, SentScreen } from '../../../kit/screen.js';
import type { LiveCheckJob, ServerRound } from './job.js';
import { type CheckLines, linesBelow, renderLiveCheck } from './views.js';

export type { LiveCheckJob } from './job.js';

/*
 * The live check's runs: after a DNS change (or on `/dns <domain> check`), ask the domain's name
 * servers in the background, edit the change's message with what they show, and ask again with
 * backoff for up to two minutes. A run never holds the update that started it (the chat's queue
 * and the polling loop go on), is bounded in number, and is cancelled on shutdown. It edits through
 * a Telegram client of its own (main.ts builds it; tests observe it like every Bot API call) and
 * waits through an injectable clock, so tests drive the retries deterministically.
 */

/** Waiting between rounds; tests give one they advance by hand. */
export interface LiveCheckClock {
  now(): number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: LiveCheckClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    }),
};

/** What a run needs to know: the message to edit, and what the servers should show. */

/** The live check as the bot sees it (a dep of `createBot`, like WatchPort). */
export interface LiveCheckPort {
  /** Starts a run in the background and returns at once. */
  start(job: LiveCheckJob): void;
}

export interface LiveChecksOptions {
  probe: DnsProbe;
  /**
   * Edits messages outside any update (its own client, built by main.ts): `editMessageText` for an
   * HTML message, `callApi` for a rich one (Bot API 10.1, which telegraf 4.16 does not name).
   */
  telegram: Pick<Telegram, 'editMessageText' | 'callApi'>;
  logger: Logger;
  clock?: LiveCheckClock;
  /** Runs at once; a new one past it stops the oldest (default 50). */
  maxRuns?: number;
  /** How long a run keeps asking (default 2 minutes). */
  limitMs?: number;
}

/** Telegram's limit for a message text. */
const MAX_TEXT = 4096;

/** The runs in flight; `stop()` ends them all (main.ts's stop path). */
export class LiveChecks implements LiveCheckPort {
  private readonly runs = new Map<AbortController, Promise<void>>();
  private readonly clock: LiveCheckClock;
  private readonly maxRuns: number;
  private readonly limitMs: number;
  private stopped = false;

  constructor(private readonly options: LiveChecksOptions) {
    this.clock = options.clock ?? realClock;
    this.maxRuns = options.maxRuns ?? 50;
    this.limitMs = options.limitMs ?? LIVE_CHECK_LIMIT_MS;
  }

  /** Runs in flight. */
  get running(): number {
    return this.runs.size;
  }

  start(job: LiveCheckJob): void {
    if (this.stopped) return;
    if (this.runs.size >= this.maxRuns) {
      // The oldest gives way: it ends with a "check again later" line rather than hanging on.
      const [oldest] = this.runs.keys();
      oldest?.abort('evicted');
    }
    const controller = new AbortController();
    const run = this.run(job, controller.signal)
      .catch(async (error: unknown) => {
        this.options.logger.warn({ chatId: job.chatId, err: errorForLog(error) }, 'live check failed');
        // The message says the check could not be made, rather than "asking…" for ever.
        if (!controller.signal.aborted) await this.edit(job, linesBelow(job.t('dnscheck:failed')));
      })
      .finally(() => this.runs.delete(controller));
    this.runs.set(controller, run);
  }

  /** Resolves when every run has ended (tests wait for it). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all(this.runs.values());
  }

  /** Cancels every run (no more questions, no more edits) and waits for them to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const controller of this.runs.keys()) controller.abort('stop');
    await this.idle();
  }

  private async run(job: LiveCheckJob, signal: AbortSignal): Promise<void> {
    const { t, api } = job;
    const started = this.clock.now();
    const domain = await api.domainOrderIndex().then(
      (index) => index.byOrderId.get(job.orderId),
      () => undefined,
    );
    // After a change the kept list will do (the bot drops it when it changes them); asked on
    // demand, the check asks the provider afresh.
    const fresh = job.style === 'report';
    const servers = await api.listNameServers(job.orderId, { fresh }).catch(() => undefined);
    if (signal.aborted) return;
    if (domain === undefined || servers === undefined) {
      await this.edit(job, linesBelow(t('dnscheck:serversUnknown')));
      return;
    }
    if (servers.length === 0) {
      await this.edit(job, linesBelow(t('dnscheck:noServers')));
      return;
    }
    const expectations = await job.expect(domain);
    if (signal.aborted) return;
    const addresses = new Map<string, string[]>();
    let shown = '';
    let previous: ServerRound[] | undefined;
    /** An evicted run ends on what it saw last, with the line that asks again later. */
    const stoppedEarly = async () => {
      if (signal.reason === 'evicted' && previous)
        await this.edit(job, renderLiveCheck(job, domain, expectations, previous, 'stopped'));
    };
    for (let attempt = 0; ; attempt++) {
      const rounds = await Promise.all(
        servers.map(async (server): Promise<ServerRound> => {
          let found = addresses.get(server.ns);
          if (!found || found.length === 0) {
            found = await this.options.probe.addressesOf(server, signal);
            addresses.set(server.ns, found);
          }
          return this.askServer(toUnicodeDomain(server.ns), found, expectations, signal);
        }),
      );
      if (signal.aborted) return stoppedEarly();
      previous = rounds;
      const outcome = summarizeRound(rounds);
      const last = outcome.done || this.clock.now() - started + retryDelay(attempt) > this.limitMs;
      const phase = outcome.done ? 'done' : last ? 'gaveUp' : 'retrying';
      const lines = renderLiveCheck(job, domain, expectations, rounds, phase);
      if (lines.html !== shown) {
        await this.edit(job, lines);
        shown = lines.html;
      }
      if (last) return;
      await this.clock.sleep(retryDelay(attempt), signal);
      if (signal.aborted) return stoppedEarly();
    }
  }

  /** One server over every expectation, at the first of its addresses that answers. */
  private async askServer(
    server: string,
    addresses: string[],
    expectations: Expectation[],
    signal: AbortSignal,
  ): Promise<ServerRound> {
    if (addresses.length === 0) return { server, sighting: 'noAddress', values: undefined };
    const sightings: Sighting[] = [];
    let values: string[] | undefined;
    for (const expectation of expectations) {
      let result: ProbeResult = { kind: 'failed', reason: 'unreachable' };
      for (const address of addresses) {
        result = await this.options.probe.ask(address, expectation.name, expectation.type, signal);
        if (result.kind === 'answer') break;
      }
      if (result.kind === 'answer') values ??= result.values;
      sightings.push(judge(expectation, result));
    }
    return { server, sighting: serverSighting(sightings), values };
  }

  private async edit(job: LiveCheckJob, lines: CheckLines): Promise<void> {
    const quiet = (error: unknown) => {
      // Deleted meanwhile, or "not modified": nothing to tell anyone.
      this.options.logger.debug({ chatId: job.chatId, err: errorForLog(error) }, 'live check edit failed');
    };
    if (job.screen) {
      // A rich message is edited as one: its screen, the check's lines a paragraph under it.
      const screen: Screen = {
        ...job.screen,
        blocks: [...job.screen.blocks, { type: 'text', html: lines.html }],
      };
      const message = screenRich(screen);
      // A report near Telegram's limits keeps its screen as it is: the check's lines give way.
      if (!fitsRich(message)) return;
      await callBotApi(this.options.telegram, 'editMessageText', {
        chat_id: job.chatId,
        message_id: job.messageId,
        rich_message: message,
        ...(screen.keyboard && screen.keyboard.length > 0
          ? { reply_markup: { inline_keyboard: screen.keyboard } }
          : {}),
      }).catch(quiet);
      return;
    }
    const text = `${job.html}${lines.gap}${lines.html}`;
    // A change message near Telegram's limit keeps its text as it is: the check's lines give way.
    if (text.length > MAX_TEXT) return;
    await this.options.telegram
      .editMessageText(job.chatId, job.messageId, undefined, text, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(job.keyboard ? { reply_markup: job.keyboard } : {}),
      })
      .catch(quiet);
  }
}

/**
 * The one call at each DNS change point (next to the team announcement): the change's message is
 * checked in the background and edited when the name servers show the change (or say they do not
 * yet). Returns at once; nothing of the check runs inside the update. `html` and `keyboard` are the
 * message as sent (a plain-text message's text escaped), kept above the check's lines; a screen
 * sent by `ctx.screens` is given as it went out (a rich one is edited as rich).
 */
export async function checkChangeLive(
  port: LiveCheckPort | undefined,
  ctx: BotContext,
  sent: { message_id: number; chat: { id: number } } | SentScreen,
  message: { html: string; keyboard?: InlineKeyboardMarkup | undefined },
  orderId: number,
  change: { added?: readonly DnsRecordData[]; removed?: readonly DnsRecordData[] },
): Promise<void> {
  if (!port || !isLiveCheckable(change)) return;
  const api = await ctx.partnerApi();
  // The check edits the message after the update, past its outgoing pass: the keyboard keeps the
  // update's account stamp and the text its heading only if they are put in here.
  const account = ctx.account;
  const speaker =
    account === undefined
      ? undefined
      : { n: account.n, heading: account.many ? await account.label() : undefined };
  const spoken = {
    html: String(speakAs('sendMessage', { text: message.html, parse_mode: 'HTML' }, speaker).text),
    keyboard: message.keyboard && { inline_keyboard: stampRows(message.keyboard.inline_keyboard, speaker) },
  };
  startChangeCheck(port, { t: ctx.t, api }, sent, spoken, orderId, change);
}

/** Whether a change has records the name servers answer with (a delegation's NS records they do not). */
function isLiveCheckable(change: { added?: readonly DnsRecordData[]; removed?: readonly DnsRecordData[] }) {
  return [...(change.added ?? []), ...(change.removed ?? [])].some((r) => !isDelegation(r));
}

/**
 * `checkChangeLive` for a message sent outside an update (a change made in the Mini App): the
 * chat's language and partner API are given rather than read from the update.
 */
export function startChangeCheck(
  port: LiveCheckPort | undefined,
  chat: { t: Translate; api: PartnerApi },
  sent: { message_id: number; chat: { id: number } } | SentScreen,
  message: { html: string; keyboard?: InlineKeyboardMarkup | undefined },
  orderId: number,
  change: { added?: readonly DnsRecordData[]; removed?: readonly DnsRecordData[] },
): void {
  if (!port || !isLiveCheckable(change)) return;
  const where =
    'screen' in sent
      ? { chatId: sent.chatId, messageId: sent.messageId, screen: sent.rich ? sent.screen : undefined }
      : { chatId: sent.chat.id, messageId: sent.message_id };
  port.start({
    ...where,
    html: message.html,
    keyboard: message.keyboard,
    t: chat.t,
    api: chat.api,
    orderId,
    expect: async (domain) => expectChange(domain, change),
    style: 'change',
    gone: (change.added ?? []).length === 0,
  });
}
