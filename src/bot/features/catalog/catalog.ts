import { Composer, Markup } from 'telegraf';
import type { PartnerApi, Tariff } from '../../../api/index.js';
import { isValidDate } from '../../../core/format.js';
import { type ProductKind, productKindOf } from '../../../core/product-kinds.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { commandWords } from '../../kit/arguments.js';
import type { PagedList, PagedLists } from '../../kit/paged-list.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { loadCurrencyCodes } from '../billing/currencies.js';
import { ORDER_KINDS, TARIFF_KINDS } from '../ordering/kinds.js';
import {
  catalogColumns,
  priceListCells,
  renderPriceList,
  renderPriceListTariff,
  renderTariff,
  renderZone,
  tariffCells,
  zoneCells,
} from './views.js';

/** The currency prices are asked and shown in: the provider's first (the home currency). */
async function defaultCurrency(api: PartnerApi) {
  const [first] = await api.listCurrencies();
  return first;
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
export function createCatalogFeature(deps: { lists: PagedLists }): Feature {
  const { lists } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

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
        columns: catalogColumns(ctx.t, 'priceLists'),
        rows: items.map((list) => ({
          html: renderPriceList(ctx.t, list),
          cells: priceListCells(list),
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
        columns: catalogColumns(ctx.t, 'tariffs'),
        rows: list.tariffs.map((tariff) => ({
          html: renderPriceListTariff(ctx.t, ctx.locale, tariff, codes.get(tariff.currency_id)),
          cells: tariffCells(ctx.t, ctx.locale, tariff, codes.get(tariff.currency_id)),
        })),
      };
    },
  });

  const tariffLists = new Map<ProductKind, PagedList>();
  for (const kind of TARIFF_KINDS) {
    const tariffs = ORDER_KINDS[kind].tariffs;
    if (!tariffs) continue;
    tariffLists.set(
      kind,
      lists.register({
        id: `t${kind}`,
        perPage: 8,
        async load(ctx) {
          const api = await ctx.partnerApi();
          const currency = await defaultCurrency(api);
          const items: Tariff[] = await tariffs.list(
            api,
            currency === undefined ? {} : { currency_id: currency.currency_id },
          );
          return {
            title: ctx.t(tariffs.titleKey),
            empty: ctx.t('catalog:noTariffs'),
            columns: catalogColumns(ctx.t, 'tariffs'),
            rows: items.map((tariff) => ({
              html: renderTariff(ctx.t, ctx.locale, tariff, currency?.currency_code),
              cells: tariffCells(ctx.t, ctx.locale, tariff, currency?.currency_code),
            })),
          };
        },
      }),
    );
  }

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
        columns: catalogColumns(ctx.t, 'zones'),
        rows: items.map((zone) => ({
          html: renderZone(ctx.t, ctx.locale, zone, currency?.currency_code),
          cells: zoneCells(ctx.t, ctx.locale, zone, currency?.currency_code),
        })),
      };
    },
  });

  callbacks.on('priceList', (ctx, number, date) =>
    lists.show(ctx, priceListTariffs, `${number}.${date}`, 0, 'reply'),
  );
  callbacks.on('choose', async (ctx, choice) => {
    const kind = productKindOf(choice);
    const list = kind === undefined ? undefined : tariffLists.get(kind);
    if (list) await lists.show(ctx, list, '-', 0, 'reply');
  });

  composer.command('prices', async (ctx) => {
    const date = commandWords(ctx.payload)[0];
    if (date !== undefined && !isValidDate(date)) {
      // 31.02.2026 is written right; only the calendar has no such day.
      if (/^\d{2}\.\d{2}\.\d{4}$/.test(date)) throw new UserInputError('catalog:noSuchDate', { date });
      throw new UserInputError('errors:badDate', { usageKey: 'catalog:usagePrices' });
    }
    await lists.show(ctx, priceLists, String(dateToNumber(date)), 0, 'reply');
  });

  composer.command('tariffs', async (ctx) => {
    const word = commandWords(ctx.payload)[0]?.toLowerCase();
    const kind = productKindOf(word);
    const list = kind === undefined ? undefined : tariffLists.get(kind);
    if (list) return lists.show(ctx, list, '-', 0, 'reply');
    if (word !== undefined)
      throw new UserInputError('errors:badTariffKind', { usageKey: 'catalog:usageTariffs' });
    await ctx.reply(ctx.t('catalog:chooseTariffKind'), {
      ...Markup.inlineKeyboard(
        TARIFF_KINDS.flatMap((k) => {
          const tariffs = ORDER_KINDS[k].tariffs;
          return tariffs
            ? [Markup.button.callback(ctx.t(tariffs.buttonKey), encodeCallback('choose', k))]
            : [];
        }),
      ),
    });
  });

  composer.command('zones', (ctx) => lists.show(ctx, zones, '-', 0, 'reply'));

  return { name: 'catalog', composer, callbacks: callbacks.registrations, scenes: [] };
}
