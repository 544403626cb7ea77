import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger, scrubSecrets } from '../../src/logger.js';

const T = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

/** A logger writing into an array, and the lines it wrote. */
function capture(secrets?: readonly string[]): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'trace',
    ...(secrets ? { secrets } : {}),
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, lines };
}

/** Every string a line holds once read back, so an escaped secret is caught as well. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsIn(inner)]);
  }
  return [];
}

function expectAbsent(lines: readonly string[], secret: string): void {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line).not.toContain(secret);
    for (const text of stringsIn(JSON.parse(line))) expect(text).not.toContain(secret);
  }
}

const parsed = (lines: readonly string[], index = 0): Record<string, unknown> =>
  JSON.parse(lines[index] ?? 'null') as Record<string, unknown>;

describe('createLogger redaction (no secrets configured)', () => {
  it('blanks token headers, at the top and one level down', () => {
    const { logger, lines } = capture();
    logger.info({ headers: { 'x-api-token': T, accept: 'application/json' } }, 'request');
    logger.info({ headers: { 'x-auth-token': T } }, 'request');
    logger.info({ req: { method: 'GET', headers: { 'x-api-token': T, 'x-auth-token': T } } }, 'request');
    expectAbsent(lines, T);
    expect(parsed(lines, 0)).toMatchObject({
      headers: { 'x-api-token': '[redacted]', accept: 'application/json' },
      msg: 'request',
    });
    expect(parsed(lines, 2)).toMatchObject({
      req: { method: 'GET', headers: { 'x-api-token': '[redacted]', 'x-auth-token': '[redacted]' } },
    });
  });

  it("blanks the Mini App's signed launch data (Authorization), at the top and one level down", () => {
    const { logger, lines } = capture();
    logger.info({ headers: { authorization: `tma ${T}`, accept: 'application/json' } }, 'request');
    logger.info({ req: { url: '/app/api/session', headers: { authorization: `tma ${T}` } } }, 'request');
    expectAbsent(lines, T);
    expect(parsed(lines, 1)).toMatchObject({ req: { headers: { authorization: '[redacted]' } } });
  });

  it('blanks token, text and caption fields, at the top and one level down', () => {
    const { logger, lines } = capture();
    logger.info({ token: T }, 'stored');
    logger.info({ text: T, chatId: 7 }, 'message');
    logger.info({ message: { text: T, caption: T, message_id: 3 } }, 'message');
    logger.info({ config: { BOT_TOKEN: T, ENCRYPTION_KEYS: T } }, 'config');
    logger.info({ BOT_TOKEN: T, ENCRYPTION_KEYS: T, caption: T }, 'config');
    expectAbsent(lines, T);
    expect(parsed(lines, 0)).toMatchObject({ token: '[redacted]' });
    expect(parsed(lines, 1)).toMatchObject({ text: '[redacted]', chatId: 7 });
    expect(parsed(lines, 2)).toMatchObject({
      message: { text: '[redacted]', caption: '[redacted]', message_id: 3 },
    });
  });

  it('passes ordinary fields through, with the service name and the message', () => {
    const { logger, lines } = capture();
    logger.warn({ chatId: 42, outcome: 'ok', path: '/billing/invoices', status: 200 }, 'partner api call');
    expect(lines).toHaveLength(1);
    expect(parsed(lines)).toMatchObject({
      level: 40,
      service: 'partner-bot',
      chatId: 42,
      outcome: 'ok',
      path: '/billing/invoices',
      status: 200,
      msg: 'partner api call',
    });
  });

  it('leaves secrets it was not told about in message strings (redaction is by field)', () => {
    // The guard for the scrubbing tests below: without `secrets`, the text does get through.
    const { logger, lines } = capture();
    logger.info(`calling https://api.telegram.org/bot${T}/getMe`);
    expect(lines[0]).toContain(T);
  });
});

describe('createLogger scrubbing of configured secrets', () => {
  it('scrubs a secret from the message string', () => {
    const { logger, lines } = capture([T]);
    logger.info(`calling https://api.telegram.org/bot${T}/getMe`);
    expectAbsent(lines, T);
    expect(parsed(lines).msg).toBe('calling https://api.telegram.org/bot[redacted]/getMe');
  });

  it('scrubs a secret from an error message and stack', () => {
    const { logger, lines } = capture([T]);
    const error = new Error(`request to https://api.telegram.org/bot${T}/sendMessage failed`);
    logger.error({ err: error, updateId: 9 }, 'unhandled bot error');
    logger.error(error);
    logger.error({ err: { message: `wrapped ${T}`, cause: { url: `/bot${T}/x` } } }, 'wrapped');
    expectAbsent(lines, T);
    expect(parsed(lines)).toMatchObject({ updateId: 9, msg: 'unhandled bot error' });
    expect(JSON.stringify(parsed(lines).err)).toContain('/bot[redacted]/sendMessage');
  });

  it('scrubs a secret from any field, however deep, and every occurrence', () => {
    const { logger, lines } = capture(['k1-secret-material', T]);
    logger.info({ a: { b: { c: { d: `${T} and ${T}` } } }, list: [T], other: 'k1-secret-material' }, 'x');
    expectAbsent(lines, T);
    expectAbsent(lines, 'k1-secret-material');
    expect(parsed(lines)).toMatchObject({ a: { b: { c: { d: '[redacted] and [redacted]' } } } });
  });

  it('never writes a configured token-like secret, whatever carries it', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9+/=:_-]{8,60}$/),
        fc.constantFrom('msg', 'err', 'field', 'nested', 'headers'),
        (secret, carrier) => {
          const { logger, lines } = capture([secret]);
          if (carrier === 'msg') logger.info(`value ${secret} end`);
          else if (carrier === 'err') logger.error({ err: new Error(`failed: ${secret}`) }, 'x');
          else if (carrier === 'field') logger.info({ note: secret }, 'x');
          else if (carrier === 'nested') logger.info({ deep: { deeper: { value: secret } } }, 'x');
          else logger.info({ req: { headers: { 'x-api-token': secret } } }, 'x');
          expectAbsent(lines, secret);
        },
      ),
    );
  });
});

describe('scrubSecrets', () => {
  it('replaces every occurrence of each secret', () => {
    expect(scrubSecrets('a SECRET-1 b SECRET-1 c secret-22', ['SECRET-1', 'secret-22'])).toBe(
      'a [redacted] b [redacted] c [redacted]',
    );
  });

  it('ignores secrets shorter than 8 characters, so short key ids do not mangle lines', () => {
    expect(scrubSecrets('key k1 used for level info', ['k1', 'info', 'seven77'])).toBe(
      'key k1 used for level info',
    );
    expect(scrubSecrets('eight888 and seven77', ['eight888', 'seven77'])).toBe('[redacted] and seven77');
    expect(scrubSecrets('', ['anything-long'])).toBe('');
    expect(scrubSecrets('nothing to do', [])).toBe('nothing to do');
  });

  it('leaves no occurrence of a secret of 8 characters or more', () => {
    fc.assert(
      fc.property(
        // Without brackets, no occurrence can straddle an inserted '[redacted]'.
        fc
          .string({ minLength: 8, maxLength: 20 })
          .filter((secret) => !/[[\]]/.test(secret) && secret !== 'redacted'),
        fc.array(fc.string({ maxLength: 10 }), { minLength: 2, maxLength: 5 }),
        (secret, around) => {
          const scrubbed = scrubSecrets(around.join(secret), [secret]);
          expect(scrubbed).not.toContain(secret);
          expect(scrubbed.split('[redacted]').length).toBeGreaterThanOrEqual(around.length);
        },
      ),
    );
  });
});
