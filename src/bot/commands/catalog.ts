import { Composer, Markup } from 'telegraf';
import type { PartnerApi, Tariff } from '../../api/index.js';
import { isValidDate } from '../../core/format.js';
import type { CallbackRouter } from '../callbacks.js';
import { type BotContext, UserInputError } from '../context.js';
import { encodeCallback } from '../keyboards/callback-data.js';
import type { PagedList, PagedLists } from '../paged-list.js';
import { renderPriceList, renderPriceListTariff, renderTariff, renderZone } from '../views/catalog.js';
import { commandWords } from './arguments.js';
import { loadCurrencyCodes } from './billing.js';

const TARIFF_KINDS = ['hosting', 'mail', 'ssl'] as const;
type TariffKind = (typeof TARIFF_KINDS)[number];

/** The currency prices are asked and shown in: the provider's first (the home currency). */
async function defaultCurrency(api: PartnerApi) {
  const [first] = await api.listCurrencies();
  return first;
}

function loadTariffs(api: PartnerApi, kind: TariffKind, currencyId: number | undefined): Promise<Tariff[]> {
  const query = currencyId === undefined ? {} : { currency_id: currencyId };
  if (kind === 'hosting') return api.listHostingTariffs(query);
  if (kind === 'mail') return api.listMailTariffs(query);
  return api.listSslTariffs(query);
}

/** `DD.MM.YYYY` ↔ the YYYYMMDD integer a button carries (0 = today). */
function dateToNumber(date: string | undefined): number {
  if (date === undefined) return 0;
  const [d, m, y] = date.split('.');
  return Number(`${y}${m}${d}`);
}
function numberToDate(value: number): string | undefined {
  if (value === 0) return undefined;
  const text = String(value).padStart(8, '0');
  return `${text.slice(6, 8)}.${text.slice(4, 6)}.${text.slice(0, 4)}`;
}

/** /prices, /tariffs and /zones: reference data, cached per token. */
export function createCatalogCommands(router: CallbackRouter, lists: PagedLists) {
  const composer = new Composer<BotContext>();

  const priceLists = lists.register({
    id: 'prc',
    async load(ctx, filter) {
      const date = numberToDate(Number(filter === '-' ? 0 : filter));
      const items = await (await ctx.partnerApi()).listPriceLists(
        date === undefined ? {} : { as_of_date: date },
      );
      return {
        title:
          date === undefined ? ctx.t('catalog:priceListsTitle') : ctx.t('catalog:priceListsAsOf', { date }),
        empty: ctx.t('catalog:noPriceLists'),
        rows: items.map((list) => ({
          html: renderPriceList(ctx.t, list),
          button: Markup.button.callback(
            ctx.t('catalog:priceListButton', { number: list.number }),
            encodeCallback(
              'priceList',
              list.number.replace(/[^A-Za-z0-9._-]/g, '') || '0',
              dateToNumber(date),
            ),
          ),
        })),
      };
    },
  });

  const priceListTariffs = lists.register({
    id: 'prt',
    perPage: 8,
    async load(ctx, filter) {
      const [number = '', dateNumber = '0'] = filter.split('.');
      const date = numberToDate(Number(dateNumber));
      const api = await ctx.partnerApi();
      const [list, codes] = await Promise.all([
        api.getPriceListTariffs(Number(number), date === undefined ? {} : { as_of_date: date }),
        loadCurrencyCodes(api),
      ]);
      return {
        title: ctx.t('catalog:priceListTariffsTitle', { number: list.number, date: list.as_of_date }),
        empty: ctx.t('catalog:noTariffs'),
        rows: list.tariffs.map((tariff) => ({
          html: renderPriceListTariff(ctx.t, ctx.locale, tariff, codes.get(tariff.currency_id)),
        })),
      };
    },
  });

  const tariffLists = new Map<TariffKind, PagedList>(
    TARIFF_KINDS.map((kind) => [
      kind,
      lists.register({
        id: `t${kind}`,
        perPage: 8,
        async load(ctx) {
          const api = await ctx.partnerApi();
          const currency = await defaultCurrency(api);
          const tariffs = await loadTariffs(api, kind, currency?.currency_id);
          return {
            title: ctx.t(`catalog:tariffsTitle.${kind}`),
            empty: ctx.t('catalog:noTariffs'),
            rows: tariffs.map((tariff) => ({
              html: renderTariff(ctx.t, ctx.locale, tariff, currency?.currency_code),
            })),
          };
        },
      }),
    ]),
  );

  const zones = lists.register({
    id: 'zn',
    perPage: 15,
    async load(ctx) {
      const api = await ctx.partnerApi();
      const currency = await defaultCurrency(api);
      const items = await api.listDomainZones(currency ? { currency_id: currency.currency_id } : {});
      items.sort((a, b) => a.name.localeCompare(b.name));
      return {
        title: ctx.t('catalog:zonesTitle'),
        empty: ctx.t('catalog:noZones'),
        rows: items.map((zone) => ({ html: renderZone(ctx.t, ctx.locale, zone, currency?.currency_code) })),
      };
    },
  });

  router.on('priceList', (ctx, number, date) =>
    lists.show(ctx, priceListTariffs, `${number}.${date}`, 0, 'reply'),
  );
  router.on('choose', async (ctx, choice) => {
    const list = tariffLists.get(choice as TariffKind);
    if (list) await lists.show(ctx, list, '-', 0, 'reply');
  });

  composer.command('prices', async (ctx) => {
    const date = commandWords(ctx.payload)[0];
    if (date !== undefined && !isValidDate(date))
      throw new UserInputError('errors:badDate', { usageKey: 'catalog:usagePrices' });
    await lists.show(ctx, priceLists, String(dateToNumber(date)), 0, 'reply');
  });

  composer.command('tariffs', async (ctx) => {
    const kind = commandWords(ctx.payload)[0]?.toLowerCase();
    const list = kind === undefined ? undefined : tariffLists.get(kind as TariffKind);
    if (list) return lists.show(ctx, list, '-', 0, 'reply');
    if (kind !== undefined)
      throw new UserInputError('errors:badTariffKind', { usageKey: 'catalog:usageTariffs' });
    await ctx.reply(ctx.t('catalog:chooseTariffKind'), {
      ...Markup.inlineKeyboard(
        TARIFF_KINDS.map((k) =>
          Markup.button.callback(ctx.t(`catalog:kind.${k}`), encodeCallback('choose', k)),
        ),
      ),
    });
  });

  composer.command('zones', (ctx) => lists.show(ctx, zones, '-', 0, 'reply'));

  return composer;
}
