/**
 * The number an order is shown by, on every screen: the provider's own (`ЗК-2026-001101`), the one
 * its clients see on their invoices and the one an order is searched by. Its id (`1101`) is the
 * API's handle; it stands in only while the number is not known (a lookup failed), so a partner
 * never meets one order under two numbers.
 */
export function orderNumberOf(order: { number?: string | undefined; order_id?: number | undefined }): string {
  if (order.number !== undefined && order.number !== '') return order.number;
  return order.order_id === undefined ? '—' : String(order.order_id);
}
