import { Composer, Markup } from 'telegraf';
import type { PartnerApi } from '../../api/index.js';
import { providerDateToMinutes } from '../../core/format.js';
import { productKindOf } from '../../core/product-kinds.js';
import { type BotContext, UserInputError } from '../context.js';
import { CallbackSet, type Feature } from '../feature.js';
import { encodeCallback } from '../keyboards/callback-data.js';
import { linkKeyboard } from '../keyboards/list.js';
import { ORDER_KINDS } from '../order-kinds.js';
import type { PagedList, PagedLists } from '../paged-list.js';
import { renderLink } from '../views/billing.js';
import {
  type AnyOrder,
  ORDER_LISTS,
  type OrderList,
  renderOrderDetails,
  renderOrderRow,
} from '../views/orders.js';
import { commandWords } from './arguments.js';

function loadOrders(api: PartnerApi, kind: OrderList, orderId?: number): Promise<AnyOrder[]> {
  const query = orderId === undefined ? {} : { order_id: orderId };
  return kind === 'all' ? api.listOrders(query) : ORDER_KINDS[kind].listOrders(api, query);
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
export function createOrdersFeature(deps: { lists: PagedLists }): Feature {
  const { lists } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  const orderLists = new Map<OrderList, PagedList>(
    ORDER_LISTS.map((kind) => [
      kind,
      lists.register({
        id: `o${kind}`,
        async load(ctx) {
          const api = await ctx.partnerApi();
          const [orders, names] = await Promise.all([loadOrders(api, kind), serviceNames(api)]);
          orders.sort(newestFirst);
          return {
            title: ctx.t(listTitleKey(kind)),
            empty: ctx.t('orders:none'),
            footer: [Markup.button.callback(ctx.t('orders:newOrder'), encodeCallback('orderStart', 'menu'))],
            rows: orders.map((order) => ({
              html: renderOrderRow(ctx.t, order, names.get(order.service_id)),
              button: Markup.button.callback(
                ctx.t('orders:button', { number: order.number }),
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
    const [[order], names] = await Promise.all([loadOrders(api, kind, orderId), serviceNames(api)]);
    if (!order) throw new UserInputError('orders:notFound', { id: orderId });
    // The general list has no `advanced`; ask the domain list whether this is a domain order.
    const domainOrder =
      kind === 'domain'
        ? order
        : kind === 'all'
          ? (await api.listDomainOrders({ order_id: orderId }))[0]
          : undefined;
    const shown = domainOrder ?? order;
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
    await ctx.reply(renderOrderDetails(ctx.t, shown, names.get(shown.service_id)), {
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
