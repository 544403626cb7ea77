import type { z } from 'zod';
import { type Caller, callGet, checkRequest } from './http.js';
import {
  type CurrencyQuery,
  currencyQuery,
  type DomainOrderRequest,
  domainOrderRequest,
  domainOrdersResponse,
  domainZonesResponse,
  type HostingOrderRequest,
  type HostingTariffQuery,
  hostingOrderRequest,
  hostingOrdersResponse,
  hostingTariffQuery,
  type MailOrderRequest,
  mailOrderRequest,
  mailOrdersResponse,
  type OrderKindQuery,
  type OrderQuery,
  orderCreated,
  orderKindQuery,
  orderQuery,
  ordersResponse,
  type SslOrderRequest,
  servicesResponse,
  sslOrderRequest,
  sslOrdersResponse,
  tariffsResponse,
} from './schemas/ordering.js';

/** Reference data, the five order lists and the four order creations. */
export function createOrderingApi(call: Caller) {
  // Creation is never retried by the transport: a repeated POST could create a second order.
  const create = async (operation: string, path: string, schema: z.ZodType, body: unknown) => {
    const info = { operation, method: 'POST', path } as const;
    const checked = checkRequest(info, schema, body);
    return call({ ...info, body: checked, response: orderCreated });
  };

  return {
    async listServices() {
      return (await callGet(call, 'listServices', '/v1/orders/services', servicesResponse)).services;
    },

    async listHostingTariffs(query: HostingTariffQuery = {}) {
      return (
        await callGet(call, 'listHostingTariffs', '/v1/orders/hostings/tariffs', tariffsResponse, {
          schema: hostingTariffQuery,
          value: query,
        })
      ).tariffs;
    },

    async listMailTariffs(query: CurrencyQuery = {}) {
      return (
        await callGet(call, 'listMailTariffs', '/v1/orders/corporate-mails/tariffs', tariffsResponse, {
          schema: currencyQuery,
          value: query,
        })
      ).tariffs;
    },

    async listSslTariffs(query: CurrencyQuery = {}) {
      return (
        await callGet(call, 'listSslTariffs', '/v1/orders/ssl-certificates/tariffs', tariffsResponse, {
          schema: currencyQuery,
          value: query,
        })
      ).tariffs;
    },

    async listDomainZones(query: CurrencyQuery = {}) {
      return (
        await callGet(call, 'listDomainZones', '/v1/orders/domains/zones', domainZonesResponse, {
          schema: currencyQuery,
          value: query,
        })
      ).domain_zones;
    },

    async listOrders(query: OrderQuery = {}) {
      return (
        await callGet(call, 'listOrders', '/v1/orders', ordersResponse, { schema: orderQuery, value: query })
      ).orders;
    },

    async listHostingOrders(query: OrderQuery = {}) {
      return (
        await callGet(call, 'listHostingOrders', '/v1/orders/hostings', hostingOrdersResponse, {
          schema: orderQuery,
          value: query,
        })
      ).orders;
    },

    async listMailOrders(query: OrderKindQuery = {}) {
      return (
        await callGet(call, 'listMailOrders', '/v1/orders/corporate-mails', mailOrdersResponse, {
          schema: orderKindQuery,
          value: query,
        })
      ).orders;
    },

    async listSslOrders(query: OrderKindQuery = {}) {
      return (
        await callGet(call, 'listSslOrders', '/v1/orders/ssl-certificates', sslOrdersResponse, {
          schema: orderKindQuery,
          value: query,
        })
      ).orders;
    },

    async listDomainOrders(query: OrderKindQuery = {}) {
      return (
        await callGet(call, 'listDomainOrders', '/v1/orders/domains', domainOrdersResponse, {
          schema: orderKindQuery,
          value: query,
        })
      ).orders;
    },

    createHostingOrder(request: HostingOrderRequest) {
      return create('createHostingOrder', '/v1/orders/hostings', hostingOrderRequest, request);
    },

    createMailOrder(request: MailOrderRequest) {
      return create('createMailOrder', '/v1/orders/corporate-mails', mailOrderRequest, request);
    },

    createSslOrder(request: SslOrderRequest) {
      return create('createSslOrder', '/v1/orders/ssl-certificates', sslOrderRequest, request);
    },

    createDomainOrder(request: DomainOrderRequest) {
      return create('createDomainOrder', '/v1/orders/domains', domainOrderRequest, request);
    },
  };
}

export type OrderingApi = ReturnType<typeof createOrderingApi>;
