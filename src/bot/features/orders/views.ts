import type { Order } from '../../../api/index.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { orderNumberOf } from '../../../core/order-number.js';
import { PRODUCT_KINDS, type ProductKind } from '../../../core/product-kinds.js';
import { cutGraphemes } from '../../../core/text.js';
import type { Translate } from '../../kit/i18n.js';
import { stateWord } from '../../kit/words.js';
import { formatPeriod } from '../catalog/views.js';

/** The order lists: one per product kind, and `all`, the general list without `advanced`. */
export const ORDER_LISTS = ['all', ...PRODUCT_KINDS] as const;
export type OrderList = ProductKind | 'all';

/** What any order list item may carry in `advanced`, whatever its kind. */
export type AnyOrder = Omit<Order, 'advanced'> & {
  advanced?:
    | {
        domain?: string | undefined;
        tariff_id?: number | undefined;
        use_csr?: boolean | undefined;
        registered?: boolean | undefined;
        renewed?: boolean | undefined;
        valid_from_date?: string | undefined;
        valid_till_date?: string | undefined;
      }
    | undefined;
};

function flags(t: Translate, order: AnyOrder): string {
  return [order.paid ? t('orders:paid') : t('orders:unpaid'), order.completed ? t('orders:completed') : '']
    .filter((s) => s !== '')
    .join(', ');
}

/** How much of a domain or service name an order's button carries. */
const BUTTON_SUBJECT = 32;

/** `№ ЗК-2026-001012 · example.by`: the number and what was ordered (the domain, else the service). */
export function orderButtonLabel(t: Translate, order: AnyOrder, serviceName: string | undefined): string {
  const domain = order.advanced?.domain;
  const subject = domain ? toUnicodeDomain(domain) : (serviceName ?? '');
  return t('orders:button', {
    number: orderNumberOf(order),
    subject: subject === '' ? '' : ` · ${cutGraphemes(subject, BUTTON_SUBJECT)}`,
  });
}

export function renderOrderRow(t: Translate, order: AnyOrder, serviceName: string | undefined): string {
  const domain = order.advanced?.domain;
  return t('orders:row', {
    number: escapeHtml(orderNumberOf(order)),
    id: order.order_id,
    service: escapeHtml(serviceName ?? order.service_id),
    subject: domain ? ` · ${escapeHtml(toUnicodeDomain(domain))}` : '',
    state: stateWord(t, order.state),
    date: escapeHtml(order.order_datetime),
    flags: flags(t, order),
  });
}

/** An order as a row of the orders table: number, service (and domain), state with flags, date. */
export function orderCells(t: Translate, order: AnyOrder, serviceName: string | undefined): string[] {
  const domain = order.advanced?.domain;
  return [
    `<b>${escapeHtml(orderNumberOf(order))}</b>`,
    `${escapeHtml(serviceName ?? order.service_id)}${domain ? `\n${escapeHtml(toUnicodeDomain(domain))}` : ''}`,
    `${stateWord(t, order.state)}\n${flags(t, order)}`,
    escapeHtml(order.order_datetime),
  ];
}

export const ORDER_COLUMNS = ['number', 'service', 'state', 'date'].map((c) => `orders:column.${c}`);

export function renderOrderDetails(
  t: Translate,
  order: AnyOrder,
  serviceName: string | undefined,
  tariffName?: string,
  /** The domain the bot sent when it created the order, where the list has none. */
  knownDomain?: string,
): string {
  const lines = [
    t('orders:detailsTitle', { number: escapeHtml(orderNumberOf(order)), id: order.order_id }),
    t('orders:detailService', { service: escapeHtml(serviceName ?? order.service_id) }),
    t('orders:detailState', { state: stateWord(t, order.state), flags: flags(t, order) }),
    t('orders:detailPlaced', { date: escapeHtml(order.order_datetime) }),
    t('orders:detailPeriod', { period: formatPeriod(t, order.period_unit_type, order.period_unit_count) }),
  ];
  if (order.complete_date) lines.push(t('orders:detailCompleted', { date: escapeHtml(order.complete_date) }));
  if (order.expiration_date)
    lines.push(t('orders:detailExpires', { date: escapeHtml(order.expiration_date) }));
  const advanced = order.advanced;
  const domain = advanced?.domain ?? knownDomain;
  if (domain) lines.push(t('orders:detailDomain', { domain: escapeHtml(toUnicodeDomain(domain)) }));
  if (advanced?.tariff_id !== undefined) {
    // The tariff by name where the list knows it; its id only as the last resort.
    const tariff = tariffName ? escapeHtml(tariffName) : t('orders:tariffId', { id: advanced.tariff_id });
    lines.push(t('orders:detailTariff', { tariff }));
  }
  if (advanced?.use_csr) lines.push(t('orders:detailCsr'));
  if (advanced?.valid_from_date || advanced?.valid_till_date) {
    lines.push(
      t('orders:detailValidity', {
        from: escapeHtml(advanced.valid_from_date ?? '—'),
        till: escapeHtml(advanced.valid_till_date ?? '—'),
      }),
    );
  }
  return lines.join('\n');
}
