import { expect } from 'vitest';
import type { BotApiServer } from '../../src/playground/bot-api/index.js';

/** What the local Bot API server answers, as Telegram's Bot API does. */
export type Answer =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error_code: number; description: string };

/** One Bot API call as JSON over HTTP; the answer's HTTP status must be its error_code. */
export async function call(
  server: BotApiServer,
  method: string,
  params: Record<string, unknown>,
): Promise<Answer> {
  const response = await fetch(`${server.apiRoot}/bot${server.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  const answer = (await response.json()) as Answer;
  expect(response.status).toBe(answer.ok ? 200 : answer.error_code);
  return answer;
}

/** A call that must succeed: its result. */
export async function result(
  server: BotApiServer,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await call(server, method, params);
  if (!answer.ok) throw new Error(`${method}: ${answer.description}`);
  return answer.result;
}
