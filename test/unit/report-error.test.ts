import { describe, expect, it, vi } from 'vitest';
import type { BotContext } from '../../src/bot/context.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { reportError } from '../../src/bot/middlewares/errors.js';
import { createLogger } from '../../src/logger.js';

const translations = loadTranslations();
const logger = createLogger({ level: 'silent', destination: { write: () => undefined } });

/** An update's context as the error boundary sees it before the chat context ran: no `ctx.t`. */
function earlyContext() {
  const reply = vi.fn(async (_text: string, _extra?: unknown) => ({}));
  const ctx = { update: { update_id: 1 }, chat: { id: 5, type: 'private' }, reply };
  return { ctx: ctx as unknown as BotContext, reply };
}

describe('reportError', () => {
  it('speaks the default language when the error came before the update had ctx.t, never a raw key', async () => {
    const { ctx, reply } = earlyContext();
    await reportError(ctx, new Error('storage failed'), logger, () => translations.forLocale('ru'));
    expect(reply).toHaveBeenCalledTimes(1);
    const text = String(reply.mock.calls[0]?.[0]);
    expect(text).toBe(translations.t('ru', 'errors:internal'));
    expect(text).not.toContain('errors:');
  });

  it('uses the update’s own language once it has one', async () => {
    const { ctx, reply } = earlyContext();
    ctx.t = translations.forLocale('en');
    await reportError(ctx, new Error('boom'), logger, () => translations.forLocale('ru'));
    expect(String(reply.mock.calls[0]?.[0])).toBe(translations.t('en', 'errors:internal'));
  });
});
