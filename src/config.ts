import { isIP } from 'node:net';
import { z } from 'zod';
import { readNetworks } from './core/robot-keys.js';

/*
 * The one place that reads the environment. `loadConfig` is called once by main.ts with
 * `process.env`; everything else receives the parsed `Config`.
 */

const locale = z.enum(['ru', 'en']);

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const emptyAsUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalString = z.preprocess(emptyAsUndefined, z.string().trim().optional());

/** `192.0.2.53`, `127.0.0.1:8753`, `[::1]:53` or `::1`: what node's `dns.setServers` takes. */
function isResolverAddress(entry: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(entry);
  const [address, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : withPort
      ? [withPort[1] ?? '', withPort[2]]
      : [entry, undefined];
  const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
  return (
    portOk && (isIP(address) === 4 || (isIP(address) === 6 && (bracketed !== null || port === undefined)))
  );
}

/** Loopback host names, where a Mini App may be tried over plain http (the playground, `npm run dev`). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Telegram opens Mini Apps over https only; the path must be the app's own (`/app/`), not the
 * root: the app's routes take every path below it, and the root would swallow the webhook's.
 */
function isMiniAppUrl(value: string): boolean {
  const url = new URL(value);
  const secure = url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
  return secure && url.pathname.replace(/\/+$/, '') !== '' && url.search === '' && url.hash === '';
}

/**
 * The values `.env.example` ships with (and an earlier edition's). They pass every format check, so
 * without this a freshly copied `.env` would start a bot that dials Telegram with a fake token.
 */
const PLACEHOLDERS = {
  BOT_TOKEN: {
    values: ['123456789:replace-with-your-bot-token-from-botfather'],
    message: 'is the example placeholder; set the token from @BotFather',
  },
  PARTNER_API_URL: {
    values: ['https://partner-api.example.by'],
    message:
      "is the example placeholder; set the provider's partner API address (or try the bot with `npm run dev`, which starts the sandbox)",
  },
  WEBHOOK_SECRET: {
    values: ['replace-with-16-to-256-chars-of-A-Za-z0-9_-'],
    message: 'is the example placeholder; set 16-256 random characters of A-Z, a-z, 0-9, _ and -',
  },
} as const satisfies Record<string, { values: readonly string[]; message: string }>;

/** One line, as every config error: without the secret anyone who learns the URL could post updates. */
const WEBHOOK_SECRET_REQUIRED =
  'is required when WEBHOOK_URL is set: 16-256 random characters of A-Z, a-z, 0-9, _ and -, which Telegram sends with every update';

const isPlaceholder = (key: keyof typeof PLACEHOLDERS, value: string | undefined): boolean =>
  value !== undefined && (PLACEHOLDERS[key].values as readonly string[]).includes(value.replace(/\/+$/, ''));

const configSchema = z
  .object({
    BOT_TOKEN: z.preprocess(
      emptyAsUndefined,
      z
        .string({ error: 'is required (the token @BotFather gives)' })
        .regex(/^\d+:[\w-]{20,}$/, 'does not look like a bot token (digits:secret)'),
    ),
    TELEGRAM_API_ROOT: z.preprocess(emptyAsUndefined, httpUrl.default('https://api.telegram.org')),
    TELEGRAM_LOCAL_FILES_DIR: optionalString,
    RICH_MESSAGES: z.preprocess(
      emptyAsUndefined,
      z
        .enum(['on', 'off'], { error: 'must be on or off' })
        .default('on')
        .transform((value) => value === 'on'),
    ),
    PARTNER_API_URL: z.preprocess(
      emptyAsUndefined,
      z.url({
        protocol: /^https?$/,
        error: (issue) =>
          issue.input === undefined
            ? 'is required (the partner API base URL, or the one `npm run sandbox` prints)'
            : 'must be an http(s) URL',
      }),
    ),
    PARTNER_API_TIMEOUT_MS: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be milliseconds' }).int().min(100).max(120_000).default(15_000),
    ),
    PARTNER_API_VERSION: z.preprocess(emptyAsUndefined, z.string().default('1.0')),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
    ENCRYPTION_KEYS: optionalString,
    ENCRYPTION_KEYS_FILE: optionalString,
    STORAGE: z.preprocess(emptyAsUndefined, z.enum(['lowdb', 'redis']).default('lowdb')),
    REDIS_URL: z.preprocess(
      emptyAsUndefined,
      z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
    ),
    REDIS_PREFIX: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 characters of A-Z, a-z, 0-9, :, _, . and -')
        .default('partner-bot:'),
    ),
    WEBHOOK_URL: z.preprocess(
      emptyAsUndefined,
      z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional(),
    ),
    WEBHOOK_SECRET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{16,256}$/, 'must be 16-256 characters of A-Z, a-z, 0-9, _ and -')
        .optional(),
    ),
    PORT: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65_535).default(8080),
    ),
    /**
     * The address the HTTP server listens on: every interface by default (behind the platform's
     * proxy); the playground keeps it on 127.0.0.1.
     */
    HOST: z.preprocess(
      emptyAsUndefined,
      z
        .union([z.ipv4(), z.ipv6(), z.literal('localhost')], {
          error: 'must be an IP address to listen on (0.0.0.0, 127.0.0.1, ::) or localhost',
        })
        .default('0.0.0.0'),
    ),
    ALLOWED_USER_IDS: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'must be a comma-separated list of Telegram user ids')
        .transform((list) => new Set(list.split(',').map((id) => Number(id.trim()))))
        .optional(),
    ),
    DEFAULT_LOCALE: z.preprocess(emptyAsUndefined, locale.default('ru')),
    NOTIFY_INTERVAL_S: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be seconds (0 turns the watchers off)' })
        .int()
        .min(0)
        .max(86_400)
        .default(300),
    ),
    NOTIFY_CALLS_PER_S: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be calls per second' }).min(0.1).max(1_000).default(20),
    ),
    NOTIFY_JOB_LOCK_S: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be seconds' }).int().min(2).max(600).default(30),
    ),
    DNS_CHECK_PORT: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65_535).default(53),
    ),
    DNS_CHECK_RESOLVERS: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .transform((list) => list.split(/[\s,]+/).filter((entry) => entry !== ''))
        .refine((list) => list.length <= 8 && list.every(isResolverAddress), {
          error: 'must be up to 8 resolver addresses, comma-separated: 127.0.0.1:8753, [::1]:53, 192.0.2.53',
        })
        .optional(),
    ),
    METRICS_TOKEN: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[\w.~+/=-]{16,256}$/, 'must be 16-256 characters of A-Z, a-z, 0-9 and -._~+/=')
        .optional(),
    ),
    READINESS_POLL_WINDOW_S: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be seconds' }).int().min(1).max(3_600).default(60),
    ),
    MINI_APP_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
        .refine(isMiniAppUrl, {
          error:
            'must be https (http only on localhost/127.0.0.1/[::1]) with a path of its own, e.g. https://bot.example.by/app/',
        })
        .optional(),
    ),
    /**
     * The public address robots (routers, certificate clients) reach the bot's HTTP server at, as
     * an origin: ddclient asks `/nic/update` at its root. Shown in the configs `/keys` gives; empty:
     * MINI_APP_URL's origin, else a placeholder the partner is told the operator fills in.
     */
    GATEWAY_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
        .refine((value) => ['', '/'].includes(new URL(value).pathname) && new URL(value).search === '', {
          error:
            'must be an origin without a path, e.g. https://bot.example.by (robots ask /nic/update at its root)',
        })
        .optional(),
    ),
    /**
     * The app's short name as registered with @BotFather (`/newapp`): groups get a link to
     * `t.me/<bot>/<short name>?startapp=g<group id>`, since a web_app button works in private chats
     * only. Empty: no app button in groups.
     */
    MINI_APP_SHORT_NAME: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(
          /^[A-Za-z0-9_]{3,30}$/,
          'must be 3-30 characters of A-Z, a-z, 0-9 and _ (BotFather’s short name)',
        )
        .optional(),
    ),
    MINI_APP_INIT_DATA_MAX_AGE_S: z.preprocess(
      emptyAsUndefined,
      z.coerce.number({ error: 'must be seconds' }).int().min(60).max(86_400).default(3_600),
    ),
    /**
     * The robots' gateway (/nic/update…): proxies in front of the bot, as CIDR networks, whose
     * `X-Forwarded-For` names the robot's address (a key's source networks and `myip` absent are
     * read from it). Empty: the socket's peer is the robot.
     */
    GATEWAY_TRUSTED_PROXIES: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .transform((text, ctx) => {
          const reading = readNetworks(text);
          if (reading.ok) return reading.networks;
          ctx.addIssue({
            code: 'custom',
            message: 'must be up to 10 networks, comma-separated: 10.0.0.0/8, 192.0.2.1, fd00::/8',
          });
          return z.NEVER;
        })
        .default([]),
    ),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
  })
  .superRefine(
    (env, ctx) => {
      for (const key of Object.keys(PLACEHOLDERS) as (keyof typeof PLACEHOLDERS)[]) {
        if (isPlaceholder(key, env[key])) {
          ctx.addIssue({ code: 'custom', path: [key], message: PLACEHOLDERS[key].message });
        }
      }
      if (env.STORAGE === 'redis' && env.REDIS_URL === undefined) {
        ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'is required when STORAGE=redis' });
      }
      // Without it each instance generates a key of its own, and a token saved through one reads
      // as "no token" on the others.
      if (
        env.STORAGE === 'redis' &&
        env.ENCRYPTION_KEYS === undefined &&
        env.ENCRYPTION_KEYS_FILE === undefined
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['ENCRYPTION_KEYS'],
          message:
            'is required when STORAGE=redis (or ENCRYPTION_KEYS_FILE): every instance must hold the same keys to read what another saved',
        });
      }
      if (
        // Checked also when a key failed its own check: a value is then the raw text.
        URL.canParse(env.WEBHOOK_URL ?? '') &&
        URL.canParse(env.MINI_APP_URL ?? '') &&
        new URL(String(env.WEBHOOK_URL)).pathname.startsWith(miniAppPath(String(env.MINI_APP_URL)))
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['MINI_APP_URL'],
          message: "must not hold the webhook's path: the Mini App takes every path below its own",
        });
      }
      if (env.MINI_APP_SHORT_NAME !== undefined && env.MINI_APP_URL === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['MINI_APP_SHORT_NAME'],
          message: 'needs MINI_APP_URL: without it the bot serves no app to link to',
        });
      }
      if (env.WEBHOOK_URL !== undefined && env.WEBHOOK_SECRET === undefined) {
        ctx.addIssue({ code: 'custom', path: ['WEBHOOK_SECRET'], message: WEBHOOK_SECRET_REQUIRED });
      }
    },
    // Also when other keys are wrong: one start names every problem, not the first batch only.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  // Runs only once every key passed: the two webhook keys become one value, so nothing after
  // the config tests WEBHOOK_URL again, and webhook mode cannot be read without its secret.
  .transform(({ WEBHOOK_URL, WEBHOOK_SECRET, ...rest }, ctx) => {
    let updates: UpdateMode = { mode: 'polling' };
    if (WEBHOOK_URL !== undefined) {
      if (WEBHOOK_SECRET === undefined) {
        // Refused above already; said again only so that the type holds.
        ctx.addIssue({ code: 'custom', path: ['WEBHOOK_SECRET'], message: WEBHOOK_SECRET_REQUIRED });
        return z.NEVER;
      }
      updates = {
        mode: 'webhook',
        url: WEBHOOK_URL,
        path: new URL(WEBHOOK_URL).pathname,
        secret: WEBHOOK_SECRET,
      };
    }
    return { ...rest, updates };
  });

/**
 * How updates reach the bot, read once from WEBHOOK_URL and WEBHOOK_SECRET: our own long polling,
 * or Telegram posting to `url` (served at `path`) with `secret` in every post's header. Webhook
 * mode has no value without its secret: none is generated, the operator gives it.
 */
export type UpdateMode = { mode: 'polling' } | { mode: 'webhook'; url: string; path: string; secret: string };

/** The bot's configuration, parsed once from the environment. */
export type Config = z.output<typeof configSchema>;

/** Thrown by `loadConfig` with one line per wrong or missing key; never echoes a value. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(
      `Configuration is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example for every key.`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Parses the environment; throws `ConfigError` naming every wrong key. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  return parsed.data;
}

/** The path the Mini App is served under, with one trailing `/` (`/app/`), from MINI_APP_URL. */
export function miniAppPath(miniAppUrl: string): string {
  return `${new URL(miniAppUrl).pathname.replace(/\/+$/, '')}/`;
}
