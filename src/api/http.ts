import { setTimeout as sleep } from 'node:timers/promises';
import { type Dispatcher, Pool } from 'undici';
import type { z } from 'zod';
import {
  ApiError,
  ApiHttpError,
  ApiInterruptedError,
  ApiNetworkError,
  ApiRequestError,
  ApiResponseError,
  ApiTimeoutError,
  type CallInfo,
} from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Scalar values a query string carries; `undefined` leaves the parameter out. */
export type QueryValues = Record<string, string | number | undefined>;

/** One call of one operation, as the typed methods describe it to the transport. */
export interface CallSpec<S extends z.ZodType | undefined> {
  operation: string;
  method: HttpMethod;
  /** Path below the base URL, path parameters already filled in. */
  path: string;
  query?: QueryValues | undefined;
  body?: unknown;
  /** Schema of the 200 body; absent for operations that answer without one. */
  response: S;
}

export type CallResult<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the transport reports after every attempt, for logs and metrics; never the token. */
export interface CallEvent {
  operation: string;
  method: HttpMethod;
  path: string;
  attempt: number;
  durationMs: number;
  status?: number;
  error?: string;
}

export interface TransportOptions {
  /** Base URL of the partner API; a path prefix (`https://host/api`) is kept. */
  baseUrl: string;
  /** Deadline of one call, retries included. */
  timeoutMs?: number;
  /** Extra attempts of a GET after a network error or a 5xx. POST, PUT and DELETE never retry. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. */
  retryDelayMs?: number;
  /** Value of the `version` query parameter sent on every call. */
  apiVersion?: string;
  /** Keep-alive connections to the provider. */
  connections?: number;
  /** Replaces the transport's own keep-alive pool (tests, proxies). */
  dispatcher?: Dispatcher;
  onCall?: (event: CallEvent) => void;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_API_VERSION = '1.0';

/**
 * HTTP for the partner API: one keep-alive pool shared by every chat's client, the token sent
 * in both headers the spec names, a deadline per call and GET-only retries.
 */
export class PartnerTransport {
  readonly timeoutMs: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly maxRetries: number;
  private readonly retryDelayMs: number;
  private readonly apiVersion: string;
  private readonly onCall: ((event: CallEvent) => void) | undefined;
  private readonly interruption = new AbortController();

  constructor(options: TransportOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`partner API base URL must be http(s), got ${base.protocol}`);
    }
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.origin = base.origin;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
    this.onCall = options.onCall;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Pool(base.origin, {
        connections: options.connections ?? 16,
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
      });
  }

  /**
   * Performs one operation with the given token and returns its parsed 200 body. Throws an
   * `ApiError` subclass on every failure; an `signal` from the caller aborts it as well.
   */
  async call<S extends z.ZodType | undefined>(
    token: string,
    spec: CallSpec<S>,
    signal?: AbortSignal,
  ): Promise<CallResult<S>> {
    const info: CallInfo = { operation: spec.operation, method: spec.method, path: spec.path };
    if (this.interruption.signal.aborted) throw new ApiInterruptedError(info);
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const combined = AbortSignal.any([deadline, this.interruption.signal, ...(signal ? [signal] : [])]);
    const retries = spec.method === 'GET' ? this.maxRetries : 0;
    const request: Dispatcher.RequestOptions = {
      origin: this.origin,
      path: this.buildPath(spec.path, spec.query),
      method: spec.method,
      headers: {
        accept: 'application/json',
        'x-api-token': token,
        'x-auth-token': token,
        ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: spec.body === undefined ? null : JSON.stringify(spec.body),
      signal: combined,
    };

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let failure: ApiError;
      try {
        const response = await this.dispatcher.request(request);
        const text = await response.body.text();
        this.report(spec, attempt, started, { status: response.statusCode });
        if (response.statusCode >= 200 && response.statusCode < 300) {
          return parseBody(info, spec.response, text) as CallResult<S>;
        }
        failure = new ApiHttpError(info, response.statusCode, extractProviderMessage(text));
        if (!(failure as ApiHttpError).isServerError) throw failure;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (deadline.aborted) {
          this.report(spec, attempt, started, { error: 'timeout' });
          throw new ApiTimeoutError(info, this.timeoutMs);
        }
        if (this.interruption.signal.aborted) throw new ApiInterruptedError(info);
        if (signal?.aborted) throw signal.reason;
        failure = new ApiNetworkError(info, error);
        this.report(spec, attempt, started, { error: failure.message });
      }
      if (attempt > retries) throw failure;
      await this.backoff(attempt, combined, deadline, info);
    }
  }

  /**
   * Ends every call in flight, and every later one at once, with `ApiInterruptedError`: a stopping
   * bot uses it when running updates outlast the stop's grace period, so each of them can still
   * tell its partner instead of being cut off by the exit.
   */
  interrupt(): void {
    this.interruption.abort();
  }

  /** Closes the keep-alive pool (when the transport made it). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private buildPath(path: string, query: QueryValues | undefined): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) params.append(key, String(value));
    }
    params.append('version', this.apiVersion);
    return `${this.basePath}${path}?${params.toString()}`;
  }

  private async backoff(attempt: number, signal: AbortSignal, deadline: AbortSignal, info: CallInfo) {
    const base = this.retryDelayMs * 2 ** (attempt - 1);
    const delay = base / 2 + Math.random() * base;
    try {
      await sleep(delay, undefined, { signal });
    } catch (error) {
      if (deadline.aborted) throw new ApiTimeoutError(info, this.timeoutMs);
      if (this.interruption.signal.aborted) throw new ApiInterruptedError(info);
      throw error;
    }
  }

  private report(
    spec: CallSpec<z.ZodType | undefined>,
    attempt: number,
    started: number,
    outcome: { status?: number; error?: string },
  ) {
    this.onCall?.({
      operation: spec.operation,
      method: spec.method,
      path: spec.path,
      attempt,
      durationMs: performance.now() - started,
      ...outcome,
    });
  }
}

function parseBody(info: CallInfo, schema: z.ZodType | undefined, text: string): unknown {
  // Operations without response fields answer 200 with an empty body; whatever comes is ignored.
  if (schema === undefined) return undefined;
  if (text.trim() === '') throw new ApiResponseError(info, '', 'empty body');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiResponseError(info, '', 'body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const { field, problem } = describeIssue(parsed.error);
  throw new ApiResponseError(info, field, problem);
}

function extractProviderMessage(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && 'message' in body) {
      const { message } = body;
      if (typeof message === 'string' && message.trim() !== '') return message.trim();
    }
  } catch {
    // Error bodies other than 400 are not specified; a non-JSON body simply has no message.
  }
  return undefined;
}

/** A transport call with the token already bound: what the area modules receive. */
export type Caller = <S extends z.ZodType | undefined>(spec: CallSpec<S>) => Promise<CallResult<S>>;

/**
 * A GET of one operation, its query checked against the operation's strict query schema first.
 */
export async function callGet<S extends z.ZodType>(
  call: Caller,
  operation: string,
  path: string,
  response: S,
  query?: { schema: z.ZodType; value: unknown },
): Promise<z.output<S>> {
  const info = { operation, method: 'GET', path } as const;
  const checked = query ? (checkRequest(info, query.schema, query.value) as QueryValues) : undefined;
  return call({ ...info, query: checked, response }) as Promise<z.output<S>>;
}

/**
 * Validates a request part against its strict schema before anything is sent, so a wrong body
 * fails here with the field named instead of as a provider 400.
 */
export function checkRequest<S extends z.ZodType>(info: CallInfo, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { field, problem } = describeIssue(parsed.error);
  throw new ApiRequestError(info, field, problem);
}

/**
 * Fills `{name}` placeholders of a path template: numbers must be positive int32 ids (checked
 * here), strings are already-validated segments such as a record kind. The returned path is what
 * errors and logs show.
 */
export function fillPath(
  info: Omit<CallInfo, 'path'>,
  template: string,
  params: Record<string, number | string>,
): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value === 'string') return encodeURIComponent(value);
    if (value === undefined || !Number.isInteger(value) || value <= 0 || value > 2_147_483_647) {
      throw new ApiRequestError(
        { ...info, path: template },
        name,
        `expected a positive int32, got ${String(value)}`,
      );
    }
    return String(value);
  });
}

function describeIssue(error: z.ZodError): { field: string; problem: string } {
  const issue = error.issues[0];
  if (!issue) return { field: '', problem: 'invalid' };
  const path = issue.path.map(String);
  // An extra property is reported on its parent; name the property itself.
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  return { field: path.join('.'), problem: issue.message };
}
