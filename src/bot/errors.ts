/**
 * The errors handlers throw for the error boundary to tell the user (middlewares/errors.ts). A
 * leaf module: it imports nothing, so anything may import it without making a circle.
 */

/** Thrown by `ctx.partnerApi()` when the chat has no token; the user is pointed to /token. */
export class NoTokenError extends Error {
  constructor() {
    super('no partner API token stored for this chat');
    this.name = 'NoTokenError';
  }
}

/**
 * Thrown by handlers for input the user can fix; `key` is an i18n key shown to the user with
 * `params`, so no handler formats error text itself.
 */
export class UserInputError extends Error {
  readonly key: string;
  readonly params: Record<string, unknown>;

  constructor(key: string, params: Record<string, unknown> = {}) {
    super(key);
    this.name = 'UserInputError';
    this.key = key;
    this.params = params;
  }
}
