/**
 * Telegram's refusals as the local Bot API server gives them: the error body, the failure a method
 * throws to answer with it, and "Bad Request" in Telegram's words.
 */

/** A Telegram error body, as used by `failNext` and sent in error responses. */
export interface TelegramErrorBody {
  error_code: number;
  description: string;
  parameters?: Record<string, unknown>;
}

/** Thrown by method handlers (including custom ones) to answer with a Telegram error. */
export class BotApiFailure extends Error {
  constructor(readonly body: TelegramErrorBody) {
    super(`${body.error_code}: ${body.description}`);
    this.name = 'BotApiFailure';
  }
}

export const badRequest = (description: string): BotApiFailure =>
  new BotApiFailure({ error_code: 400, description: `Bad Request: ${description}` });

export const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
