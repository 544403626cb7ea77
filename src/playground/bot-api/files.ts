/**
 * Files both ways: a document the user sends, sendDocument (a file part, a known file_id or a URL,
 * else "wrong file identifier/HTTP URL specified"; a caption over 1,024 characters refused),
 * getFile ("invalid file_id"), and the `/file/bot<token>/<path>` download a client or the bot makes.
 * With `local`, like `telegram-bot-api --local`, files are written to disk and not served.
 */
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { requireChat } from './chats.js';
import { badRequest } from './failures.js';
import { formatText, postBotMessage } from './messages.js';
import type { BotApiState, StoredFile } from './state.js';
import { type Json, RecordedFile, writeJson } from './wire.js';

/** Who sends a document with `sendDocument`, and how it is labelled. */
export interface SendDocumentOptions {
  chatId?: number;
  userId?: number;
  chatType?: 'private' | 'group' | 'supergroup';
  caption?: string;
  mimeType?: string;
}

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.zone': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

/** A user's message carrying a document, queued as an update; the file can be downloaded. */
export function queueUserDocument(
  state: BotApiState,
  content: string | Buffer,
  fileName: string,
  opts: SendDocumentOptions = {},
): Json {
  const from = state.user(opts.userId, undefined);
  const chat = state.chatForUser(from, opts.chatType ?? 'private', opts.chatId);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const file = registerFile(state, bytes, fileName);
  const message: Json = {
    message_id: state.takeMessageId(chat.id as number, undefined),
    from,
    chat,
    date: state.unixTime(),
    document: {
      file_name: fileName,
      mime_type: opts.mimeType ?? guessMimeType(fileName),
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      file_size: bytes.length,
    },
  };
  if (opts.caption !== undefined) message.caption = opts.caption;
  state.storeMessage(message, undefined);
  state.events.emit({ type: 'message', chatId: chat.id as number, message });
  return state.updates.push({ message: structuredClone(message) });
}

/** A file the server holds, for a client to download. */
export function readFileContent(
  state: BotApiState,
  fileId: string,
): { content: Buffer; fileName: string; mimeType: string } | undefined {
  const file = state.files.get(fileId);
  if (!file) return undefined;
  return { content: file.content, fileName: file.fileName, mimeType: guessMimeType(file.fileName) };
}

export function sendDocument(state: BotApiState, p: Json): Json {
  const chatId = requireChat(p);
  const file = documentFile(state, p.document);
  const fields: Json = {
    document: {
      file_name: file.fileName,
      mime_type: file.mimeType,
      file_id: file.stored.file_id,
      file_unique_id: file.stored.file_unique_id,
      file_size: file.stored.content.length,
    },
  };
  if (typeof p.caption === 'string' && p.caption !== '') {
    const caption = formatText(p.caption, p, 'caption_entities');
    if (caption.text.length > 1024) throw badRequest('message caption is too long');
    fields.caption = caption.text;
    if (caption.entities !== undefined) fields.caption_entities = caption.entities;
  }
  return postBotMessage(state, chatId, fields, p);
}

export function getFile(state: BotApiState, p: Json): Json {
  const file = typeof p.file_id === 'string' ? state.files.get(p.file_id) : undefined;
  if (!file) throw badRequest('invalid file_id');
  return {
    file_id: file.file_id,
    file_unique_id: file.file_unique_id,
    file_size: file.content.length,
    file_path: file.file_path,
  };
}

/** Answer `GET /file/bot<token>/<path>` with the file's bytes. */
export function serveFile(state: BotApiState, res: ServerResponse, token: string, filePath: string): void {
  if (state.localDir !== undefined) {
    writeJson(res, { ok: false, error_code: 404, description: 'Not Found' });
    return;
  }
  if (token !== state.token) {
    writeJson(res, { ok: false, error_code: 401, description: 'Unauthorized' });
    return;
  }
  const file = [...state.files.values()].find((f) => f.file_path === filePath);
  if (!file) {
    writeJson(res, { ok: false, error_code: 404, description: 'Not Found' });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.content.length });
  res.end(file.content);
}

/** The file a sendDocument names: a new upload, a file_id the server holds, or a URL. */
function documentFile(
  state: BotApiState,
  document: unknown,
): { stored: StoredFile; fileName: string; mimeType: string } {
  if (document instanceof RecordedFile) {
    const stored = registerFile(state, document.content, document.filename);
    const mimeType =
      document.contentType === 'application/octet-stream'
        ? guessMimeType(document.filename)
        : document.contentType;
    return { stored, fileName: document.filename, mimeType };
  }
  if (typeof document === 'string') {
    const known = state.files.get(document);
    if (known) {
      const fileName = known.file_path.split('/').pop() ?? 'file';
      return { stored: known, fileName, mimeType: guessMimeType(fileName) };
    }
    if (/^https?:\/\//i.test(document)) {
      // Telegram would download the URL; the local server only records it.
      const fileName = new URL(document).pathname.split('/').pop() || 'file';
      return {
        stored: registerFile(state, Buffer.alloc(0), fileName),
        fileName,
        mimeType: guessMimeType(fileName),
      };
    }
  }
  throw badRequest('wrong file identifier/HTTP URL specified');
}

function registerFile(state: BotApiState, content: Buffer, fileName: string): StoredFile {
  const n = state.takeFileNumber();
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot).replace(/[^A-Za-z0-9.]/g, '') : '';
  const relative = `documents/file_${n}${extension}`;
  let filePath = relative;
  if (state.localDir !== undefined) {
    // telegram-bot-api --local keeps each bot's files under a folder named by its token.
    filePath = path.resolve(state.localDir, state.token, relative);
    mkdirSync(path.dirname(filePath), { recursive: true });
    writeFileSync(filePath, content);
  }
  const file: StoredFile = {
    file_id: `BQACAgIAAxkBAAI${n.toString(36).padStart(4, '0')}${randomBytes(12).toString('base64url')}`,
    file_unique_id: `AgAD${n.toString(36).padStart(4, '0')}`,
    file_path: filePath,
    fileName,
    content,
  };
  state.files.set(file.file_id, file);
  return file;
}

function guessMimeType(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 ? MIME_TYPES[fileName.slice(dot).toLowerCase()] : undefined) ?? 'application/octet-stream';
}
