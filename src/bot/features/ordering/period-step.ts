import type { DomainZone, Tariff } from '../../../api/index.js';
import { STEP } from '../../../core/customer-answers.js';
import { escapeHtml, formatMoney } from '../../../core/format.js';
import { findPeriodPrice, listTariffPeriods } from '../../../core/tariff-periods.js';
import { zonePeriods } from '../../../core/zones.js';
import { type Question, readNumber, type Step, type StepEnv } from '../../forms/types.js';
import { formatPeriod } from '../catalog/views.js';

/**
 * The period step of every kind. Kinds differ only in what they offer (a tariff prices each period,
 * a zone one unit), so each passes its own question; the answer, its section and its absence from
 * the summary's lines are the same for all.
 */
export function createPeriodStep(offer: (env: StepEnv) => Promise<Question<number>>): Step<number> {
  return {
    id: STEP.period,
    section: 'period',
    read: readNumber,
    ask: offer,
    // The summary's head says the period in words, with its price.
    describe: () => undefined,
  };
}

/** A tariff's periods: a button a period, with the price of that period as the provider gives it. */
export function offerTariffPeriods(env: StepEnv, tariff: Tariff, code: string | undefined): Question<number> {
  return {
    text: env.ctx.t('order:askPeriod', { tariff: escapeHtml(tariff.tariff_name) }),
    options: listTariffPeriods(tariff).map((period) => {
      const price = findPeriodPrice(tariff, period);
      const label = formatPeriod(env.ctx.t, tariff.period_type, period);
      return {
        label: price === undefined ? label : `${label} — ${formatMoney(price, code, env.ctx.locale)}`,
        value: period,
      };
    }),
    perRow: 1,
  };
}

/** A zone's periods: the zone gives one registration price per unit, said once in the question. */
export function offerZonePeriods(env: StepEnv, zone: DomainZone, code: string | undefined): Question<number> {
  return {
    text: env.ctx.t('order:askDomainPeriod', {
      zone: escapeHtml(zone.name.toUpperCase()),
      price: formatMoney(zone.registration_price, code, env.ctx.locale),
      unit: formatPeriod(env.ctx.t, zone.period_type, 1),
    }),
    options: zonePeriods(zone).map((p) => ({
      label: formatPeriod(env.ctx.t, zone.period_type, p),
      value: p,
    })),
    perRow: 5,
  };
}
