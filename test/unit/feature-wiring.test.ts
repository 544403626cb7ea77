import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Composer, Scenes, Telegram } from 'telegraf';
import type { Update } from 'telegraf/types';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiFactory, PartnerTransport } from '../../src/api/index.js';
import type { BotContext } from '../../src/bot/context.js';
import { type BotDeps, createBot, createFeatures } from '../../src/bot/index.js';
import { CallbackRouter } from '../../src/bot/kit/callback-router.js';
import { registerFeatures } from '../../src/bot/kit/feature.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { ACTIONS, CallbackSet, callbackCodec, encodeCallback, type Feature } from '../../src/bot/registry.js';
import { createLogger } from '../../src/logger.js';
import { createChatData } from '../../src/storage/chat-data.js';
import type { ChatStore } from '../../src/storage/chat-store.js';
import { createKeyring } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createLowdbRobotKeyStore } from '../../src/storage/robot-key-store.js';
import { createRobotKeys } from '../../src/storage/robot-keys.js';

const BOT_INFO = {
  id: 7_000_000_002,
  is_bot: true as const,
  first_name: 'Partner Bot',
  username: 'partner_wiring_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
};

let dataDir: string;
let store: ChatStore;
let deps: BotDeps;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-wiring-'));
  store = createLowdbStore({ dataDir });
  const keyring = createKeyring([{ id: 't1', key: randomBytes(32) }]);
  deps = {
    botToken: `${BOT_INFO.id}:AAwiring-test-token`,
    chatData: createChatData({ store, keyring }),
    robotKeys: createRobotKeys({ store: createLowdbRobotKeyStore(), keyring }),
    // Never reached: the updates below need no provider.
    apiFor: createApiFactory(new PartnerTransport({ baseUrl: 'http://127.0.0.1:9' })),
    translations: loadTranslations(),
    logger: createLogger({ level: 'silent', destination: { write: () => undefined } }),
    defaultLocale: 'en',
  };
});

afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A feature that claims only the given button actions. */
function featureClaiming(name: string, ...actions: ('dnsAdd' | 'noop' | 'lang')[]): Feature {
  const callbacks = new CallbackSet();
  for (const action of actions) callbacks.on(action, async () => undefined);
  return { name, composer: new Composer<BotContext>(), callbacks: callbacks.registrations, scenes: [] };
}

describe('feature wiring', () => {
  it('wires every feature in one visible order', () => {
    const { features } = createFeatures(deps);
    expect(features.map((f) => f.name)).toEqual([
      'onboarding',
      'accounts',
      'billing',
      'inline',
      'catalog',
      'orders',
      'notify',
      'team',
      'domains',
      'orderForms',
      'ordering',
      'dns',
      'keys',
      'freeText',
    ]);
    expect(features.flatMap((f) => f.scenes.map((s) => s.id))).toEqual([
      'token',
      'account-name',
      'check',
      'order',
      'await-input',
    ]);
  });

  it('builds the bot twice from the same deps, each with its own router, and both answer', async () => {
    const calls: { token: string; method: string; payload: Record<string, unknown> }[] = [];
    const spy = vi.spyOn(Telegram.prototype, 'callApi').mockImplementation(async function (
      this: Telegram,
      method: string,
      payload: Record<string, unknown>,
    ) {
      calls.push({ token: this.token, method, payload });
      return method === 'sendMessage' ? { message_id: 1, date: 0, chat: { id: 1, type: 'private' } } : true;
    } as never);
    try {
      const first = createBot(deps).bot;
      const second = createBot(deps).bot;
      const from = { id: 515_151, is_bot: false, first_name: 'Ann', language_code: 'en' };
      const chat = { id: 515_151, type: 'private' as const, first_name: 'Ann' };
      let updateId = 1;
      for (const bot of [first, second]) {
        bot.botInfo = BOT_INFO;
        await bot.handleUpdate({
          update_id: updateId++,
          message: {
            message_id: updateId,
            date: 0,
            from,
            chat,
            text: '/help',
            entities: [{ type: 'bot_command', offset: 0, length: 5 }],
          },
        } as Update);
        // A button of a feature: answered by this bot's own router, not taken for an expired one.
        await bot.handleUpdate({
          update_id: updateId++,
          callback_query: {
            id: String(updateId),
            from,
            chat_instance: '1',
            data: encodeCallback('noop'),
            message: { message_id: 1, date: 0, chat, text: '…' },
          },
        } as Update);
      }
      const sent = calls.filter((c) => c.method === 'sendMessage');
      expect(sent).toHaveLength(2);
      expect(sent[0]?.payload.text).toBe(sent[1]?.payload.text);
      const answers = calls.filter((c) => c.method === 'answerCallbackQuery');
      expect(answers).toHaveLength(2);
      for (const answer of answers) expect(answer.payload.text).toBeUndefined();
      expect(calls.some((c) => c.method === 'editMessageReplyMarkup')).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('fails at start when a feature claims another feature’s button, naming both', () => {
    const { features } = createFeatures(deps);
    const router = new CallbackRouter(deps.logger, callbackCodec);
    expect(() =>
      registerFeatures(router, ACTIONS, [...features, featureClaiming('extra', 'dnsAdd')]),
    ).toThrow(/"dnsAdd" of feature "extra" is already claimed by "dns"/);
    expect(() =>
      registerFeatures(new CallbackRouter(deps.logger, callbackCodec), ACTIONS, [
        featureClaiming('first', 'lang'),
        featureClaiming('second', 'dnsAdd', 'lang'),
      ]),
    ).toThrow(/"lang" of feature "second" is already claimed by "first"/);
  });

  it('fails at start when a feature claims a button the router keeps for itself', () => {
    const router = new CallbackRouter(deps.logger, callbackCodec);
    router.on('noop', async () => undefined);
    expect(() => registerFeatures(router, ACTIONS, [featureClaiming('extra', 'noop')])).toThrow(
      /"noop" is registered twice/,
    );
  });

  it('fails at start when an action of the registry has no handler, naming it', () => {
    const { features } = createFeatures(deps);
    const router = new CallbackRouter(deps.logger, callbackCodec);
    router.on('noop', async () => undefined);
    router.on('page', async () => undefined);
    const withoutTeam = features.filter((feature) => feature.name !== 'team');
    expect(() => registerFeatures(router, ACTIONS, withoutTeam)).toThrow(
      /callback actions without a handler: teamScreen, teamMember, teamRole$/,
    );
  });

  it('fails at start when two features bring scenes with one id', () => {
    const scene = (name: string): Feature => ({
      name,
      composer: new Composer<BotContext>(),
      callbacks: [],
      scenes: [new Scenes.BaseScene<BotContext>('token')],
    });
    expect(() =>
      registerFeatures(new CallbackRouter(deps.logger, callbackCodec), ACTIONS, [scene('a'), scene('b')]),
    ).toThrow(/scene "token" of feature "b" is already entered by "a"/);
  });
});
