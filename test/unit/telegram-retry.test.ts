import { type Telegram, TelegramError } from 'telegraf';
import { describe, expect, it } from 'vitest';
import { installTelegramRetry } from '../../src/bot/kit/telegram-retry.js';
import { createLogger } from '../../src/logger.js';

function fakeTelegram(failures: TelegramError[]) {
  const calls: string[] = [];
  async function callApi(method: string): Promise<unknown> {
    calls.push(method);
    const failure = failures.shift();
    if (failure) throw failure;
    return { ok: method };
  }
  // A stand-in for telegraf's generic `callApi`: the fake answers every method alike.
  const proto = { callApi: callApi as unknown as Telegram['callApi'] };
  return { proto, calls };
}

const tooMany = (retryAfter: number) =>
  new TelegramError({
    error_code: 429,
    description: 'Too Many Requests',
    parameters: { retry_after: retryAfter },
  });

describe('Telegram 429', () => {
  it('waits retry_after and sends again, so nothing is lost', async () => {
    const lines: string[] = [];
    const { proto, calls } = fakeTelegram([tooMany(0), tooMany(0)]);
    installTelegramRetry(
      proto,
      createLogger({ level: 'warn', destination: { write: (l: string) => lines.push(l) } }),
    );
    await expect(proto.callApi('getMe', {})).resolves.toEqual({ ok: 'getMe' });
    expect(calls).toEqual(['getMe', 'getMe', 'getMe']);
    expect(lines.filter((l) => l.includes('telegram rate limit'))).toHaveLength(2);
  });

  it('waits the time Telegram asks for', async () => {
    const { proto } = fakeTelegram([tooMany(1)]);
    installTelegramRetry(proto, createLogger({ level: 'silent' }));
    const started = Date.now();
    await proto.callApi('getMe', {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not retry other errors', async () => {
    const { proto, calls } = fakeTelegram([
      new TelegramError({ error_code: 400, description: 'Bad Request' }),
    ]);
    installTelegramRetry(proto, createLogger({ level: 'silent' }));
    await expect(proto.callApi('getMe', {})).rejects.toThrow('400');
    expect(calls).toHaveLength(1);
  });
});
