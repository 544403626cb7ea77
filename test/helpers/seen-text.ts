import type { RecordedCall } from '../../src/playground/bot-api/index.js';
import { richLines } from './bot-harness.js';

/*
 * What a partner reads in a message the real bot process posted to the local Bot API server: a
 * list (invoices, orders, DNS records…) comes as a rich message (Bot API 10.1) with a table, the
 * rest as text. Process tests wait for either and read both the same way.
 */

/** The methods that post a message a partner reads: text, or rich with headings and tables. */
const POSTS = new Set(['sendMessage', 'sendRichMessage']);

/** Whether the call posts a message (text or rich), to any chat. */
export const isPost = (call: RecordedCall): boolean => POSTS.has(call.method);

/** Whether the call posts a message (text or rich) to this chat. */
export const isPostTo =
  (chatId: number) =>
  (call: RecordedCall): boolean =>
    POSTS.has(call.method) && call.params.chat_id === chatId;

/** A posted message's words: its text, or its rich message's lines (a table row as «a | b | c»). */
export function seenText(call: RecordedCall): string {
  const rich = call.params.rich_message as { blocks?: Parameters<typeof richLines>[0] } | undefined;
  return rich?.blocks === undefined ? String(call.params.text ?? '') : richLines(rich.blocks).join('\n');
}
