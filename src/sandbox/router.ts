/** The 34 operations of partner-api.md: method, path pattern, handler. */

import {
  invoiceUrl,
  listCurrencies,
  listInvoices,
  listPartnerStatements,
  listPayments,
  listPriceLists,
  listStatements,
  partnerStatementUrl,
  priceListTariffs,
  statementUrl,
} from './billing.js';
import { listHostingTariffs, listMailTariffs, listServices, listSslTariffs, listZones } from './catalog.js';
import type { Handler } from './context.js';
import {
  addRecord,
  certificateUrl,
  checkDomains,
  deleteNameServers,
  deleteRecord,
  getNameServers,
  listRecords,
  RECORD_KIND_NAMES,
  setCustomNameServers,
  setEditorNameServers,
  setHostingNameServers,
} from './domains.js';
import {
  createDomainOrder,
  createHostingOrder,
  createMailOrder,
  createSslOrder,
  listAllOrders,
  listDomainOrders,
  listHostingOrders,
  listMailOrders,
  listSslOrders,
} from './orders.js';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Segments; `:name` captures one segment. */
  pattern: string;
  handler: Handler;
  /** The operation reads a JSON request body. */
  body?: boolean;
}

export const ROUTES: readonly Route[] = [
  // Billing (10)
  { method: 'GET', pattern: '/v1/billing/currencies', handler: listCurrencies },
  { method: 'GET', pattern: '/v1/billing/pricelists', handler: listPriceLists },
  { method: 'GET', pattern: '/v1/billing/pricelists/:number/tariffs', handler: priceListTariffs },
  { method: 'GET', pattern: '/v1/billing/invoices', handler: listInvoices },
  { method: 'GET', pattern: '/v1/billing/payments', handler: listPayments },
  { method: 'GET', pattern: '/v1/billing/statements', handler: listStatements },
  { method: 'GET', pattern: '/v1/billing/partner-statements', handler: listPartnerStatements },
  { method: 'GET', pattern: '/v1/billing/invoices/:id/url', handler: invoiceUrl },
  { method: 'GET', pattern: '/v1/billing/statements/:id/url', handler: statementUrl },
  { method: 'GET', pattern: '/v1/billing/partner-statements/:id/url', handler: partnerStatementUrl },
  // Ordering: reference data (5)
  { method: 'GET', pattern: '/v1/orders/services', handler: listServices },
  { method: 'GET', pattern: '/v1/orders/hostings/tariffs', handler: listHostingTariffs },
  { method: 'GET', pattern: '/v1/orders/corporate-mails/tariffs', handler: listMailTariffs },
  { method: 'GET', pattern: '/v1/orders/ssl-certificates/tariffs', handler: listSslTariffs },
  { method: 'GET', pattern: '/v1/orders/domains/zones', handler: listZones },
  // Ordering: lists (5) and creation (4)
  { method: 'GET', pattern: '/v1/orders', handler: listAllOrders },
  { method: 'GET', pattern: '/v1/orders/hostings', handler: listHostingOrders },
  { method: 'GET', pattern: '/v1/orders/corporate-mails', handler: listMailOrders },
  { method: 'GET', pattern: '/v1/orders/ssl-certificates', handler: listSslOrders },
  { method: 'GET', pattern: '/v1/orders/domains', handler: listDomainOrders },
  { method: 'POST', pattern: '/v1/orders/hostings', handler: createHostingOrder, body: true },
  { method: 'POST', pattern: '/v1/orders/corporate-mails', handler: createMailOrder, body: true },
  { method: 'POST', pattern: '/v1/orders/ssl-certificates', handler: createSslOrder, body: true },
  { method: 'POST', pattern: '/v1/orders/domains', handler: createDomainOrder, body: true },
  // Domains (10)
  { method: 'POST', pattern: '/v1/domains/check', handler: checkDomains, body: true },
  { method: 'GET', pattern: '/v1/domains/:orderId/certificate', handler: certificateUrl },
  { method: 'GET', pattern: '/v1/domains/:orderId/dns/servers', handler: getNameServers },
  { method: 'DELETE', pattern: '/v1/domains/:orderId/dns/servers', handler: deleteNameServers },
  { method: 'PUT', pattern: '/v1/domains/:orderId/dns/servers/hosting', handler: setHostingNameServers },
  { method: 'PUT', pattern: '/v1/domains/:orderId/dns/servers/editor', handler: setEditorNameServers },
  {
    method: 'PUT',
    pattern: '/v1/domains/:orderId/dns/servers/custom',
    handler: setCustomNameServers,
    body: true,
  },
  { method: 'GET', pattern: '/v1/domains/:orderId/dns/records', handler: listRecords },
  { method: 'POST', pattern: '/v1/domains/:orderId/dns/records/:kind', handler: addRecord, body: true },
  { method: 'DELETE', pattern: '/v1/domains/:orderId/dns/records/:kind/:id', handler: deleteRecord },
];

/** Allowed values of constrained path parameters; others do not match (→ 404). */
const CONSTRAINTS: Record<string, readonly string[]> = { kind: RECORD_KIND_NAMES };

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').slice(1);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] ?? '';
    if (part.startsWith(':')) {
      const name = part.slice(1);
      const allowed = CONSTRAINTS[name];
      if (segment === '' || (allowed !== undefined && !allowed.includes(segment))) return undefined;
      params[name] = segment;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

/** The operation for a method and path; undefined for an unknown path or a wrong method. */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  let segments: string[];
  try {
    segments = path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const params = matchPattern(route.pattern, segments);
    if (params !== undefined) return { route, params };
  }
  return undefined;
}
