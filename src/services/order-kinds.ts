/*
 * A product kind's provider calls: its order list, its create call, its tariff list. The chat's
 * kinds table (bot/features/ordering/kinds.ts) and the Mini App's order form both call the
 * provider through this one table, so a kind's calls are written once.
 */
import type {
  DomainOrderRequest,
  HostingOrderRequest,
  MailOrderRequest,
  OrderCreated,
  OrderKindQuery,
  PartnerApi,
  SslOrderRequest,
  Tariff,
} from '../api/index.js';
import type { ProductKind } from '../core/product-kinds.js';
import type { ListedOrder } from './order-submit.js';

/** What a tariff list is asked with. */
export interface TariffQuery {
  currency_id?: number;
  service_id?: number;
}

/** A kind's tariff list call. */
export type ListTariffs = (api: PartnerApi, query: TariffQuery) => Promise<Tariff[]>;

/** The request each kind's create call sends. */
export interface OrderRequests {
  domain: DomainOrderRequest;
  hosting: HostingOrderRequest;
  mail: MailOrderRequest;
  ssl: SslOrderRequest;
}

/** Each kind's order list, as the provider gives it (each with `advanced`: domain, tariff). */
export interface KindOrders {
  domain: Awaited<ReturnType<PartnerApi['listDomainOrders']>>;
  hosting: Awaited<ReturnType<PartnerApi['listHostingOrders']>>;
  mail: Awaited<ReturnType<PartnerApi['listMailOrders']>>;
  ssl: Awaited<ReturnType<PartnerApi['listSslOrders']>>;
}

interface KindCalls<K extends ProductKind> {
  /** The kind's orders: a new one is found among them after an unknown outcome. */
  listOrders(api: PartnerApi, query?: OrderKindQuery): Promise<KindOrders[K] & ListedOrder[]>;
  create(api: PartnerApi, request: OrderRequests[K]): Promise<OrderCreated>;
  /** The kind's tariffs; `null` for a kind priced by its zone (a domain). */
  listTariffs: ListTariffs | null;
}

export const ORDER_CALLS = {
  domain: {
    listOrders: (api, query) => api.listDomainOrders(query),
    create: (api, request) => api.createDomainOrder(request),
    listTariffs: null,
  },
  hosting: {
    listOrders: (api, query) => api.listHostingOrders(query),
    create: (api, request) => api.createHostingOrder(request),
    listTariffs: ((api, query) => api.listHostingTariffs(query)) satisfies ListTariffs,
  },
  mail: {
    listOrders: (api, query) => api.listMailOrders(query),
    create: (api, request) => api.createMailOrder(request),
    // Mail and SSL tariffs are listed per currency only: the provider refuses a service filter.
    listTariffs: (api, { currency_id }) =>
      api.listMailTariffs(currency_id === undefined ? {} : { currency_id }),
  },
  ssl: {
    listOrders: (api, query) => api.listSslOrders(query),
    create: (api, request) => api.createSslOrder(request),
    listTariffs: (api, { currency_id }) =>
      api.listSslTariffs(currency_id === undefined ? {} : { currency_id }),
  },
} satisfies { readonly [K in ProductKind]: KindCalls<K> };
