import { STEP } from '../../../core/customer-answers.js';
import { readNumber, type Step } from '../../forms/types.js';

/** Currency: the last one used first; a single currency is chosen without asking. */
export function createCurrencyStep(): Step<number> {
  return {
    id: STEP.currency,
    section: 'currency',
    read: readNumber,
    async auto({ api }) {
      const currencies = await api.listCurrencies();
      return currencies.length === 1 ? currencies[0]?.currency_id : undefined;
    },
    async ask({ ctx, api, chatData, account }) {
      const currencies = await api.listCurrencies();
      const last = await chatData.getLastCurrencyId(account);
      const ordered = [...currencies].sort(
        (a, b) => Number(b.currency_id === last) - Number(a.currency_id === last),
      );
      return {
        text: ctx.t('order:askCurrency'),
        options: ordered.map((c) => ({
          label: `${c.currency_code} — ${c.currency_name}`,
          value: c.currency_id,
        })),
        perRow: 1,
      };
    },
    afterAnswer: async ({ chatData, account }, value) => {
      await chatData.setLastCurrencyId(account, value);
    },
  };
}
