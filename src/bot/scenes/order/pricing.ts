import type { Tariff } from '../../../api/index.js';
import { formatMoney } from '../../../core/format.js';
import { formatPeriod } from '../../views/catalog.js';
import { STEP } from './common-steps.js';
import type { StepEnv } from './types.js';

/** The currency prices are shown in: the chosen one, else the last used, else the first. */
export async function displayCurrency(env: StepEnv): Promise<{ id: number; code: string } | undefined> {
  const currencies = await env.api.listCurrencies();
  const chosen = env.draft.answers[STEP.currency];
  const last = env.ctx.chat ? await env.chatData.getLastCurrencyId(env.ctx.chat.id) : undefined;
  const currency =
    currencies.find((c) => c.currency_id === chosen) ??
    currencies.find((c) => c.currency_id === last) ??
    currencies[0];
  return currency ? { id: currency.currency_id, code: currency.currency_code } : undefined;
}

/** "12 мес — 106,92 BYN" for the chosen period of a tariff, as the provider prices it. */
export function tariffPriceLine(
  env: StepEnv,
  tariff: Tariff,
  period: number,
  code: string | undefined,
): string {
  const price = tariff.prices.find((p) => p.period === period)?.price;
  const label = formatPeriod(env.ctx.t, tariff.period_type, period);
  return env.ctx.t('order:summaryPrice', {
    period: label,
    price: price === undefined ? env.ctx.t('order:priceUnknown') : formatMoney(price, code, env.ctx.locale),
  });
}
