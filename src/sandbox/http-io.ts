/** The sandbox's HTTP plumbing: reading bodies, answering JSON, empty and raw bodies, request facts. */

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from './api-errors.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const TOKEN_HEADERS = ['x-api-token', 'x-auth-token'] as const;

export function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function headerValues(req: IncomingMessage, name: string): string[] {
  const value = req.headers[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, jsonType = false): void {
  res.writeHead(
    status,
    jsonType ? { 'content-type': JSON_TYPE, 'content-length': 0 } : { 'content-length': 0 },
  );
  res.end();
}

export function sendRaw(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  if (error.bodyMessage === undefined) sendEmpty(res, error.status);
  else sendJson(res, error.status, { message: error.bodyMessage });
}

export function parseMaybeJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** True for a connection from this machine (127.0.0.0/8 or ::1, also IPv4-mapped). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}

export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
