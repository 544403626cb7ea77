import { pairChanges } from '../../../../core/dns-change.js';
import type {
  HistoryChange,
  HistoryEntry,
  NameServerEntry,
  UndoPlan,
  UndoRefusal,
} from '../../../../core/dns-history.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml, formatInstant } from '../../../../core/format.js';
import { joinLinesWithin } from '../../../../core/text.js';
import type { Locale } from '../../../../storage/chat-store.js';
import type { Translate } from '../../../kit/i18n.js';
import { describeChangeLines, describeRecord } from '../views.js';

/** Record lines shown per entry of the history screen, and in an undo preview or report. */
const ENTRY_LINES = 3;
const PREVIEW_LINES = 30;

/** `ns1.example.by, ns2.example.by (192.0.2.1)`, or "none". */
function serversText(t: Translate, servers: readonly NameServerEntry[]): string {
  if (servers.length === 0) return t('dnshistory:nsNone');
  return servers
    .map((s) => escapeHtml(s.ip ? `${toUnicodeDomain(s.ns)} (${s.ip})` : toUnicodeDomain(s.ns)))
    .join(', ');
}

/** What a change did, a line per record (the first `max`, then "and N more"). */
export function describeChange(t: Translate, change: HistoryChange, max: number = PREVIEW_LINES): string[] {
  if ('nameServers' in change) {
    const { before, after } = change.nameServers;
    return [t('dnshistory:nsChange', { before: serversText(t, before), after: serversText(t, after) })];
  }
  // A delete and an add of one type and host read as one change: «A www: old → new».
  const all = describeChangeLines(t, pairChanges(change.records));
  const lines = all.slice(0, max);
  const more = all.length - max;
  return more > 0 ? [...lines, t('dnshistory:more', { count: more })] : lines;
}

/** Who made a change: the member's name, or the key a robot used (`auto`), HTML-safe. */
function whoOf(t: Translate, entry: HistoryEntry): string {
  if (entry.who.key !== undefined) return t('dnshistory:byKey', { name: escapeHtml(entry.who.key) });
  return escapeHtml(entry.who.name || t('dnshistory:someone'));
}

/** One entry of the history screen: number, when, who, what kind, and what changed. */
export function renderHistoryEntry(t: Translate, locale: Locale, entry: HistoryEntry, n: number): string {
  const head = t('dnshistory:entryHead', {
    n,
    when: formatInstant(entry.at, locale),
    who: whoOf(t, entry),
    kind: t(`dnshistory:kind.${entry.kind}`),
  });
  return [head, ...describeChange(t, entry.change, ENTRY_LINES)].join('\n');
}

/** What the undo will do, before the partner confirms it. */
export function renderUndoPreview(
  t: Translate,
  locale: Locale,
  domain: string,
  entry: HistoryEntry,
  plan: UndoPlan,
): string {
  const lines = [
    t('dnshistory:undoAsk', {
      domain: escapeHtml(toUnicodeDomain(domain)),
      when: formatInstant(entry.at, locale),
      who: whoOf(t, entry),
      kind: t(`dnshistory:kind.${entry.kind}`),
    }),
  ];
  if (plan.type === 'nameServers') {
    lines.push(
      plan.servers.length === 0
        ? t('dnshistory:undoNsDelete')
        : t('dnshistory:undoNsSet', { servers: serversText(t, plan.servers) }),
    );
  } else {
    const change: HistoryChange = {
      records: [
        ...plan.remove.map((r) => ({ op: 'delete' as const, record: r.record })),
        ...plan.add.map((record) => ({ op: 'add' as const, record })),
      ],
    };
    lines.push(t('dnshistory:undoWillDo'), ...describeChange(t, change));
  }
  return joinLinesWithin(lines, 4000);
}

/** Why an undo is refused, in words, and that nothing was changed. */
export function renderUndoRefusal(
  t: Translate,
  refusal: {
    reason: UndoRefusal | 'alreadyUndone';
    record?: Parameters<typeof describeRecord>[1] | undefined;
  },
): string {
  const record = refusal.record ? describeRecord(t, refusal.record) : '';
  return t(`dnshistory:refused.${refusal.reason}`, { record });
}

/** The report after an undo: what was done, and what failed with the provider's reason. */
export function renderUndoReport(
  t: Translate,
  done: HistoryChange,
  total: number,
  failures: string[],
): string {
  const count = 'records' in done ? done.records.length : total - failures.length;
  const lines = [
    failures.length === 0 ? t('dnshistory:undone') : t('dnshistory:undonePartly', { ok: count, total }),
    ...describeChange(t, done),
  ];
  if (failures.length > 0) lines.push(t('dnshistory:failures', { count: failures.length }), ...failures);
  return joinLinesWithin(lines, 4000);
}
