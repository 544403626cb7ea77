import type { Tariff } from '../../../api/index.js';
import { STEP } from '../../../core/customer-answers.js';
import { formatMoney } from '../../../core/format.js';
import { findPeriodPrice, priceOfTerm } from '../../../core/tariff-periods.js';
import type { StepEnv } from '../../forms/types.js';
import { formatPeriod } from '../catalog/views.js';

/** The currency prices are shown in: the chosen one, else the last used, else the first. */
export async function displayCurrency(env: StepEnv): Promise<{ id: number; code: string } | undefined> {
  const currencies = await env.api.listCurrencies();
  const chosen = env.draft.answers[STEP.currency];
  const last = await env.chatData.getLastCurrencyId(env.account);
  const currency =
    currencies.find((c) => c.currency_id === chosen) ??
    currencies.find((c) => c.currency_id === last) ??
    currencies[0];
  return currency ? { id: currency.currency_id, code: currency.currency_code } : undefined;
}

/** A period's unit in words: "год", "мес" (the count of one left out). */
export function periodUnit(env: StepEnv, periodType: string): string {
  return formatPeriod(env.ctx.t, periodType, 1).replace(/^1\s*/, '');
}

/**
 * The period in words and its price: "Срок: 2 года" and "Цена: 36,00 BYN за год × 2 года =
 * 72,00 BYN" from a price per unit (a zone's), or "Цена: 106,92 BYN за 12 мес (8,91 BYN за мес)"
 * from the provider's price of the whole period (a tariff's).
 */
export function periodPriceLines(
  env: StepEnv,
  price: { periodType: string; period: number; code: string | undefined } & (
    | { perUnit: number; total?: undefined }
    | { total: number | undefined; perUnit?: undefined }
  ),
): string[] {
  const { t, locale } = env.ctx;
  const money = (value: number) => formatMoney(value, price.code, locale);
  const period = formatPeriod(t, price.periodType, price.period);
  const unit = periodUnit(env, price.periodType);
  const lines = [t('order:summaryTerm', { period })];
  if (price.perUnit !== undefined) {
    // The invoice's figure: the per-unit price times the count, rounded once (as the form shows it).
    const total = priceOfTerm({ perPeriod: price.perUnit }, price.period) ?? 0;
    lines.push(
      price.period === 1
        ? t('order:summaryPriceOne', { price: money(price.perUnit), period })
        : t('order:summaryPriceTimes', { price: money(price.perUnit), unit, period, total: money(total) }),
    );
  } else if (price.total === undefined) lines.push(t('order:priceUnknown'));
  else
    lines.push(
      price.period === 1
        ? t('order:summaryPriceOne', { price: money(price.total), period })
        : t('order:summaryPriceTotal', {
            price: money(price.total),
            period,
            perUnit: money(Math.round((price.total / price.period) * 100) / 100),
            unit,
          }),
    );
  return lines;
}

/** The chosen period of a tariff and its price, as the provider prices it. */
export function tariffPriceLines(
  env: StepEnv,
  tariff: Tariff,
  period: number,
  code: string | undefined,
): string[] {
  const total = findPeriodPrice(tariff, period);
  return periodPriceLines(env, { periodType: tariff.period_type, period, total, code });
}
