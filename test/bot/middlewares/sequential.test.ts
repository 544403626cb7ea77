import { describe, expect, it } from 'vitest';
import { registerCommandMenus } from '../../../src/bot/index.js';
import { loadTranslations } from '../../../src/bot/kit/i18n.js';
import { createLogger } from '../../../src/logger.js';
import { texts } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ connect: ['partner', { userId: 2, chatId: 2 }] });

describe('per-chat sequential processing', () => {
  it('runs two updates of one chat one after another, in arrival order', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'delay', ms: 300 } });
    const before = h.calls.length;
    await Promise.all([h.send('/invoices'), h.send('/help')]);
    const replies = texts(h.calls.slice(before));
    expect(replies[0]).toContain('Счета');
    expect(replies[1]).toContain('Что умеет бот');
  });

  it('lets another chat go ahead while one waits for the provider', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'delay', ms: 300 } });
    const before = h.calls.length;
    await Promise.all([h.send('/invoices'), h.send('/help', { userId: 2, chatId: 2 })]);
    const replies = h.calls
      .slice(before)
      .filter((c) => c.method === 'sendMessage' || c.method === 'sendRichMessage');
    expect(replies[0]?.payload.chat_id).toBe(2);
    expect(texts(replies.slice(1))[0]).toContain('Счета');
  });
});

describe('command menus', () => {
  it('registers localized descriptions per language, and a failure is logged, not thrown', async () => {
    const registered: { language?: string; commands: { command: string; description: string }[] }[] = [];
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (l: string) => lines.push(l) } });
    let fail = true;
    const telegram = {
      async setMyCommands(
        commands: { command: string; description: string }[],
        extra?: { language_code?: string },
      ) {
        if (fail) {
          fail = false;
          throw new Error('429: Too Many Requests');
        }
        registered.push({ ...(extra?.language_code ? { language: extra.language_code } : {}), commands });
        return true;
      },
    };
    await registerCommandMenus(telegram as never, loadTranslations(), logger);
    expect(lines.some((l) => l.includes('could not register the command menu'))).toBe(true);
    const en = registered.find((r) => r.language === 'en');
    expect(en?.commands.find((c) => c.command === 'invoice')?.description).toBe(
      'invoice link: /invoice <number or id>',
    );
  });
});

describe('duplicate updates', () => {
  it('an update delivered twice (same update id) takes effect once', async () => {
    const update = {
      update_id: 999_001,
      message: {
        message_id: 5,
        date: 0,
        chat: { id: 2, type: 'private' as const, first_name: 'B' },
        from: { id: 2, is_bot: false, first_name: 'B', language_code: 'ru' },
        text: '/help',
        entities: [{ type: 'bot_command' as const, offset: 0, length: 5 }],
      },
    };
    const first = await h.feed(update);
    const second = await h.feed(update);
    expect(texts(first)).toHaveLength(1);
    expect(second).toHaveLength(0);
  });
});
