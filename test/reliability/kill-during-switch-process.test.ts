import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createChatData } from '../../src/storage/chat-data.js';
import type { ChatStore } from '../../src/storage/chat-store.js';
import { generateKeySpec, parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { type BotProcess, eventually, startPollingBot } from '../helpers/bot-process.js';
import { SECOND_TOKEN } from '../helpers/fixtures.js';
import { type Button, ProcessChat } from '../helpers/process-chat.js';
import { deleteKeys } from '../helpers/two-instances.js';

/*
 * kill -9 during a switch of accounts, on the real process (`node dist/main.js`, long polling
 * over the local Bot API server, the sandbox serving two partners), on lowdb and on Redis.
 * A partner in Russian connects two accounts in one chat as a person does (/token, then
 * «➕ Добавить аккаунт» in /accounts; each token message deleted), then taps the switch buttons
 * of /accounts («🔄 mysite.by», «🔄 studio-b.by»), each twice, in turn, faster than the bot
 * answers, and the process is killed with SIGKILL while taps are in flight — five rounds, each
 * killed a random few milliseconds after the answer of a different tap. After each kill the
 * stored chat parses and holds both accounts with their tokens, exactly one active, no token in
 * the clear. After each restart the taps the dead process had not fetched are answered by the
 * new one (those it had fetched died with it), and then the chat opens: /accounts marks one
 * account active — the one the store held at the kill, or the one the new process's last answer
 * named — which is the last answered tap's account, or the next tap's when the kill fell between
 * its write and its answer; /invoices answers from it, headed with its name, and its
 * «👤 <other>» button from the other account: both tokens work, and looking at the other's
 * invoices switched nothing.
 */

const CHAT = 740_001;
const KEYS = generateKeySpec('t1');
const ROUNDS = 5;
/** Taps queued per round at most; the kill comes well before the bot has answered them all. */
const TAPS = 40;
const redisUrl = process.env.REDIS_URL;
const PREFIX = `pb-kill-switch-${process.pid}:`;

/**
 * Each partner's label, as the bot names an account by the domain of its first domain order,
 * and a number only its invoices carry (СФ-2026-5001… for the first, СФ-2026-15001… the second).
 */
const FIRST = { label: 'mysite.by', invoice: /СФ-2026-50\d\d\b/ } as const;
const SECOND = { label: 'studio-b.by', invoice: /СФ-2026-150\d\d\b/ } as const;
const BOTH = [FIRST, SECOND] as const;

let sandbox: Sandbox;
let telegram: BotApiServer;
let work: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, partners: [{ token: SECOND_TOKEN }] });
  telegram = await startBotApiServer({ port: 0 });
  work = await mkdtemp(join(tmpdir(), 'partner-bot-kill-switch-'));
});
afterAll(async () => {
  await telegram.close();
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
  if (redisUrl) await deleteKeys(redisUrl, PREFIX);
});

/** Starts the bot on this storage and waits until it polls. */
function startBot(env: Record<string, string>): Promise<BotProcess> {
  // Info: the restarted bot's «duplicate update ignored» lines are read below.
  return startPollingBot(telegram, sandbox.url, { ENCRYPTION_KEYS: KEYS, LOG_LEVEL: 'info', ...env });
}

/** A tap on a switch button: which account it names, its callback query and its update. */
interface Tap {
  label: string;
  queryId: string;
  updateId: number;
}

/** What the bot answered a switch tap with: the account it says is active after it. */
interface Answer {
  queryId: string;
  label: string;
}

/** Every answered switch tap of the chat, in order: «Активный аккаунт — «X»» or «X» уже активный». */
function switchAnswers(taps: readonly Tap[]): Answer[] {
  const ours = new Set(taps.map((t) => t.queryId));
  return telegram.calls
    .filter((c) => c.method === 'answerCallbackQuery' && ours.has(String(c.params.callback_query_id)))
    .map((c) => {
      const text = String(c.params.text ?? '');
      const label = /^Активный аккаунт — «(.+)»$/.exec(text)?.[1] ?? /^«(.+)» уже активный$/.exec(text)?.[1];
      if (label === undefined) throw new Error(`a switch tap answered «${text}»`);
      return { queryId: String(c.params.callback_query_id), label };
    });
}

const keyboardOf = (message: Record<string, unknown> | undefined): Button[] =>
  (message?.reply_markup as { inline_keyboard?: Button[][] } | undefined)?.inline_keyboard?.flat() ?? [];

/** Taps the switch button of `label` on the /accounts message as the chat shows it now. */
function tapSwitch(listId: number, label: string): Tap {
  const list = telegram.visibleMessages(CHAT).find((m) => Number(m.message_id) === listId);
  const button = keyboardOf(list).find((b) => b.text === `🔄 ${label}` || b.text === `✅ ${label}`);
  if (!button?.callback_data) throw new Error(`the /accounts message shows no switch button of ${label}`);
  const update = telegram.pressButton(button.callback_data, {
    chatId: CHAT,
    userId: CHAT,
    messageId: listId,
    languageCode: 'ru',
  }) as { update_id: number; callback_query: { id: string } };
  return { label, queryId: update.callback_query.id, updateId: update.update_id };
}

/** /accounts as the partner reads it: the accounts listed and the one marked active. */
async function openAccounts(chat: ProcessChat): Promise<{ listId: number; active: string }> {
  const shown = await chat.say('/accounts', /аккаунты этого чата/);
  expect(shown.text).toContain('— 2 из 10');
  const activeLines = [...shown.text.matchAll(/^✅ <b>(.+)<\/b> — активный$/gm)].map((m) => m[1]);
  const otherLines = [...shown.text.matchAll(/^▫️ <b>(.+)<\/b>$/gm)].map((m) => m[1]);
  expect(activeLines).toHaveLength(1);
  const active = activeLines[0] ?? '';
  expect([...activeLines, ...otherLines].sort()).toEqual([FIRST.label, SECOND.label]);
  const switches = shown.buttons.filter((b) => /^(✅|🔄) /.test(b.text)).map((b) => b.text);
  expect(switches.sort()).toEqual(BOTH.map((a) => `${a.label === active ? '✅' : '🔄'} ${a.label}`).sort());
  // The message just sent: the chat's latest with switch buttons.
  const list = telegram
    .visibleMessages(CHAT)
    .filter((m) => keyboardOf(m).some((b) => /^(✅|🔄) /.test(b.text)))
    .at(-1);
  expect(keyboardOf(list).map((b) => b.text)).toEqual(shown.buttons.map((b) => b.text));
  return { listId: Number(list?.message_id), active };
}

/** The partner connects both accounts as a person does: /token, then ➕ in /accounts. */
async function connectBoth(chat: ProcessChat): Promise<void> {
  await chat.say('/token', /Отправьте токен API партнёра/);
  const first = await chat.say(sandbox.token, /Токен проверен и сохранён/);
  expect(first.text).toContain('Сообщение с токеном я удалил из чата.');
  await chat.say('/accounts', /— 1 из 10/);
  await chat.tap('➕ Добавить аккаунт', /токен API другого партнёрского аккаунта/);
  const second = await chat.say(SECOND_TOKEN, /Добавлен аккаунт/);
  expect(second.text).toContain(`✅ Добавлен аккаунт «${SECOND.label}». Теперь он активный`);
  // Neither token stays in the chat.
  const texts = telegram.visibleMessages(CHAT).map((m) => String(m.text ?? ''));
  expect(texts.some((t) => t.includes(sandbox.token) || t.includes(SECOND_TOKEN))).toBe(false);
}

/** The chat as stored after the kill: it opens, both accounts and tokens, one active. */
async function expectStoredWhole(store: ChatStore): Promise<string> {
  const chatData = createChatData({ store, keyring: parseEncryptionKeys(KEYS) });
  try {
    const accounts = await chatData.listAccounts(CHAT);
    expect(accounts.map((a) => [a.n, a.token, a.partner])).toEqual([
      [1, sandbox.token, FIRST.label],
      [2, SECOND_TOKEN, SECOND.label],
    ]);
    const active = accounts.filter((a) => a.active);
    expect(active).toHaveLength(1);
    return active[0]?.partner ?? '';
  } finally {
    await store.close();
  }
}

/** No stored document is half written, and no token is stored in the clear. */
async function expectLowdbFilesWhole(dir: string): Promise<void> {
  const entries = await readdir(join(dir, 'chats'), { recursive: true, withFileTypes: true });
  const files = entries.filter((f) => f.isFile() && f.name.endsWith('.json'));
  expect(files.map((f) => f.name)).toContain(`${CHAT}.json`);
  for (const file of files) {
    const text = await readFile(join(file.parentPath, file.name), 'utf8');
    expect(() => JSON.parse(text), file.name).not.toThrow();
    expect(text).not.toContain(sandbox.token);
    expect(text).not.toContain(SECOND_TOKEN);
  }
}

/** The update ids the bot logged as already seen and dropped (Redis remembers them across restarts). */
const droppedUpdates = (bot: BotProcess): Set<number> =>
  new Set(
    bot
      .output()
      .split('\n')
      .filter((line) => line.includes('duplicate update ignored'))
      .map((line) => Number((JSON.parse(line) as { updateId: number }).updateId)),
  );

/**
 * Waits until every tap the dead process had not fetched (Telegram delivers it again) is answered
 * by the new one, or dropped by it as already seen. Taps the dead process fetched and had not
 * answered died with it: the bot confirms a batch as it fetches it, so a crash loses what is in
 * flight, as in webhook mode (src/polling.ts).
 */
async function settle(bot: BotProcess, redelivered: readonly Tap[]): Promise<void> {
  await eventually(() => {
    const answered = new Set(switchAnswers(redelivered).map((a) => a.queryId));
    const dropped = droppedUpdates(bot);
    return redelivered.every((t) => answered.has(t.queryId) || dropped.has(t.updateId));
  }, 20_000);
}

/**
 * Which account may be active after the taps so far: one chat's updates run one at a time in
 * update order, a tap's switch is written before it is answered, so it is the account of the
 * last answered tap — or of the tap after it, when that one was cut off between its write and
 * its answer. (A tap pair on one button makes the two the same, and the check exact.)
 */
function mayBeActive(taps: readonly Tap[]): string[] {
  const answered = new Set(switchAnswers(taps).map((a) => a.queryId));
  const byUpdate = [...taps].sort((x, y) => x.updateId - y.updateId);
  const last = byUpdate.findLastIndex((t) => answered.has(t.queryId));
  const said = byUpdate[last];
  const next = byUpdate[last + 1];
  if (said === undefined) throw new Error('no switch tap was ever answered');
  // The answer names the account the tap made active (or found active).
  const named = switchAnswers([said])[0]?.label;
  expect(named).toBe(said.label);
  return next === undefined ? [said.label] : [...new Set([said.label, next.label])];
}

/**
 * The chat after a restart: /accounts marks one account active — the one stored at the kill, or
 * the one the new process's last answer named; /invoices answers from it, headed with its name,
 * and its «👤 <other>» button from the other account (both tokens work); the active one stays.
 */
async function expectChatConsistent(chat: ProcessChat, expected: string): Promise<void> {
  const { active } = await openAccounts(chat);
  expect(active).toBe(expected);
  const [mine, other] = active === FIRST.label ? [FIRST, SECOND] : [SECOND, FIRST];
  const invoices = await chat.say('/invoices', /Счета/);
  expect(invoices.text.split('\n')[0]).toBe(`👤 ${mine.label}`);
  expect(invoices.text).toMatch(mine.invoice);
  expect(invoices.text).not.toMatch(other.invoice);
  const theirs = await chat.tap(`👤 ${other.label}`, /Счета/);
  expect(theirs?.text.split('\n')[0]).toBe(`👤 ${other.label}`);
  expect(theirs?.text).toMatch(other.invoice);
  expect(theirs?.text).not.toMatch(mine.invoice);
  // Looking at the other account's invoices switched nothing.
  expect((await openAccounts(chat)).active).toBe(active);
}

/**
 * One round: /accounts, then taps on the switch buttons, each twice (a partner's double tap), in
 * turn, a few at a time and faster than the bot answers; SIGKILL the moment the bot answers the
 * `answered`-th tap of the round, with later taps still in flight. Returns the round's taps and
 * those Telegram had not yet handed to the dead process.
 */
async function tapAndKill(chat: ProcessChat, bot: BotProcess, answered: number) {
  const { listId, active } = await openAccounts(chat);
  const round: Tap[] = [];
  // The first taps are on the other account: a real switch.
  const order = active === FIRST.label ? [SECOND, SECOND, FIRST, FIRST] : [FIRST, FIRST, SECOND, SECOND];
  const since = telegram.calls.length;
  let stop = false;
  const tapping = (async () => {
    for (let i = 0; !stop && i < TAPS; i += order.length) {
      for (const account of order) round.push(tapSwitch(listId, account.label));
      await sleep(5);
    }
  })();
  let seen = 0;
  await telegram.waitForCall(
    (c) =>
      c.method === 'answerCallbackQuery' &&
      round.some((t) => t.queryId === String(c.params.callback_query_id)) &&
      ++seen >= answered,
    { since, timeoutMs: 15_000 },
  );
  // At that answer the bot waits for Telegram, its write done: the kill falls a random few
  // milliseconds later, somewhere in the next taps' reads, writes and edits.
  await sleep(Math.floor(Math.random() * 15));
  bot.child.kill('SIGKILL');
  stop = true;
  await tapping;
  await bot.exited;
  // Killed mid-switch: taps were still waiting for their answer.
  expect(switchAnswers(round).length).toBeLessThan(round.length);
  const confirmed = new Set(telegram.confirmedUpdateIds());
  return { round, redelivered: round.filter((t) => !confirmed.has(t.updateId)) };
}

/**
 * The story on one storage. `stored` checks the stored chat after a kill and returns its active
 * account; `afterKill` is what else a kill leaves behind that the restart has to get past.
 */
async function story(
  env: Record<string, string>,
  stored: () => Promise<string>,
  afterKill: (kill: number) => Promise<void> = async () => undefined,
) {
  const chat = new ProcessChat(telegram, CHAT, 'ru');
  const taps: Tap[] = [];
  const outputs: string[] = [];
  let bot = await startBot(env);
  try {
    await connectBoth(chat);
    for (let kill = 1; kill <= ROUNDS; kill++) {
      const { round, redelivered } = await tapAndKill(chat, bot, 1 + (kill - 1) * 5);
      outputs.push(bot.output());
      taps.push(...round);
      const storedActive = await stored();
      expect(mayBeActive(taps)).toContain(storedActive);
      await afterKill(kill);
      bot = await startBot(env);
      await settle(bot, redelivered);
      // The new process's answers to the taps it got agree with what it shows next.
      const answeredNow = switchAnswers(redelivered);
      const expected = answeredNow.at(-1)?.label ?? storedActive;
      expect(mayBeActive(taps)).toContain(expected);
      await expectChatConsistent(chat, expected);
    }
  } finally {
    bot.child.kill('SIGTERM');
    await bot.exited;
    outputs.push(bot.output());
  }
  for (const secret of [sandbox.token, SECOND_TOKEN]) expect(outputs.join('')).not.toContain(secret);
}

describe('kill -9 while a partner switches accounts in /accounts (the real process)', () => {
  it('on lowdb: the chat opens with both accounts, one active, both tokens answering, 5 kills', async () => {
    const dir = join(work, 'lowdb');
    await story({ DATA_DIR: dir }, async () => {
      await expectLowdbFilesWhole(dir);
      return expectStoredWhole(createLowdbStore({ dataDir: dir }));
    });
  }, 60_000);

  it.skipIf(!redisUrl)(
    'on Redis: the same, with its own key prefix, 5 kills (the first restart waits out the lock)',
    async () => {
      const prefix = `${PREFIX}r:`;
      const redis = new Redis(redisUrl ?? '');
      try {
        await story(
          {
            STORAGE: 'redis',
            REDIS_URL: redisUrl ?? '',
            REDIS_PREFIX: prefix,
            DATA_DIR: join(work, 'redis-side'),
          },
          async () => {
            const raw = (await redis.get(`${prefix}chat:${CHAT}`)) ?? '';
            expect(() => JSON.parse(raw)).not.toThrow();
            expect(raw).not.toContain(sandbox.token);
            expect(raw).not.toContain(SECOND_TOKEN);
            return expectStoredWhole(createRedisStore({ redis, prefix }));
          },
          async (kill) => {
            // The killed process held the chat's lock (src/storage/redis-coordination.ts), which
            // expires by itself within 30 s: the first round waits that out; later ones take it
            // off as its expiry would, to keep the story short.
            const lock = `${prefix}lock:${CHAT}`;
            if (kill > 1) await redis.del(lock);
            else await eventually(async () => (await redis.exists(lock)) === 0, 35_000);
          },
        );
      } finally {
        redis.disconnect();
      }
    },
    90_000,
  );
});
