import { Composer, Markup } from 'telegraf';
import type { PartnerApi } from '../../../api/index.js';
import { providerDateToMinutes } from '../../../core/format.js';
import { PRODUCT_KINDS, type ProductKind, productKindOf } from '../../../core/product-kinds.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { commandWords } from '../../kit/arguments.js';
import { linkKeyboard } from '../../kit/keyboards.js';
import type { PagedList, PagedLists } from '../../kit/paged-list.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { renderLink } from '../billing/views.js';
import { ORDER_KINDS } from '../ordering/kinds.js';
import {
  type AnyOrder,
  ORDER_COLUMNS,
  ORDER_LISTS,
  type OrderList,
  orderButtonLabel,
  orderCells,
  renderOrderDetails,
  renderOrderRow,
} from './views.js';

function loadOrders(api: PartnerApi, kind: OrderList, orderId?: number): Promise<AnyOrder[]> {
  const query = orderId === undefined ? {} : { order_id: orderId };
  return kind === 'all' ? loadAllOrders(api, orderId) : ORDER_KINDS[kind].listOrders(api, query);
}

/**
 * The general list, each order with the `advanced` part (its domain) its kind's list gives: the
 * general list has none, and a partner knows an order by its domain more than by its number.
 */
async function loadAllOrders(api: PartnerApi, orderId?: number): Promise<AnyOrder[]> {
  const query = orderId === undefined ? {} : { order_id: orderId };
  const [orders, ...byKind] = await Promise.all([
    api.listOrders(query),
    ...PRODUCT_KINDS.map((kind) => ORDER_KINDS[kind].listOrders(api, query)),
  ]);
  const detailed = new Map(byKind.flat().map((order) => [order.order_id, order]));
  return orders.map((order) => detailed.get(order.order_id) ?? order);
}

/** The name of an order's tariff from the kind's (cached) tariff list; undefined when unknown. */
async function tariffNameOf(
  api: PartnerApi,
  kind: ProductKind,
  order: AnyOrder,
): Promise<string | undefined> {
  const tariffId = order.advanced?.tariff_id;
  const tariffs = ORDER_KINDS[kind].tariffs;
  if (tariffId === undefined || !tariffs) return undefined;
  const list = await tariffs.list(api, {}).catch(() => []);
  return list.find((tariff) => tariff.tariff_id === tariffId)?.tariff_name;
}

/** The kind whose list holds the order, with the order as that list gives it. */
async function findKindOrder(
  api: PartnerApi,
  orderId: number,
): Promise<{ kind: ProductKind; order: AnyOrder } | undefined> {
  const found = await Promise.all(
    PRODUCT_KINDS.map(async (kind) => {
      const [order] = await ORDER_KINDS[kind].listOrders(api, { order_id: orderId });
      return order ? { kind, order } : undefined;
    }),
  );
  return found.find((entry) => entry !== undefined);
}

/** The title of a list: a kind's from the registry, the general one's own. */
const listTitleKey = (kind: OrderList) =>
  kind === 'all' ? 'orders:title.all' : ORDER_KINDS[kind].listTitleKey;

/**
 * The list `/orders <word>` names: a kind (compared, never looked up as a property, so a word
 * such as `__proto__` finds nothing), `all` without a word, `undefined` for anything else.
 */
function listOf(word: string | undefined): OrderList | undefined {
  return word === undefined ? 'all' : productKindOf(word);
}

async function serviceNames(api: PartnerApi): Promise<Map<string, string>> {
  return new Map((await api.listServices()).map((s) => [s.service_id, s.name]));
}

/** Newest first: by placing time, then by id (the provider's order is not specified). */
function newestFirst(a: AnyOrder, b: AnyOrder): number {
  const byDate =
    (providerDateToMinutes(b.order_datetime) || 0) - (providerDateToMinutes(a.order_datetime) || 0);
  return byDate !== 0 ? byDate : b.order_id - a.order_id;
}

/** /orders [kind], order details, and the certificate link of a domain order. */
export function createOrdersFeature(deps: { lists: PagedLists; chatData: ChatData }): Feature {
  const { lists } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  const orderLists = new Map<OrderList, PagedList>(
    ORDER_LISTS.map((kind) => [
      kind,
      lists.register({
        id: `o${kind}`,
        buttonsPerRow: 1,
        async load(ctx) {
          const api = await ctx.partnerApi();
          const [orders, names] = await Promise.all([loadOrders(api, kind), serviceNames(api)]);
          orders.sort(newestFirst);
          return {
            title: ctx.t(listTitleKey(kind)),
            empty: ctx.t('orders:none'),
            columns: ORDER_COLUMNS.map((key) => ctx.t(key)),
            footer: [Markup.button.callback(ctx.t('orders:newOrder'), encodeCallback('orderStart', 'menu'))],
            rows: orders.map((order) => ({
              html: renderOrderRow(ctx.t, order, names.get(order.service_id)),
              cells: orderCells(ctx.t, order, names.get(order.service_id)),
              button: Markup.button.callback(
                orderButtonLabel(ctx.t, order, names.get(order.service_id)),
                encodeCallback('order', kind, order.order_id),
              ),
            })),
          };
        },
      }),
    ]),
  );

  callbacks.on('order', async (ctx, kindWord, orderId) => {
    const kind = productKindOf(kindWord) ?? 'all';
    const api = await ctx.partnerApi();
    // From the general list, the order's kind is found by asking the kinds' lists (they carry
    // `advanced`: the domain of a domain, hosting, mail or SSL order).
    const [found, names] = await Promise.all([
      kind === 'all'
        ? findKindOrder(api, orderId)
        : loadOrders(api, kind, orderId).then(([order]) => (order ? { kind, order } : undefined)),
      serviceNames(api),
    ]);
    const shown =
      found?.order ?? (kind === 'all' ? (await api.listOrders({ order_id: orderId }))[0] : undefined);
    if (!shown) throw new UserInputError('orders:notFound', { id: orderId });
    const domainOrder = found?.kind === 'domain';
    const tariffName = found ? await tariffNameOf(api, found.kind, shown) : undefined;
    const buttons = [
      [Markup.button.callback(ctx.t('orders:invoicesButton'), encodeCallback('orderInvoices', orderId))],
    ];
    if (domainOrder) {
      buttons.push([
        Markup.button.callback(ctx.t('orders:dnsButton'), encodeCallback('dns', orderId)),
        Markup.button.callback(ctx.t('orders:nsButton'), encodeCallback('nameServers', orderId)),
      ]);
      buttons.push([
        Markup.button.callback(ctx.t('orders:certificateButton'), encodeCallback('certificate', orderId)),
      ]);
    }
    const knownDomain =
      shown.advanced?.domain === undefined && ctx.chat !== undefined
        ? await deps.chatData.getOrderDomain(ctx.chat.id, orderId)
        : undefined;
    await ctx.reply(renderOrderDetails(ctx.t, shown, names.get(shown.service_id), tariffName, knownDomain), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard(buttons),
    });
  });

  callbacks.on('certificate', async (ctx, orderId) => {
    const url = await (await ctx.partnerApi()).getDomainCertificateUrl(orderId);
    await ctx.reply(renderLink(ctx.t, 'orders:certificateLink', { id: orderId }, url), {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...linkKeyboard(ctx.t('common:openLink'), url),
    });
  });

  composer.command('orders', async (ctx) => {
    const word = commandWords(ctx.payload)[0]?.toLowerCase();
    const kind = listOf(word);
    if (kind === undefined) throw new UserInputError('errors:badOrderKind', { usageKey: 'orders:usage' });
    const list = orderLists.get(kind);
    if (list) await lists.show(ctx, list, '-', 0, 'reply');
  });

  return { name: 'orders', composer, callbacks: callbacks.registrations, scenes: [] };
}
