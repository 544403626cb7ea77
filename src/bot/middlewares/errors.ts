import { TelegramError } from 'telegraf';
import {
  ApiError,
  ApiHttpError,
  ApiInterruptedError,
  ApiNetworkError,
  ApiRequestError,
  ApiResponseError,
  ApiTimeoutError,
} from '../../api/index.js';
import { escapeHtml } from '../../core/format.js';
import { errorForLog, type Logger } from '../../logger.js';
import { StorageUnavailableError } from '../../storage/redis-connection.js';
import type { BotContext } from '../context.js';
import { NoTokenError, UserInputError } from '../errors.js';
import type { Translate } from '../kit/i18n.js';

/** The message a user gets for an error, as HTML; `undefined` when nothing should be said. */
export function describeError(error: unknown, t: Translate): string | undefined {
  if (error instanceof UserInputError) {
    const { usageKey } = error.params;
    return t(error.key, { ...error.params, usage: typeof usageKey === 'string' ? t(usageKey) : '' });
  }
  if (error instanceof NoTokenError) return t('errors:noToken');
  if (error instanceof StorageUnavailableError) return t('errors:storageUnavailable');
  if (error instanceof ApiHttpError) {
    if (error.isTokenRejected) return t('errors:tokenRejected');
    if (error.status === 403) return t('errors:notYours');
    if (error.status === 404) return t('errors:notFound');
    if (error.status >= 500) return t('errors:providerUnavailable');
    if (error.providerMessage)
      return t('errors:providerRejected', { message: escapeHtml(error.providerMessage) });
    return t('errors:providerRejectedNoMessage', { status: error.status });
  }
  if (error instanceof ApiInterruptedError) return t('errors:botRestarting');
  if (error instanceof ApiTimeoutError || error instanceof ApiNetworkError)
    return t('errors:providerUnavailable');
  if (error instanceof ApiResponseError) return t('errors:providerUnexpected');
  if (error instanceof TelegramError && /message is not modified/.test(error.description)) return undefined;
  return t('errors:internal');
}

/** The translation for an update that has no `ctx.t` yet (its error came before the chat context). */
export type FallbackTranslate = (ctx: BotContext) => Translate;

/** Errors worth an `error` log line: ours or the provider's breaking its contract. */
function isUnexpected(error: unknown): boolean {
  if (error instanceof UserInputError || error instanceof NoTokenError) return false;
  // An outage of our own storage is logged once by the connection, not once per update.
  if (error instanceof StorageUnavailableError) return false;
  if (error instanceof ApiRequestError || error instanceof ApiResponseError) return true;
  if (error instanceof ApiError) return false;
  return true;
}

/**
 * Sends the user the message for an error; a failure to send is logged, never thrown.
 * `fallback` (the sender's Telegram language, else the default) speaks when the error came before
 * the update had `ctx.t`: a raw i18n key is never what the user reads.
 */
export async function reportError(
  ctx: BotContext,
  error: unknown,
  logger: Logger,
  fallback: FallbackTranslate,
): Promise<void> {
  const fields = { updateId: ctx.update.update_id, chatId: ctx.chat?.id, err: errorForLog(error) };
  if (isUnexpected(error)) logger.error(fields, 'update failed');
  else logger.info(fields, 'update ended with a user-facing error');
  // `ctx.t` is typed as always there, but middlewares before the chat context run without it.
  const t: Translate = (ctx.t as Translate | undefined) ?? fallback(ctx);
  const text = describeError(error, t);
  if (text === undefined || ctx.chat === undefined) return;
  // In a group bound by /team the error is the member's alone (ephemeral where the server allows);
  // `toMember` is there once its middleware ran (an error before it is said as before).
  const members = ctx.toMember as BotContext['toMember'] | undefined;
  try {
    if (members !== undefined && ctx.teamMember !== undefined)
      await members.reply(text, { parse_mode: 'HTML' });
    else await ctx.reply(text, { parse_mode: 'HTML' });
  } catch (sendError) {
    logger.warn(
      { chatId: ctx.chat.id, err: errorForLog(sendError) },
      'could not tell the user about an error',
    );
  }
}

/** The error boundary: every error of a later middleware reaches the user as a message. */
export function createErrorBoundary(logger: Logger, fallback: FallbackTranslate) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    try {
      await next();
    } catch (error) {
      await reportError(ctx, error, logger, fallback);
    }
  };
}
