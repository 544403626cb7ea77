import type { DomainCheckResult } from '../../api/index.js';
import { escapeHtml } from '../../core/format.js';
import type { Translate } from '../i18n.js';

/** One checked name: its Unicode form and the provider's verdict (absent when not answered). */
export interface CheckedDomain {
  name: string;
  result: DomainCheckResult | undefined;
}

export function renderCheckedDomain(t: Translate, { name, result }: CheckedDomain): string {
  const domain = escapeHtml(name);
  if (!result) return t('domains:noAnswer', { domain });
  if (result.is_available && result.is_premium) return t('domains:premium', { domain });
  if (result.is_available) return t('domains:available', { domain });
  return t('domains:taken', { domain, state: escapeHtml(result.state) });
}

export function renderCheckReport(t: Translate, checked: CheckedDomain[], invalid: string[]): string {
  const lines = [
    t('domains:checkTitle', { count: checked.length }),
    ...checked.map((c) => renderCheckedDomain(t, c)),
  ];
  if (invalid.length > 0) lines.push('', t('domains:invalid', { names: invalid.map(escapeHtml).join(', ') }));
  return lines.join('\n');
}
