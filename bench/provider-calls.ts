/**
 * Provider calls per job: what the sandbox received for each command sent to the real bot.
 * Reference data (currencies, zones, tariffs) is cached per token for 10 minutes, so a repeat
 * inside that time should cost no call; a document (an invoice link) is never cached and should
 * cost exactly one.
 */
import type { RecordedRequest } from '../src/sandbox/server.js';
import {
  type BenchResult,
  chatIds,
  type FakeTelegram,
  sentTexts,
  startFullBot,
  UpdateFactory,
} from './support.js';

/** A seeded invoice of the sandbox (docs/using-the-bot.md: `/invoice 5001`). */
const INVOICE_ID = 5001;

interface Job {
  label: string;
  text: string;
  /** Expected provider calls; undefined for a first run that merely fills the cache. */
  target?: number;
  /** Sent by a second chat connected with the same token. */
  secondChat?: boolean;
  /** Checks the reply, so a failing job cannot pass for a cached one. */
  expect: RegExp;
}

const JOBS: Job[] = [
  { label: '`/zones`, first', text: '/zones', expect: /\.by|BY/ },
  { label: '`/zones`, again (within TTL)', text: '/zones', target: 0, expect: /\.by|BY/ },
  { label: '`/tariffs hosting`, first', text: '/tariffs hosting', expect: /\d/ },
  { label: '`/tariffs hosting`, again (within TTL)', text: '/tariffs hosting', target: 0, expect: /\d/ },
  {
    label: '`/zones` from another chat with the same token',
    text: '/zones',
    target: 0,
    secondChat: true,
    expect: /\.by|BY/,
  },
  // Two calls sent together (one round trip): the link, and the invoice for the number the link
  // message names it by (the link call returns only the URL).
  { label: `\`/invoice ${INVOICE_ID}\``, text: `/invoice ${INVOICE_ID}`, target: 2, expect: /\/s\// },
  { label: `\`/invoice ${INVOICE_ID}\`, again`, text: `/invoice ${INVOICE_ID}`, target: 2, expect: /\/s\// },
];

function describeCalls(requests: readonly RecordedRequest[]): string {
  if (requests.length === 0) return '—';
  return requests.map((r) => `${r.method} ${r.path}`).join(', ');
}

export async function benchProviderCalls(telegram: FakeTelegram): Promise<BenchResult> {
  const [chat = 0, secondChat = 0] = chatIds(2, 3);
  const full = await startFullBot([chat, secondChat]);
  const updates = new UpdateFactory();
  const rows: string[][] = [];
  let ok = true;
  try {
    for (const job of JOBS) {
      const requestsBefore = full.sandbox.requests.length;
      const callsBefore = telegram.calls.length;
      await full.bot.handleUpdate(updates.text(job.secondChat ? secondChat : chat, job.text));
      const made = full.sandbox.requests.slice(requestsBefore);
      const reply = sentTexts(telegram.calls.slice(callsBefore)).join('\n');
      if (!job.expect.test(reply)) {
        throw new Error(`${job.text}: unexpected reply ${JSON.stringify(reply.slice(0, 200))}`);
      }
      const met = job.target === undefined || made.length === job.target;
      ok &&= met;
      rows.push([
        job.label,
        String(made.length),
        job.target === undefined ? '(fills the cache)' : `${job.target} ${met ? '✔' : '✘'}`,
        describeCalls(made),
      ]);
    }
  } finally {
    await full.close();
  }
  return {
    title: 'Provider calls per job',
    method:
      'Commands sent to the real bot through `handleUpdate` (token stored via `chatData.setToken`, so ' +
      'nothing is cached beforehand); calls counted in the sandbox `requests` log. Cache TTL is the ' +
      'default 10 minutes; the repeats come seconds later.',
    header: ['job', 'provider calls', 'target', 'requests'],
    rows,
    notes: [],
    ok,
  };
}
