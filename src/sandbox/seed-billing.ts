/** The sandbox seed's money: an invoice per order, payments, statements and the partner's monthly statements. */
import type { Invoice, Order, PartnerStatement, Payment, Statement, Tariff, Zone } from './state.js';
import { money } from './state.js';

function priceOf(tariffs: Tariff[], zoneList: Zone[], o: Order): number {
  const details = o.details;
  if (details.kind === 'domain') {
    const zone = zoneList.find((z) => z.actual_registration_tariff_id === details.registration_tariff_id);
    return money((zone?.registration_price ?? 0) * o.period_unit_count);
  }
  const tariff = tariffs.find((t) => t.tariff_id === details.tariff_id);
  return tariff?.prices.find((p) => p.period === o.period_unit_count)?.price ?? 0;
}

function shiftDate(date: string, days: number): string {
  const [d, m, y] = date.split('.').map(Number);
  const shifted = new Date(Date.UTC(y ?? 2026, (m ?? 1) - 1, (d ?? 1) + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(shifted.getUTCDate())}.${pad(shifted.getUTCMonth() + 1)}.${shifted.getUTCFullYear()}`;
}

export function invoices(orderList: Order[], tariffs: Tariff[], zoneList: Zone[]): Invoice[] {
  return orderList.map((o) => {
    const id = o.owner === 'foreign' ? (o.order_id === 9001 ? 9101 : 9102) : o.order_id + 4000;
    const created = o.order_datetime.slice(0, 10);
    return {
      invoice_id: id,
      owner: o.owner,
      invoice_number: `СФ-${created.slice(6)}-${id}`,
      order_id: o.order_id,
      creation_date: created,
      expiration_date: shiftDate(created, 5),
      amount: priceOf(tariffs, zoneList, o),
      currency_id: o.currency_id,
      state: o.paid ? 'Paid' : 'WaitingForPayment',
    };
  });
}

export function payments(invoiceList: Invoice[], firstId = 7001): Payment[] {
  const list: Payment[] = [];
  let id = firstId;
  for (const invoice of invoiceList) {
    if (invoice.state !== 'Paid' || invoice.owner === 'foreign') continue;
    const paidOn = shiftDate(invoice.creation_date, 1);
    if (invoice.invoice_id === 5001) {
      // Paid in two parts.
      const first = money(invoice.amount / 2);
      list.push({
        payment_id: id++,
        invoice_id: invoice.invoice_id,
        payment_date: invoice.creation_date,
        amount: first,
      });
      list.push({
        payment_id: id++,
        invoice_id: invoice.invoice_id,
        payment_date: paidOn,
        amount: money(invoice.amount - first),
      });
    } else {
      list.push({
        payment_id: id++,
        invoice_id: invoice.invoice_id,
        payment_date: paidOn,
        amount: invoice.amount,
      });
    }
  }
  return list;
}

export function statements(orderList: Order[], invoiceList: Invoice[], firstId = 8001): Statement[] {
  const list: Statement[] = [];
  let id = firstId;
  for (const o of orderList) {
    if (!o.completed || o.complete_date === null) continue;
    const invoice = invoiceList.find((i) => i.order_id === o.order_id);
    const statementId = o.owner === 'foreign' ? 9201 : id++;
    list.push({
      statement_id: statementId,
      owner: o.owner,
      statement_number: `АКТ-${o.complete_date.slice(6)}-${statementId}`,
      order_id: o.order_id,
      from_date: o.complete_date,
      to_date: o.expiration_date ?? o.complete_date,
      amount: invoice?.amount ?? 0,
      currency_id: o.currency_id,
    });
  }
  return list;
}

export function partnerStatements(firstId = 8501): PartnerStatement[] {
  const lastDay = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31];
  return lastDay.map((days, index) => {
    const month = String(index + 1).padStart(2, '0');
    return {
      partner_statement_id: firstId + index,
      partner_statement_number: `ОП-2026-${month}`,
      from_date: `01.${month}.2026`,
      to_date: `${days}.${month}.2026`,
    };
  });
}
