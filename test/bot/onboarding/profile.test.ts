/**
 * What a user sees before pressing Start: the bot's description and short description per
 * language, set at start with the command menus, through a real Telegram client against the local
 * Bot API server (which checks Telegram's length limits). A refusal is a warning, not a failed start.
 */
import { Telegram } from 'telegraf';
import { afterEach, describe, expect, it } from 'vitest';
import { registerCommandMenus } from '../../../src/bot/index.js';
import { loadTranslations } from '../../../src/bot/kit/i18n.js';
import { createLogger } from '../../../src/logger.js';
import { type BotApiServer, startBotApiServer } from '../../../src/playground/bot-api/index.js';

let server: BotApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the bot introduces itself', () => {
  it('sets the description and the short description in ru (also as the default) and en', async () => {
    server = await startBotApiServer();
    const telegram = new Telegram(server.token, { apiRoot: server.apiRoot });
    await registerCommandMenus(telegram, loadTranslations(), createLogger({ level: 'silent' }));
    expect(server.myDescription({ languageCode: 'ru' })).toContain('Нажмите «Начать» и подключите токен API');
    expect(server.myDescription()).toBe(server.myDescription({ languageCode: 'ru' }));
    expect(server.myDescription({ languageCode: 'en' })).toContain('Press Start and connect the API token');
    expect(server.myDescription({ languageCode: 'ru', short: true })).toBe(
      'Счета, DNS и заказы партнёра провайдера — прямо в Telegram.',
    );
    expect(server.myDescription({ languageCode: 'en', short: true })).toContain('right in Telegram');
    expect(server.myCommands({ languageCode: 'en' }).length).toBeGreaterThan(5);
  });

  it('logs a refused description and goes on', async () => {
    server = await startBotApiServer();
    server.failNext('setMyDescription', {
      error_code: 400,
      description: 'Bad Request: DESCRIPTION_TOO_LONG',
    });
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: { write: (l: string) => lines.push(l) } });
    const telegram = new Telegram(server.token, { apiRoot: server.apiRoot });
    await registerCommandMenus(telegram, loadTranslations(), logger);
    expect(lines.some((l) => l.includes('could not set the bot description'))).toBe(true);
    expect(server.myDescription({ languageCode: 'en' })).toContain('Press Start');
  });
});
