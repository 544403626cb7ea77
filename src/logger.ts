import { type DestinationStream, type Logger, pino } from 'pino';
import { TelegramError } from 'telegraf';

/**
 * Paths pino blanks out wherever they appear: token headers, the Mini App's signed launch data,
 * the token itself, and the text of messages (a message may carry a token the user pasted). Logs
 * carry ids and outcomes only.
 */
export const REDACTED_PATHS = [
  'token',
  '*.token',
  'headers["x-api-token"]',
  'headers["x-auth-token"]',
  '*.headers["x-api-token"]',
  '*.headers["x-auth-token"]',
  // The Mini App's `Authorization: tma <initData>`: it lets its holder act as the user for an hour.
  'headers.authorization',
  '*.headers.authorization',
  'BOT_TOKEN',
  '*.BOT_TOKEN',
  'ENCRYPTION_KEYS',
  '*.ENCRYPTION_KEYS',
  'text',
  '*.text',
  'caption',
  '*.caption',
];

/**
 * Replaces every occurrence of the given secrets in a log line. The bot token is part of every
 * Bot API URL, and a library error may quote such a URL; this is the last line of defence.
 */
export function scrubSecrets(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out;
}

export interface LoggerOptions {
  level: string;
  /** Values that must never reach the output, whatever carries them. */
  secrets?: readonly string[];
  /** Where lines go; stdout by default. Tests capture lines here. */
  destination?: DestinationStream;
}

/** The process logger: redacted paths, then a scrub of known secrets from every line. */
export function createLogger(options: LoggerOptions): Logger {
  const sink = options.destination ?? pino.destination({ dest: 1, sync: true });
  const secrets = options.secrets ?? [];
  const scrubbing: DestinationStream = { write: (line: string) => sink.write(scrubSecrets(line, secrets)) };
  return pino(
    {
      level: options.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { service: 'partner-bot' },
    },
    scrubbing,
  );
}

/** An error that lists itself what is safe to log (the partner API client's errors do). */
function isSelfDescribing(error: Error): error is Error & { toJSON(): Record<string, unknown> } {
  return 'toJSON' in error && typeof error.toJSON === 'function';
}

/**
 * Safe fields of an error for a log line, for every part of the process (bot, watchers, main):
 * never the update, its text or a token. Telegram's errors give their code and description only,
 * as their payload may carry a message's text.
 */
export function errorForLog(error: unknown): Record<string, unknown> {
  if (error instanceof TelegramError)
    return { name: 'TelegramError', code: error.code, description: error.description };
  if (error instanceof Error) {
    if (isSelfDescribing(error)) return error.toJSON();
    return { name: error.name, message: error.message, stack: error.stack };
  }
  return { value: String(error) };
}

export type { Logger };
