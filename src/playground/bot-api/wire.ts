/**
 * How a Bot API request reads on the wire, as Telegram reads it: JSON, form-urlencoded or
 * multipart bodies and query strings, with file parts kept as files and JSON, integer and flag
 * fields decoded by name; how an answer goes back (the status Telegram would give); and the small
 * readers of the decoded values.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TelegramErrorBody } from './failures.js';

export type Json = Record<string, unknown>;

/** What the server answers to a call: its result, or Telegram's error body. */
export type ApiResponse = { ok: true; result: unknown } | ({ ok: false } & TelegramErrorBody);

/** A file part of a multipart request, as recorded in `RecordedCall.params`. */
export class RecordedFile {
  constructor(
    /** The part's `filename` (telegraf: `filename` of the input, else `<field>.<ext>`). */
    readonly filename: string,
    /** The part's content type ('application/octet-stream' when the client sent none). */
    readonly contentType: string,
    /** The bytes sent. */
    readonly content: Buffer,
  ) {}

  get size(): number {
    return this.content.length;
  }

  /** The content decoded as UTF-8. */
  text(): string {
    return this.content.toString('utf8');
  }
}

const JSON_FIELDS = new Set([
  'reply_markup',
  'entities',
  'caption_entities',
  'reply_parameters',
  'link_preview_options',
  'allowed_updates',
  'commands',
  'scope',
  'media',
  'results',
  'mask_position',
  'shipping_options',
  'errors',
  'options',
  'menu_button',
  'rights',
  'prices',
  'message_ids',
  'reaction',
  'rich_message',
  'ephemeral_message_parameters',
]);

const INTEGER_FIELDS = new Set([
  'chat_id',
  'from_chat_id',
  'message_id',
  'user_id',
  'message_thread_id',
  'reply_to_message_id',
  'offset',
  'limit',
  'timeout',
  'duration',
  'width',
  'height',
  'length',
  'cache_time',
  'max_connections',
  'until_date',
  'receiver_user_id',
  'ephemeral_message_id',
]);

const BOOLEAN_FIELDS = new Set([
  'show_alert',
  'disable_notification',
  'protect_content',
  'disable_content_type_detection',
  'disable_web_page_preview',
  'drop_pending_updates',
  'has_spoiler',
  'allow_sending_without_reply',
  'is_personal',
  'only_if_banned',
  'revoke_messages',
]);

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export async function parseParams(
  contentType: string | undefined,
  body: Buffer,
  query: URLSearchParams,
): Promise<Json> {
  const params: Json = {};
  for (const [key, value] of query) params[key] = decodeField(key, value);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (body.length === 0) return params;
  if (type === 'application/json') {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (!isRecord(parsed)) throw new Error('JSON body must be an object');
    return { ...params, ...parsed };
  }
  if (type === 'application/x-www-form-urlencoded') {
    for (const [key, value] of new URLSearchParams(body.toString('utf8')))
      params[key] = decodeField(key, value);
    return params;
  }
  if (type === 'multipart/form-data' && contentType !== undefined) {
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    for (const [key, value] of form) {
      if (typeof value === 'string') {
        params[key] = decodeField(key, value);
      } else {
        params[key] = new RecordedFile(
          value.name,
          value.type === '' ? 'application/octet-stream' : value.type,
          Buffer.from(await value.arrayBuffer()),
        );
      }
    }
    return params;
  }
  throw new Error(`unsupported content type "${contentType ?? ''}"`);
}

/**
 * Write an answer as Telegram does: the HTTP status is the error_code, and a 429 also says
 * Retry-After.
 */
export function writeJson(res: ServerResponse, body: ApiResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const status = body.ok ? 200 : body.error_code;
  const payload = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  };
  const retryAfter = body.ok ? undefined : body.parameters?.retry_after;
  if (typeof retryAfter === 'number') headers['retry-after'] = retryAfter;
  // telegraf reads statusText, not the body, for 5xx answers.
  const statusText =
    !body.ok && status >= 500 && /^[\x20-\x7e]*$/.test(body.description) ? body.description : undefined;
  if (statusText === undefined) res.writeHead(status, headers);
  else res.writeHead(status, statusText, headers);
  res.end(payload);
}

/** Read a text field the way Telegram would, by its name. */
function decodeField(key: string, value: string): unknown {
  if (JSON_FIELDS.has(key)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (INTEGER_FIELDS.has(key) && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  if (BOOLEAN_FIELDS.has(key) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

export function isRecord(value: unknown): value is Json {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RecordedFile)
  );
}

export function recordOrUndefined(value: unknown): Json | undefined {
  return isRecord(value) ? value : undefined;
}

export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}
