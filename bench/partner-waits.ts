/**
 * What the partner waits for: every provider answer takes 100 ms (a sandbox `delay` fault on
 * every path), and each job of the table in docs/using-the-bot.md is sent to the real bot. Per job: the provider
 * calls, the sequential round trips among them (a call that starts after every call before it
 * has answered starts a new round trip; calls in flight together share one), the time to the
 * first thing the partner sees (a Bot API call: typing, the button's answer, or the message) and
 * the time to the answer (the last Bot API call). The provider calls are observed on undici's
 * diagnostics channels (request created → response headers), the Bot API at the instant fake.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Update } from 'telegraf/types';
import {
  type BenchResult,
  type BotCall,
  chatIds,
  type FakeTelegram,
  type FullBot,
  fixed,
  startFullBot,
  UpdateFactory,
} from './support.js';

/** How long the sandbox takes to answer each call (`--quick`: shorter, figures not comparable). */
export const PROVIDER_DELAY_MS = 100;

/** Bot API methods the partner sees happen. */
const VISIBLE = new Set([
  'sendChatAction',
  'answerCallbackQuery',
  'sendMessage',
  'editMessageText',
  'editMessageReplyMarkup',
  'sendDocument',
]);

/** One provider call as the bot's HTTP client saw it. */
interface Interval {
  start: number;
  end: number;
}

/** One message or button press of a job, and what it must bring. */
type Step = { say: string; expect?: RegExp } | { tap: string | RegExp; expect?: RegExp };

interface Job {
  label: string;
  /** The job's steps; given the pass (0, 1) where a repeat must differ (a new domain to order). */
  steps: Step[] | ((pass: number) => Step[]);
  /** Issue 11's target for the provider calls of the job, when it has one. */
  target?: number;
  /** Steps run beforehand, unmeasured (e.g. saving a customer profile). */
  prepare?: Step[];
}

const PERSON = [
  'Иванов',
  'Иван',
  'Иванович',
  'by',
  '220030',
  'Минская',
  'Минск',
  'пр. Независимости',
  '4',
  '12',
];
const WHOIS = ['BY', 'MP', '1234567', 'Партизанский РУВД г. Минска', '3140580A001PB1', '01.02.2020'];

const JOBS: Job[] = [
  // The link and the invoice (for its number) go out together: 2 calls, 1 round trip.
  { label: '`/invoice 5001`', steps: [{ say: '/invoice 5001', expect: /\/s\// }], target: 2 },
  { label: '`/invoices`', steps: [{ say: '/invoices', expect: /№/ }] },
  { label: '`/invoices <order>`', steps: [{ say: '/invoices 1006' }], target: 1 },
  {
    label: '`/check` 3 domains',
    steps: [{ say: '/check example.by free-name.by пример.бел', expect: /free-name\.by/ }],
  },
  { label: '`/dns <domain>`', steps: [{ say: '/dns mysite.by', expect: /mysite\.by/ }], target: 2 },
  {
    label: 'one-line `/dns <domain> add`',
    steps: [{ say: '/dns mysite.by add A bench 192.0.2.77', expect: /192\.0\.2\.77/ }],
    target: 2,
  },
  { label: '`/ns <domain>`', steps: [{ say: '/ns mysite.by', expect: /mysite\.by/ }] },
  { label: '`/orders`', steps: [{ say: '/orders' }] },
  {
    label: 'order a .by domain, saved customer, to the invoice link',
    prepare: [
      { say: '/order domain firstshop.by' },
      { tap: '2 года' },
      { tap: 'BYN' },
      { tap: 'Физическое лицо' },
      ...PERSON.map((say) => ({ say })),
      ...WHOIS.map((say) => ({ say })),
      { say: '+375 29 123-45-67' },
      { say: 'ivan@example.by', expect: /Сохранить/ },
      { tap: 'Да' },
      { tap: 'Подтвердить', expect: /Заказ создан/ },
    ],
    steps: (pass) => [
      { say: `/order domain benchshop${pass}.by` },
      { tap: '2 года' },
      { tap: 'BYN' },
      // The saved customer fills the requisites and the WHOIS passport data kept with it.
      { tap: 'Иванов', expect: /Итог/ },
      { tap: 'Подтвердить', expect: /Заказ создан/ },
    ],
  },
];

function stepsOf(job: Job, pass: number): Step[] {
  return typeof job.steps === 'function' ? job.steps(pass) : job.steps;
}

interface StepFigures {
  calls: number;
  roundTrips: number;
  /** ms from the update to its first visible Bot API call. */
  firstFeedback: number;
  /** ms from the update to its last Bot API call. */
  answer: number;
}

/** Round trips the partner waits through in turn: calls overlapping in time count once. */
export function sequentialRoundTrips(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let trips = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const call of sorted) {
    if (call.start >= reach) trips++;
    reach = Math.max(reach, call.end);
  }
  return trips;
}

function buttonsOf(calls: readonly BotCall[]): { text: string; callback_data?: string }[] {
  return calls.flatMap((call) => {
    const markup = call.payload.reply_markup as {
      inline_keyboard?: { text: string; callback_data?: string }[][];
    };
    return markup?.inline_keyboard?.flat() ?? [];
  });
}

function textsOf(calls: readonly BotCall[]): string {
  return calls
    .filter((c) => c.method === 'sendMessage' || c.method === 'editMessageText')
    .map((c) => String(c.payload.text))
    .join('\n');
}

/** A conversation in one chat, remembering the bot's last messages for the next tap. */
class Conversation {
  private last: BotCall[] = [];
  private nextUpdateId = 1_000_000;

  constructor(
    private readonly full: FullBot,
    private readonly telegram: FakeTelegram,
    private readonly updates: UpdateFactory,
    private readonly chatId: number,
    private readonly provider: Interval[],
  ) {}

  private update(step: Step): Update {
    if ('say' in step) return this.updates.text(this.chatId, step.say);
    const label = step.tap;
    const button = buttonsOf(this.last).find((b) =>
      typeof label === 'string' ? b.text.includes(label) : label.test(b.text),
    );
    if (button?.callback_data === undefined) {
      throw new Error(
        `no button ${String(label)}; have: ${buttonsOf(this.last)
          .map((b) => b.text)
          .join(' | ')}`,
      );
    }
    const from = { id: this.chatId, is_bot: false, first_name: 'Анна', language_code: 'ru' };
    return {
      update_id: this.nextUpdateId++,
      callback_query: {
        id: String(this.nextUpdateId),
        from,
        chat_instance: '1',
        data: button.callback_data,
        message: {
          message_id: 1,
          date: 0,
          chat: { id: this.chatId, type: 'private', first_name: 'Анна' },
          text: '…',
        },
      },
    } as Update;
  }

  async run(step: Step): Promise<StepFigures> {
    const update = this.update(step);
    const callsBefore = this.telegram.calls.length;
    const providerBefore = this.provider.length;
    const started = performance.now();
    await this.full.bot.handleUpdate(update);
    const calls = this.telegram.calls.slice(callsBefore);
    const made = this.provider.slice(providerBefore);
    if (step.expect !== undefined && !step.expect.test(textsOf(calls))) {
      const shown = 'say' in step ? step.say : String(step.tap);
      throw new Error(`${shown}: unexpected reply ${JSON.stringify(textsOf(calls).slice(0, 300))}`);
    }
    // A tap's edit carries the keyboard; keep the last messages that had one for the next tap.
    if (buttonsOf(calls).length > 0) this.last = calls;
    const visible = calls.filter((c) => VISIBLE.has(c.method));
    return {
      calls: made.length,
      roundTrips: sequentialRoundTrips(made),
      firstFeedback: (visible[0]?.at ?? Number.NaN) - started,
      answer: (calls.at(-1)?.at ?? Number.NaN) - started,
    };
  }
}

/** Records every request of undici clients in this process while `task` runs. */
function observeProvider(): { intervals: Interval[]; stop(): void } {
  const intervals: Interval[] = [];
  const open = new Map<object, Interval>();
  const onCreate = (message: unknown) => {
    const { request } = message as { request: object };
    const interval = { start: performance.now(), end: Number.NaN };
    open.set(request, interval);
    intervals.push(interval);
  };
  const onDone = (message: unknown) => {
    const { request } = message as { request: object };
    const interval = open.get(request);
    if (interval === undefined) return;
    interval.end = performance.now();
    open.delete(request);
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:request:headers', onDone);
  subscribe('undici:request:error', onDone);
  return {
    intervals,
    stop() {
      unsubscribe('undici:request:create', onCreate);
      unsubscribe('undici:request:headers', onDone);
      unsubscribe('undici:request:error', onDone);
    },
  };
}

export async function benchPartnerWaits(
  telegram: FakeTelegram,
  delayMs: number = PROVIDER_DELAY_MS,
): Promise<BenchResult> {
  const [chat = 0] = chatIds(1, 11);
  const full = await startFullBot([chat]);
  const updates = new UpdateFactory();
  const provider = observeProvider();
  const conversation = new Conversation(full, telegram, updates, chat, provider.intervals);
  const rows: string[][] = [];
  let ok = true;
  try {
    full.sandbox.addFault({
      path: '/*',
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'delay', ms: delayMs },
    });
    for (const job of JOBS) {
      for (const step of job.prepare ?? []) await conversation.run(step);
      // Twice: first with the reference cache as the earlier jobs left it, then warm.
      const runs: StepFigures[][] = [];
      for (let pass = 0; pass < 2; pass++) {
        const figures: StepFigures[] = [];
        for (const step of stepsOf(job, pass)) figures.push(await conversation.run(step));
        runs.push(figures);
      }
      const [first = [], again = []] = runs;
      const sum = (figures: StepFigures[], key: 'calls' | 'roundTrips') =>
        figures.reduce((total, f) => total + f[key], 0);
      const met = job.target === undefined || sum(again, 'calls') <= job.target;
      ok &&= met;
      const worstFeedback = Math.max(...again.map((f) => f.firstFeedback));
      const worstAnswer = Math.max(...again.map((f) => f.answer));
      rows.push([
        job.label,
        String(stepsOf(job, 0).length),
        `${sum(first, 'calls')} / ${sum(again, 'calls')}`,
        job.target === undefined ? '' : `≤ ${job.target} ${met ? '✔' : '✘'}`,
        `${sum(first, 'roundTrips')} / ${sum(again, 'roundTrips')}`,
        fixed(worstFeedback, 0),
        fixed(worstAnswer, 0),
      ]);
    }
  } finally {
    provider.stop();
    full.sandbox.clearFaults();
    await full.close();
  }
  return {
    title: `What the partner waits for (provider answering after ${delayMs} ms)`,
    method:
      `Every sandbox answer delayed ${delayMs} ms (a \`delay\` fault on every path). Each job is sent ` +
      'to the real bot twice in a row in one connected chat (first: reference cache as the earlier jobs ' +
      "left it; again: warm). Provider calls are observed on undici's diagnostics channels (request " +
      'created → response headers); round trips = calls the partner waits through one after another ' +
      '(calls in flight together count once). Feedback = first visible Bot API call after the update ' +
      "(typing, the button's answer, or the message); answer = last Bot API call; for jobs of several " +
      'steps the slowest step, of the warm run.',
    header: [
      'job',
      'updates',
      'provider calls (first / again)',
      'target',
      'sequential round trips (first / again)',
      'first feedback, ms',
      'answer, ms',
    ],
    rows,
    notes: [
      `A round trip costs at least ${delayMs} ms here; feedback well under that means the partner sees ` +
        "typing or the button's answer before the provider is asked.",
    ],
    ok,
  };
}
