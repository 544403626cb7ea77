import { describe, expect, it } from 'vitest';
import { registerMenuButton } from '../../src/bot/index.js';
import { createLogger } from '../../src/logger.js';

/*
 * The bot's menu button opens the Mini App's home when MINI_APP_URL is set; a Telegram refusal is
 * a warning in the log, never a failed start.
 */

function recorder(fail = false) {
  const calls: { method: string; payload: unknown }[] = [];
  const telegram = {
    callApi: (async (method: string, payload: unknown) => {
      calls.push({ method, payload });
      if (fail) throw new Error('400: Bad Request: method not supported');
      return true;
    }) as never,
  };
  return { calls, telegram };
}

function logLines() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'warn',
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { lines, logger };
}

describe('the menu button', () => {
  it('opens the Mini App by its address, named in the default language', async () => {
    const { calls, telegram } = recorder();
    const { lines, logger } = logLines();
    await registerMenuButton(telegram, 'https://bot.example.by/app/', 'Панель', logger);
    expect(calls).toEqual([
      {
        method: 'setChatMenuButton',
        payload: {
          menu_button: { type: 'web_app', text: 'Панель', web_app: { url: 'https://bot.example.by/app/' } },
        },
      },
    ]);
    expect(lines).toEqual([]);
  });

  it('is left alone without MINI_APP_URL', async () => {
    const { calls, telegram } = recorder();
    await registerMenuButton(telegram, undefined, 'Панель', logLines().logger);
    expect(calls).toEqual([]);
  });

  it('logs a refusal and goes on', async () => {
    const { telegram } = recorder(true);
    const { lines, logger } = logLines();
    await expect(registerMenuButton(telegram, 'https://bot.example.by/app/', 'Панель', logger)).resolves.toBe(
      undefined,
    );
    expect(lines.join('\n')).toContain('could not set the menu button');
  });
});
