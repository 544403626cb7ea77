import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const MINIMAL = { BOT_TOKEN: TOKEN, PARTNER_API_URL: 'https://partner-api.provider.test' };
const KEYS = 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

function configError(env: Record<string, string | undefined>): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return caught as ConfigError;
}

/** The keys a ConfigError names, one per problem line. */
const namedKeys = (error: ConfigError): string[] => error.problems.map((line) => line.split(' ')[0] ?? '');

describe('loadConfig', () => {
  it('fills every default from the two required keys', () => {
    expect(loadConfig(MINIMAL)).toEqual({
      BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: 'https://api.telegram.org',
      RICH_MESSAGES: true,
      PARTNER_API_URL: 'https://partner-api.provider.test',
      PARTNER_API_TIMEOUT_MS: 15_000,
      PARTNER_API_VERSION: '1.0',
      DATA_DIR: './data',
      STORAGE: 'lowdb',
      REDIS_PREFIX: 'partner-bot:',
      PORT: 8080,
      HOST: '0.0.0.0',
      DEFAULT_LOCALE: 'ru',
      LOG_LEVEL: 'info',
      NOTIFY_INTERVAL_S: 300,
      NOTIFY_CALLS_PER_S: 20,
      NOTIFY_JOB_LOCK_S: 30,
      DNS_CHECK_PORT: 53,
      READINESS_POLL_WINDOW_S: 60,
      MINI_APP_INIT_DATA_MAX_AGE_S: 3_600,
      GATEWAY_TRUSTED_PROXIES: [],
      updates: { mode: 'polling' },
    });
  });

  it('reads GATEWAY_TRUSTED_PROXIES as CIDR networks, and refuses anything else', () => {
    const base = MINIMAL;
    expect(
      loadConfig({ ...base, GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1 fd00::/8' })
        .GATEWAY_TRUSTED_PROXIES,
    ).toEqual(['10.0.0.0/8', '192.0.2.1/32', 'fd00::/8']);
    expect(() => loadConfig({ ...base, GATEWAY_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(
      /GATEWAY_TRUSTED_PROXIES/,
    );
  });

  it('treats empty and blank values as unset, as a copied .env.example leaves them', () => {
    const config = loadConfig({
      ...MINIMAL,
      ENCRYPTION_KEYS: '',
      REDIS_URL: ' ',
      WEBHOOK_URL: '',
      WEBHOOK_SECRET: '',
      ALLOWED_USER_IDS: '  ',
      PORT: '',
      DEFAULT_LOCALE: '',
      LOG_LEVEL: '',
    });
    expect(config.ENCRYPTION_KEYS).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.updates).toEqual({ mode: 'polling' });
    expect(config.ALLOWED_USER_IDS).toBeUndefined();
    expect(config.PORT).toBe(8080);
    expect(config.DEFAULT_LOCALE).toBe('ru');
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('reads RICH_MESSAGES as on or off, and says so for anything else', () => {
    expect(loadConfig({ ...MINIMAL, RICH_MESSAGES: 'off' }).RICH_MESSAGES).toBe(false);
    expect(loadConfig({ ...MINIMAL, RICH_MESSAGES: 'on' }).RICH_MESSAGES).toBe(true);
    expect(configError({ ...MINIMAL, RICH_MESSAGES: 'yes' }).problems).toEqual([
      expect.stringMatching(/^RICH_MESSAGES .*must be on or off/),
    ]);
  });

  it('listens on the HOST given — an address, or localhost — and says so for anything else', () => {
    expect(loadConfig({ ...MINIMAL, HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ ...MINIMAL, HOST: '::' }).HOST).toBe('::');
    expect(loadConfig({ ...MINIMAL, HOST: 'localhost' }).HOST).toBe('localhost');
    expect(configError({ ...MINIMAL, HOST: 'bot.example.by' }).problems).toEqual([
      expect.stringMatching(/^HOST .*must be an IP address to listen on/),
    ]);
  });

  /** `.env.example` as a newcomer's `cp .env.example .env` leaves it. */
  const envExample = (): Record<string, string> => {
    const env: Record<string, string> = {};
    for (const line of readFileSync(new URL('../../.env.example', import.meta.url), 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line);
      if (match?.[1] !== undefined) env[match[1]] = match[2] ?? '';
    }
    return env;
  };

  it('refuses .env.example as it is: one clear line for each placeholder, nothing else', () => {
    const error = configError(envExample());
    expect(error.problems).toEqual([
      'BOT_TOKEN is the example placeholder; set the token from @BotFather',
      "PARTNER_API_URL is the example placeholder; set the provider's partner API address (or try the bot with `npm run dev`, which starts the sandbox)",
    ]);
    expect(error.message).toContain('See .env.example for every key.');
  });

  it('accepts .env.example once BOT_TOKEN and PARTNER_API_URL are filled in (every other key is harmless)', () => {
    const config = loadConfig({ ...envExample(), ...MINIMAL });
    expect(config.updates).toEqual({ mode: 'polling' });
    expect(config.STORAGE).toBe('lowdb');
    expect(config.TELEGRAM_API_ROOT).toBe('https://api.telegram.org');
  });

  it('refuses the placeholders, a URL one with a trailing slash too, and the old example webhook secret', () => {
    const error = configError({
      BOT_TOKEN: '123456789:replace-with-your-bot-token-from-botfather',
      PARTNER_API_URL: 'https://partner-api.example.by/',
      WEBHOOK_URL: 'https://bot.provider.test/tg',
      WEBHOOK_SECRET: 'replace-with-16-to-256-chars-of-A-Za-z0-9_-',
    });
    expect(namedKeys(error)).toEqual(['BOT_TOKEN', 'PARTNER_API_URL', 'WEBHOOK_SECRET']);
    expect(error.problems.every((line) => line.includes('is the example placeholder'))).toBe(true);
  });

  it('names a placeholder beside other wrong keys in the same start', () => {
    const error = configError({ ...envExample(), PORT: 'eighty' });
    expect(namedKeys(error).sort()).toEqual(['BOT_TOKEN', 'PARTNER_API_URL', 'PORT']);
  });

  it('reads every set key into its type', () => {
    const config = loadConfig({
      ...MINIMAL,
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
      PARTNER_API_TIMEOUT_MS: '2500',
      ENCRYPTION_KEYS: ' k1:AAAA ',
      STORAGE: 'redis',
      REDIS_URL: 'rediss://cache.example:6380',
      WEBHOOK_URL: 'https://bot.example.by/hook',
      WEBHOOK_SECRET: 'a'.repeat(16),
      PORT: '0',
      ALLOWED_USER_IDS: ' 1, 22 ,333',
      DEFAULT_LOCALE: 'en',
      LOG_LEVEL: 'silent',
      DNS_CHECK_PORT: '8753',
      DNS_CHECK_RESOLVERS: '127.0.0.1:8753, [::1]:53 192.0.2.53,::1',
    });
    expect(config).toMatchObject({
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
      PARTNER_API_TIMEOUT_MS: 2500,
      ENCRYPTION_KEYS: 'k1:AAAA',
      STORAGE: 'redis',
      REDIS_URL: 'rediss://cache.example:6380',
      updates: {
        mode: 'webhook',
        url: 'https://bot.example.by/hook',
        path: '/hook',
        secret: 'a'.repeat(16),
      },
      PORT: 0,
      DEFAULT_LOCALE: 'en',
      LOG_LEVEL: 'silent',
      DNS_CHECK_PORT: 8753,
      DNS_CHECK_RESOLVERS: ['127.0.0.1:8753', '[::1]:53', '192.0.2.53', '::1'],
    });
    expect(config.ALLOWED_USER_IDS).toEqual(new Set([1, 22, 333]));
  });

  it('parses ALLOWED_USER_IDS to a Set of numbers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2 ** 52 }), { minLength: 1, maxLength: 10 }),
        fc.constantFrom(',', ', ', ' ,', ' , '),
        (ids, separator) => {
          const config = loadConfig({ ...MINIMAL, ALLOWED_USER_IDS: ids.join(separator) });
          expect(config.ALLOWED_USER_IDS).toEqual(new Set(ids));
        },
      ),
    );
  });

  describe('names every wrong key', () => {
    const cases: [string, Record<string, string | undefined>, string][] = [
      ['BOT_TOKEN missing', { BOT_TOKEN: undefined }, 'BOT_TOKEN'],
      ['BOT_TOKEN empty', { BOT_TOKEN: '' }, 'BOT_TOKEN'],
      ['BOT_TOKEN without the bot id', { BOT_TOKEN: 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' }, 'BOT_TOKEN'],
      ['BOT_TOKEN with a short secret', { BOT_TOKEN: '123:short' }, 'BOT_TOKEN'],
      ['BOT_TOKEN with a letter id', { BOT_TOKEN: 'abc:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' }, 'BOT_TOKEN'],
      ['PARTNER_API_URL missing', { PARTNER_API_URL: undefined }, 'PARTNER_API_URL'],
      ['PARTNER_API_URL not a URL', { PARTNER_API_URL: 'partner-api.example.by' }, 'PARTNER_API_URL'],
      ['PARTNER_API_URL not http', { PARTNER_API_URL: 'ftp://partner-api.example.by' }, 'PARTNER_API_URL'],
      ['TELEGRAM_API_ROOT not http', { TELEGRAM_API_ROOT: 'file:///tmp/api' }, 'TELEGRAM_API_ROOT'],
      ['PARTNER_API_TIMEOUT_MS too small', { PARTNER_API_TIMEOUT_MS: '10' }, 'PARTNER_API_TIMEOUT_MS'],
      ['PARTNER_API_TIMEOUT_MS not a number', { PARTNER_API_TIMEOUT_MS: 'soon' }, 'PARTNER_API_TIMEOUT_MS'],
      ['STORAGE unknown', { STORAGE: 'sqlite' }, 'STORAGE'],
      ['STORAGE=redis without REDIS_URL', { STORAGE: 'redis', ENCRYPTION_KEYS: KEYS }, 'REDIS_URL'],
      [
        'REDIS_URL not redis',
        { STORAGE: 'redis', REDIS_URL: 'http://cache:6379', ENCRYPTION_KEYS: KEYS },
        'REDIS_URL',
      ],
      [
        'STORAGE=redis without ENCRYPTION_KEYS',
        { STORAGE: 'redis', REDIS_URL: 'redis://cache:6379' },
        'ENCRYPTION_KEYS',
      ],
      [
        'STORAGE=redis with blank ENCRYPTION_KEYS',
        { STORAGE: 'redis', REDIS_URL: 'redis://cache:6379', ENCRYPTION_KEYS: ' ' },
        'ENCRYPTION_KEYS',
      ],
      [
        'WEBHOOK_URL without WEBHOOK_SECRET',
        { WEBHOOK_URL: 'https://bot.example.by/hook' },
        'WEBHOOK_SECRET',
      ],
      [
        'WEBHOOK_URL over http',
        { WEBHOOK_URL: 'http://bot.example.by/hook', WEBHOOK_SECRET: 'a'.repeat(16) },
        'WEBHOOK_URL',
      ],
      [
        'WEBHOOK_SECRET too short',
        { WEBHOOK_URL: 'https://b.example/h', WEBHOOK_SECRET: 'short' },
        'WEBHOOK_SECRET',
      ],
      ['PORT not a number', { PORT: 'http' }, 'PORT'],
      ['PORT out of range', { PORT: '65536' }, 'PORT'],
      ['PORT negative', { PORT: '-1' }, 'PORT'],
      ['PORT fractional', { PORT: '80.5' }, 'PORT'],
      ['ALLOWED_USER_IDS with names', { ALLOWED_USER_IDS: '12,@someone' }, 'ALLOWED_USER_IDS'],
      ['ALLOWED_USER_IDS with an empty entry', { ALLOWED_USER_IDS: '12,,13' }, 'ALLOWED_USER_IDS'],
      ['DEFAULT_LOCALE unknown', { DEFAULT_LOCALE: 'de' }, 'DEFAULT_LOCALE'],
      ['DEFAULT_LOCALE upper-case', { DEFAULT_LOCALE: 'RU' }, 'DEFAULT_LOCALE'],
      ['LOG_LEVEL unknown', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
      ['DNS_CHECK_RESOLVERS a host name', { DNS_CHECK_RESOLVERS: 'dns.example.by' }, 'DNS_CHECK_RESOLVERS'],
      ['DNS_CHECK_RESOLVERS a bad port', { DNS_CHECK_RESOLVERS: '127.0.0.1:99999' }, 'DNS_CHECK_RESOLVERS'],
      [
        'DNS_CHECK_RESOLVERS IPv6 port unbracketed',
        { DNS_CHECK_RESOLVERS: '::1:53:x' },
        'DNS_CHECK_RESOLVERS',
      ],
    ];

    it.each(cases)('%s', (_name, change, key) => {
      const error = configError({ ...MINIMAL, ...change });
      expect(namedKeys(error)).toEqual([key]);
      expect(error.message).toContain(`  - ${key} `);
      expect(error.message).toContain('.env.example');
    });

    it('names them all at once, the cross-key rules included', () => {
      const error = configError({
        PARTNER_API_URL: 'not a url',
        STORAGE: 'redis',
        WEBHOOK_URL: 'https://bot.example.by/hook',
        PORT: 'eighty',
        ALLOWED_USER_IDS: 'me',
        DEFAULT_LOCALE: 'fr',
        LOG_LEVEL: 'loud',
      });
      expect(namedKeys(error).sort()).toEqual(
        [
          'ALLOWED_USER_IDS',
          'BOT_TOKEN',
          'DEFAULT_LOCALE',
          'ENCRYPTION_KEYS',
          'LOG_LEVEL',
          'PARTNER_API_URL',
          'PORT',
          'REDIS_URL',
          'WEBHOOK_SECRET',
        ].sort(),
      );
    });
  });

  it('reads the update mode once: polling without WEBHOOK_URL, a webhook only with its secret', () => {
    expect(loadConfig({ ...MINIMAL, WEBHOOK_SECRET: 'a'.repeat(16) }).updates).toEqual({ mode: 'polling' });
    expect(
      loadConfig({
        ...MINIMAL,
        WEBHOOK_URL: 'https://bot.example.by/tg/hook',
        WEBHOOK_SECRET: 's'.repeat(20),
      }).updates,
    ).toEqual({
      mode: 'webhook',
      url: 'https://bot.example.by/tg/hook',
      path: '/tg/hook',
      secret: 's'.repeat(20),
    });
    for (const secret of [undefined, '', '  ']) {
      const error = configError({
        ...MINIMAL,
        WEBHOOK_URL: 'https://bot.example.by/tg/hook',
        WEBHOOK_SECRET: secret,
      });
      expect(error.problems).toEqual([
        'WEBHOOK_SECRET is required when WEBHOOK_URL is set: 16-256 random characters of A-Z, a-z, 0-9, _ and -, which Telegram sends with every update',
      ]);
    }
  });

  it('explains why STORAGE=redis needs ENCRYPTION_KEYS, in one line', () => {
    const error = configError({ ...MINIMAL, STORAGE: 'redis', REDIS_URL: 'redis://cache:6379' });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^ENCRYPTION_KEYS is required when STORAGE=redis/);
    expect(error.problems[0]).toContain('every instance');
    expect(() =>
      loadConfig({ ...MINIMAL, STORAGE: 'redis', REDIS_URL: 'redis://cache:6379', ENCRYPTION_KEYS: KEYS }),
    ).not.toThrow();
  });

  describe('never echoes a value', () => {
    const secretArb = fc
      .stringMatching(/^[A-Za-z0-9:_-]{12,60}$/)
      .filter((value) => /[a-z]/.test(value) && /[0-9]/.test(value) && !/^\d+:[\w-]{20,}$/.test(value));

    it('keeps a malformed BOT_TOKEN out of the message', () => {
      for (const value of [
        '123456:tooShortSecret',
        'bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5',
        '123456 AAHdqTcvCH1vGW',
      ]) {
        const error = configError({ ...MINIMAL, BOT_TOKEN: value });
        expect(namedKeys(error)).toEqual(['BOT_TOKEN']);
        expect(error.message).not.toContain(value);
        expect(error.message).not.toContain(value.split(/[: ]/)[1] ?? value);
      }
      fc.assert(
        fc.property(secretArb, (value) => {
          const error = configError({ ...MINIMAL, BOT_TOKEN: value });
          expect(namedKeys(error)).toEqual(['BOT_TOKEN']);
          expect(error.message).not.toContain(value);
          expect(error.problems.join('\n')).not.toContain(value);
        }),
      );
    });

    it('keeps ENCRYPTION_KEYS out of the message when another key is wrong', () => {
      fc.assert(
        fc.property(secretArb, (keys) => {
          const error = configError({ ...MINIMAL, ENCRYPTION_KEYS: keys, PORT: 'x', BOT_TOKEN: keys });
          expect(error.message).not.toContain(keys);
          expect(error.problems.join('\n')).not.toContain(keys);
        }),
      );
    });

    it('keeps credentials in a wrong URL out of the message', () => {
      const error = configError({
        ...MINIMAL,
        STORAGE: 'redis',
        ENCRYPTION_KEYS: KEYS,
        REDIS_URL: 'http://:redis-password-123@cache:6379',
        PARTNER_API_URL: 'ftp://user:partner-password-456@host',
      });
      expect(namedKeys(error).sort()).toEqual(['PARTNER_API_URL', 'REDIS_URL']);
      expect(error.message).not.toContain('redis-password-123');
      expect(error.message).not.toContain('partner-password-456');
    });
  });
});
