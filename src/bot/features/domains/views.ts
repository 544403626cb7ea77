import type { DomainCheckResult } from '../../../api/index.js';
import { escapeHtml } from '../../../core/format.js';
import { echoInput } from '../../../core/text.js';
import type { Translate } from '../../kit/i18n.js';
import { stateWord } from '../../kit/words.js';

/** One checked name: its Unicode form and the provider's verdict (absent when not answered). */
export interface CheckedDomain {
  name: string;
  result: DomainCheckResult | undefined;
}

/** The zone a name is in, as the partner would write it (`XYZ`): its last label. */
function lastLabel(name: string): string {
  return (name.split('.').at(-1) ?? name).toUpperCase();
}

/**
 * One verdict in the chat's words. Only `NotAvailable` is "taken": a name the registry calls
 * invalid, or one in a zone the provider does not serve, is said to be so; a state the bot has no
 * words for yet is shown as sent (and logged once, by words.ts).
 */
export function renderCheckedDomain(t: Translate, { name, result }: CheckedDomain): string {
  const domain = escapeHtml(name);
  if (!result) return t('domains:noAnswer', { domain });
  if (result.is_available && result.is_premium) return t('domains:premium', { domain });
  if (result.is_available) return t('domains:available', { domain });
  switch (result.state) {
    case 'NotAvailable':
      return t('domains:taken', { domain });
    case 'Invalid':
      return t('domains:invalidName', { domain });
    case 'UnsupportedZone':
      return t('domains:unsupportedZone', { domain, zone: escapeHtml(lastLabel(name)) });
    default:
      return t('domains:notFree', { domain, state: stateWord(t, result.state) });
  }
}

/** Pieces shown of those that are not domain names: enough to spot the typo, never a wall. */
const INVALID_SHOWN = 10;

/** What was not a domain name, quoted briefly: the first few pieces, each a short prefix. */
export function formatInvalidNames(invalid: readonly string[]): string {
  const shown = invalid.slice(0, INVALID_SHOWN).map((piece) => escapeHtml(echoInput(piece)));
  if (invalid.length > INVALID_SHOWN) shown.push('…');
  return shown.join(', ');
}

export function renderCheckReport(t: Translate, checked: CheckedDomain[], invalid: string[]): string {
  const lines = [
    t('domains:checkTitle', { count: checked.length }),
    ...checked.map((c) => renderCheckedDomain(t, c)),
  ];
  if (invalid.length > 0) lines.push('', t('domains:invalid', { names: formatInvalidNames(invalid) }));
  return lines.join('\n');
}
