/**
 * What the live check says: the line under a change ("✅ Видно на …", or for a deletion "✅ Больше
 * не отвечают этой записью: …") and the `/dns … check` report, in the chat's language.
 */
import { type Expectation, type RoundOutcome, summarizeRound } from '../../../../core/dns-check.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { cutGraphemes } from '../../../../core/text.js';
import type { LiveCheckJob, ServerRound } from './job.js';

/** How much of one server's answer a report shows (a DKIM key is cut; 13 servers still fit). */
const MAX_VALUES = 200;

/** The lines of a change's check: for an added or changed record, and for records deleted. */
const SEEN_WORDS = {
  done: 'dnscheck:visibleOn',
  notYet: 'dnscheck:notYetVisibleOn',
  gaveUp: 'dnscheck:stillNotVisibleOn',
  already: 'dnscheck:alreadyVisibleOn',
} as const;
const GONE_WORDS = {
  done: 'dnscheck:goneOn',
  notYet: 'dnscheck:notYetGoneOn',
  gaveUp: 'dnscheck:stillNotGoneOn',
  already: 'dnscheck:alreadyGoneOn',
} as const;

/**
 * What a check adds under its message (HTML): its lines, and the gap above them — a blank line
 * under a change, a line break under the `/dns … check` question (whose lines go on from it).
 */
export interface CheckLines {
  gap: '\n' | '\n\n';
  html: string;
}

/** Check lines a blank line below the message (the change's "✅ Видно на …", a failure). */
export const linesBelow = (html: string): CheckLines => ({ gap: '\n\n', html });

export function renderLiveCheck(
  job: LiveCheckJob,
  domain: string,
  expectations: Expectation[],
  rounds: ServerRound[],
  phase: 'done' | 'retrying' | 'gaveUp' | 'stopped',
): CheckLines {
  const { t } = job;
  const outcome: RoundOutcome = summarizeRound(rounds);
  const names = (list: string[]) => list.map(escapeHtml).join(', ');
  const failed = outcome.failed.map((f) =>
    t('dnscheck:failedServer', { server: escapeHtml(f.server), reason: t(`dnscheck:failure.${f.reason}`) }),
  );
  const shown = hint(domain, expectations);
  if (job.style === 'report') {
    const lines = rounds.map((r) => {
      const answer =
        r.values === undefined
          ? t(`dnscheck:failure.${r.sighting}`, { defaultValue: '' })
          : r.values.length === 0
            ? t('dnscheck:answersNothing')
            : escapeHtml(cutGraphemes(r.values.join(', '), MAX_VALUES));
      const mark = r.sighting === 'visible' ? '✅' : r.sighting === 'notYet' ? '⏳' : '❌';
      return `${mark} ${escapeHtml(r.server)} — ${answer}`;
    });
    const shownValues = expectations[0]?.shown ?? [];
    const atProvider =
      shownValues.length === 0
        ? t('dnscheck:atProviderNone')
        : t('dnscheck:atProvider', {
            values: escapeHtml(cutGraphemes(shownValues.join(', '), MAX_VALUES)),
          });
    const summary = t(`dnscheck:report.${phase}`, { hint: shown });
    return { gap: '\n', html: `${atProvider}\n\n${lines.join('\n')}\n\n${summary}` };
  }
  const parts: string[] = [];
  // A deletion is "seen" when the servers no longer answer with the record: said so.
  const words = job.gone ? GONE_WORDS : SEEN_WORDS;
  if (outcome.done) parts.push(t(words.done, { servers: names(outcome.visible) }));
  else {
    if (outcome.notYet.length > 0) {
      parts.push(
        t(phase === 'gaveUp' ? words.gaveUp : words.notYet, {
          servers: names(outcome.notYet),
        }),
      );
    }
    parts.push(...failed);
    if (outcome.visible.length > 0) parts.push(t(words.already, { servers: names(outcome.visible) }));
    parts.push(t(`dnscheck:phase.${phase === 'done' ? 'retrying' : phase}`, { hint: shown }));
  }
  return linesBelow(parts.join('\n'));
}

/** The `/dns … check` line that asks again later, for the first name and type checked. */
function hint(domain: string, expectations: Expectation[]): string {
  const first = expectations[0];
  if (!first) return '';
  const host =
    first.name === domain
      ? '@'
      : first.name.endsWith(`.${domain}`)
        ? first.name.slice(0, -domain.length - 1)
        : first.name;
  return `<code>/dns ${escapeHtml(toUnicodeDomain(domain))} check ${escapeHtml(host)} ${first.type}</code>`;
}
