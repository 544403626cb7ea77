import { toAsciiDomain } from './domain-names.js';

/** The zone fields these rules need (the provider's domain zone has more). */
export interface ZoneLike {
  name: string;
  min_period: number;
  max_period: number;
}

/**
 * The zone a domain belongs to: the longest zone name that is a suffix of the domain, compared
 * in ASCII form so `пример.бел` finds `бел` and `shop.com.by` finds `com.by` before `by`.
 */
export function findZone<Z extends ZoneLike>(domain: string, zones: readonly Z[]): Z | undefined {
  const ascii = toAsciiDomain(domain);
  if (ascii === undefined) return undefined;
  let best: { zone: Z; length: number } | undefined;
  for (const zone of zones) {
    const zoneAscii = toAsciiDomain(`x.${zone.name.replace(/^\./, '')}`)?.slice(2);
    if (zoneAscii === undefined) continue;
    if (ascii.endsWith(`.${zoneAscii}`) && ascii.length > zoneAscii.length + 1) {
      if (!best || zoneAscii.length > best.length) best = { zone, length: zoneAscii.length };
    }
  }
  return best?.zone;
}

/** Order periods a zone allows: `min_period` to `max_period`, in its `period_type`. */
export function zonePeriods(zone: ZoneLike): number[] {
  const periods: number[] = [];
  for (let p = Math.max(1, zone.min_period); p <= Math.min(36, zone.max_period); p++) periods.push(p);
  return periods;
}

/** Which registry rules a zone's WHOIS data follows; `none` when no WHOIS blocks are sent. */
export type WhoisRules = 'by' | 'ru' | 'none';

const BY_ZONES = new Set(['by', 'xn--90ais']);
const RU_ZONES = new Set(['ru', 'su', 'xn--p1ai']);

/** BY and БЕЛ follow the Belarusian rules; RU, SU and РФ the Russian ones; others send none. */
export function whoisRulesOf(zoneName: string): WhoisRules {
  const ascii = toAsciiDomain(`x.${zoneName.replace(/^\./, '')}`)?.slice(2) ?? zoneName.toLowerCase();
  if (BY_ZONES.has(ascii)) return 'by';
  if (RU_ZONES.has(ascii)) return 'ru';
  return 'none';
}
