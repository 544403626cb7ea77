/**
 * Errors of the partner API client, one class per failure kind. None of them ever holds the
 * API token: the client never hands it to an error, and `toJSON` lists exactly what is safe.
 */

/** Which HTTP call an error belongs to. */
export interface CallInfo {
  /** The client method, e.g. `listInvoices`. */
  operation: string;
  method: string;
  /** Path without query string, e.g. `/v1/billing/invoices/7/url`. */
  path: string;
}

/** Base class of every error the partner API client throws. */
export abstract class ApiError extends Error {
  readonly operation: string;
  readonly method: string;
  readonly path: string;

  protected constructor(call: CallInfo, detail: string, options?: { cause?: unknown }) {
    super(`${call.operation} (${call.method} ${call.path}): ${detail}`, options);
    this.name = new.target.name;
    this.operation = call.operation;
    this.method = call.method;
    this.path = call.path;
  }

  /** What logs and error reports may show: never headers, bodies sent, or the token. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      method: this.method,
      path: this.path,
    };
  }
}

/**
 * Thrown when the provider answers with a status other than 200. `providerMessage` is the
 * `message` of a `{message}` body (Russian, names the field on 400), when there is one.
 */
export class ApiHttpError extends ApiError {
  readonly status: number;
  readonly providerMessage: string | undefined;

  constructor(call: CallInfo, status: number, providerMessage: string | undefined) {
    super(call, providerMessage ? `HTTP ${status}: ${providerMessage}` : `HTTP ${status}`);
    this.status = status;
    this.providerMessage = providerMessage;
  }

  /** The token was refused (401) or is not allowed to do this (403). */
  get isAuthError(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /**
   * The token itself is refused: 401, or 403 on a call about no particular object (a list). A 403
   * on a path naming an id (`/v1/billing/invoices/9101/url`) says that object is not this
   * partner's, which tells nothing about the token.
   */
  get isTokenRejected(): boolean {
    if (this.status === 401) return true;
    return this.status === 403 && !/\/\d+(\/|$)/.test(this.path);
  }

  /** The provider failed on its side; a GET may be tried again. */
  get isServerError(): boolean {
    return this.status >= 500;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, providerMessage: this.providerMessage };
  }
}

/** Thrown when the provider could not be reached or the connection broke before an answer. */
export class ApiNetworkError extends ApiError {
  /** The low-level error code, e.g. `ECONNREFUSED` or `UND_ERR_SOCKET`, when known. */
  readonly code: string | undefined;

  constructor(call: CallInfo, cause: unknown) {
    const code = errorCode(cause);
    super(call, `network error${code ? ` (${code})` : ''}`, { cause });
    this.code = code;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), code: this.code };
  }
}

/**
 * Thrown when the call's deadline passed before a full answer. After a POST the outcome is
 * unknown: the provider may have acted.
 */
export class ApiTimeoutError extends ApiError {
  readonly timeoutMs: number;

  constructor(call: CallInfo, timeoutMs: number) {
    super(call, `no answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}

/**
 * Thrown when the bot is stopping and interrupted the call (`PartnerTransport.interrupt`). After a
 * POST the outcome is unknown, as after a timeout: the provider may have acted.
 */
export class ApiInterruptedError extends ApiError {
  constructor(call: CallInfo) {
    super(call, 'interrupted: the bot is stopping');
  }
}

/** Thrown when a 200 answer is not JSON or does not match the operation's response schema. */
export class ApiResponseError extends ApiError {
  /** Dotted path of the first offending field, e.g. `invoices.0.amount`; empty for the whole body. */
  readonly field: string;

  constructor(call: CallInfo, field: string, problem: string) {
    super(call, `unexpected response${field ? ` at ${field}` : ''}: ${problem}`);
    this.field = field;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field };
  }
}

/**
 * Thrown before anything is sent when a request body, query or path parameter breaks the
 * operation's schema: a programming error, or input that skipped the bot's own checks.
 */
export class ApiRequestError extends ApiError {
  readonly field: string;

  constructor(call: CallInfo, field: string, problem: string) {
    super(call, `invalid request${field ? ` at ${field}` : ''}: ${problem}`);
    this.field = field;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field };
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
