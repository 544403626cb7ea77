import type { BotCall, BotHarness } from './bot-harness.js';

/** What DNS stories read back from the provider and the chat, for any harness. */

/** The domain order's records as the provider lists them, `TYPE value`, sorted. */
export async function listedValues(h: BotHarness, orderId: number): Promise<string[]> {
  return (await h.api().listDnsRecords(orderId)).map((r) => `${r.type} ${r.value}`).sort();
}

/** The provider's writes since `from` (a count of its requests), ids and order kept. */
export function writesSince(h: BotHarness, from: number): string[] {
  return h.sandbox.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);
}

/** The read-backs above bound to one harness (a file's `useBot()` one), as the stories call them. */
export function dnsStories(h: BotHarness) {
  return {
    listedValues: (orderId: number) => listedValues(h, orderId),
    writesSince: (from: number) => writesSince(h, from),
  };
}

/** The text of the toast a button press answered with ('' for none). */
export function toast(calls: BotCall[]): string {
  return String(calls.find((c) => c.method === 'answerCallbackQuery')?.payload.text ?? '');
}
