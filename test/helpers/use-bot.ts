import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { type BotCall, BotHarness, type HarnessOptions, lastText, type UserOptions } from './bot-harness.js';
import { startTwoInstances, type TwoInstances } from './two-instances.js';

/*
 * One set-up for every bot story file: `useBot(options)` at the top of a file (or a describe)
 * registers the hooks that start the bot, connect the token, reset it between stories and stop it,
 * and returns the harness (which follows the bot a story runs against) and the usual users.
 */

/** The partner: the harness's default user (USER_ID) in their private chat, speaking Russian. */
export const PARTNER: UserOptions = {};
/** A partner in their own private chat whose Telegram speaks English. */
export const EN = { userId: 777, chatId: 777, languageCode: 'en' } as const satisfies UserOptions;

/** A member of a team group, as Telegram names them. */
export interface Member {
  userId: number;
  firstName: string;
}
/** The group the team stories bind (the harness's default group chat). */
export const GROUP = -100_500;
/** The partner who binds the group: their private chat holds the token. */
export const OWNER: Member = { userId: 111, firstName: 'Анна' };
/** A member writing in the team group. */
export const inGroup = (member: Member) => ({ ...member, chatType: 'group' as const });
/** A member in their own private chat with the bot. */
export const privately = (member: Member) => ({ ...member, chatId: member.userId });

/** Whose chat gets the sandbox token: the partner, the English partner, or any user. */
export type BotUser = 'partner' | 'en' | UserOptions;

export interface UseBotOptions extends HarnessOptions {
  /** One bot for the whole file or describe (the default), or a fresh bot for every story. */
  per?: 'file' | 'story';
  /** Harness options only known once an earlier hook ran (a Redis behind a proxy); read at start. */
  startWith?: () => HarnessOptions;
  /** The chats that connect the sandbox token through /token after the start, in this order. */
  connect?: readonly BotUser[];
  /**
   * A bound team group, after `connect`: OWNER connects in private and binds GROUP with /team
   * (see bindGroup), giving these members their roles (`[member, 'техник']`).
   */
  team?: readonly [Member, string][];
  /** After the start, the connects and `team`: what else a file's stories need (spies, a probe). */
  setUp?: (h: BotHarness) => unknown;
  /**
   * Before every story: `faults` clears the sandbox's faults; `scene` sends /cancel as the partner,
   * so a story that failed mid-form does not leave the next one inside it.
   */
  reset?: readonly ('faults' | 'scene')[];
  /** Before every story, before `reset`: a file's own state (a clock, a probe) back to its start. */
  beforeEachStory?: (h: BotHarness) => unknown;
  /** After the bot stopped: what `startWith` relied on (a connection, a proxy). */
  afterStop?: () => unknown;
}

export interface Bot {
  /** The running bot's harness; with `per: 'story'`, each story's own. */
  h: BotHarness;
  /** The partner (`connect: ['partner']`): the default user, in their private chat. */
  partner: UserOptions;
  /** The English partner (`connect: ['en']`). */
  en: typeof EN;
}

const userOf = (user: BotUser): UserOptions => (user === 'partner' ? PARTNER : user === 'en' ? EN : user);

/**
 * An object that stands for whatever `current()` returns at the time of each use, so a file can
 * hold it from the start while the hooks make (and remake) the real one.
 */
function follow<T extends object>(current: () => T | undefined, what: string): T {
  const target = () => {
    const value = current();
    if (value === undefined) throw new Error(`${what} is not running: use it inside a story or a hook`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      // Not a promise: `await` and vitest look for `then`.
      if (key === 'then') return undefined;
      const object = target();
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

/**
 * Registers, in the describe (or file) it is called in, the hooks that run a whole bot for its
 * stories: start (once, or per story), connect the token for `connect`, `setUp`, the `reset`
 * before every story, and the stop (which fails the file on a leaked token or a raw placeholder).
 */
export function useBot(options: UseBotOptions = {}): Bot {
  const {
    per = 'file',
    startWith,
    connect = [],
    team,
    setUp,
    reset = [],
    beforeEachStory,
    afterStop,
    ...harnessOptions
  } = options;
  let current: BotHarness | undefined;

  const start = async () => {
    const h = await BotHarness.start({ ...harnessOptions, ...startWith?.() });
    current = h;
    for (const user of connect) await h.connect(userOf(user));
    if (team) {
      await h.connect(privately(OWNER));
      await bindGroup(h, team);
    }
    await setUp?.(h);
  };
  const stop = async () => {
    const h = current;
    current = undefined;
    try {
      await h?.stop();
    } finally {
      await afterStop?.();
    }
  };

  if (per === 'story') {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  // Every button a story drew says what it does (button-rules.ts); a break fails that story.
  afterEach(() => current?.checkButtons());
  if (beforeEachStory || reset.length > 0) {
    beforeEach(async () => {
      const h = current;
      if (!h) return;
      await beforeEachStory?.(h);
      if (reset.includes('faults')) h.sandbox.clearFaults();
      if (reset.includes('scene')) await h.send('/cancel', PARTNER);
    });
  }
  return { h: follow(() => current, 'the bot'), partner: PARTNER, en: EN };
}

/** A second bot for one story (another allow-list, a shorter timeout), stopped however it ends. */
export async function withBot<T>(options: HarnessOptions, story: (h: BotHarness) => Promise<T>): Promise<T> {
  const h = await BotHarness.start(options);
  try {
    return await story(h);
  } finally {
    await h.stop();
  }
}

/**
 * The owner (connected in private) binds the group with /team, which must answer that it is
 * bound, and gives each member their role by answering the member's message. The /team answer.
 */
export async function bindGroup(
  h: BotHarness,
  roles: readonly [Member, string][] = [],
  owner: Member = OWNER,
): Promise<BotCall[]> {
  const bound = await h.send('/team', inGroup(owner));
  expect(lastText(bound)).toContain('Группа подключена');
  for (const [member, role] of roles) await h.send(`/team ${role}`, { ...inGroup(owner), replyTo: member });
  return bound;
}

/**
 * Two whole bots on one Redis and one sandbox (see two-instances.ts), started before the
 * describe's stories and stopped after them, keys deleted.
 */
export function useTwoInstances(options: Parameters<typeof startTwoInstances>[0]): {
  a: BotHarness;
  b: BotHarness;
  sandbox: Sandbox;
} {
  let pair: TwoInstances | undefined;
  beforeAll(async () => {
    pair = await startTwoInstances(options);
  });
  afterAll(async () => {
    await pair?.stop();
    pair = undefined;
  });
  return {
    a: follow(() => pair?.a, 'instance a'),
    b: follow(() => pair?.b, 'instance b'),
    sandbox: follow(() => pair?.sandbox, 'the shared sandbox'),
  };
}
