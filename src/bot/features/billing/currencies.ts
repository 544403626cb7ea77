import type { PartnerApi } from '../../../api/index.js';
import type { CurrencyCodes } from './views.js';

/**
 * Currency codes by id, for amounts: every screen that shows money (billing lists, tariffs, inline
 * cards, notifications) asks this. The API client caches the currency list per token.
 */
export async function loadCurrencyCodes(api: PartnerApi): Promise<CurrencyCodes> {
  const currencies = await api.listCurrencies();
  return new Map(currencies.map((c) => [c.currency_id, c.currency_code]));
}
