/** Steps the rich and HTML stories of DNS plans share: fresh domains, a bulk over them. */

import type { BotCall, BotHarness } from './bot-harness.js';
import { orderTestDomain } from './fixtures.js';

/** Orders `count` fresh domains named `<tag>-<n>-<time>.com`; their names and order ids. */
export async function freshDomains(h: BotHarness, tag: string, count: number) {
  const stamp = Date.now();
  const made: { domain: string; orderId: number }[] = [];
  for (let n = 1; n <= count; n++) {
    const domain = `${tag}-${n}-${stamp}.com`;
    made.push({ domain, orderId: await orderTestDomain(h.api(), domain) });
  }
  return made;
}

/** `/dns bulk` over these domains (a pasted list), then the change line: the preview's calls. */
export async function bulkPreview(
  h: BotHarness,
  domains: readonly { domain: string }[],
  line: string,
): Promise<BotCall[]> {
  await h.send('/dns bulk');
  await h.send(domains.map((d) => d.domain).join('\n'));
  return h.send(line);
}
