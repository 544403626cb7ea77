import type {
  DomainOrderRequest,
  HostingOrderRequest,
  MailOrderRequest,
  OrderCreated,
  OrderKindQuery,
  PartnerApi,
  SslOrderRequest,
} from '../../../api/index.js';
import { PRODUCT_KINDS, type ProductKind } from '../../../core/product-kinds.js';
import { type ListTariffs, ORDER_CALLS } from '../../../services/order-kinds.js';
import type { OrderFlow, ProductForm } from '../../forms/types.js';
import type { AnyOrder } from '../orders/views.js';
import { createDomainForm, DOMAIN_NAME } from './domain-flow.js';
import { HOSTING_DOMAIN, SSL_SUBJECT } from './subject-steps.js';
import { createHostingForm, createMailForm, createSslForm } from './tariff-flow.js';

/**
 * Everything the bot knows about one kind of product. Adding a kind: its name in
 * `core/product-kinds.ts`, one entry here, its form (a flow in `features/ordering/`), its API methods
 * and its locale keys; `tsc` then points at nothing else, as every lookup goes through this table.
 */
interface KindSpec<Req> {
  /** i18n keys: the menu button, the `/orders <kind>` title. */
  labelKey: `order:kind.${ProductKind}`;
  listTitleKey: `orders:title.${ProductKind}`;
  /** The kind's orders, with `advanced` (domain, tariff). */
  listOrders(api: PartnerApi, query?: OrderKindQuery): Promise<AnyOrder[]>;
  /**
   * The kind's tariffs for `/tariffs`: the list call, the list's title and the choice button's
   * i18n keys; `null` for a kind priced otherwise (a domain: by its zone, `/zones`).
   */
  tariffs: {
    list: ListTariffs;
    titleKey: `catalog:tariffsTitle.${ProductKind}`;
    buttonKey: `catalog:kind.${ProductKind}`;
  } | null;
  /** Sends the request the kind's form built. */
  create(api: PartnerApi, request: Req): Promise<OrderCreated>;
  /** The guided form; its `request` is checked by `tsc` against `create`'s request type. */
  form(): ProductForm<Req>;
  /** The step the word after `/order <kind>` answers (`/order domain example.by`), if any. */
  prefillStep: string | null;
  /** The domain a request names where the kind's order list will not show it (hosting, SSL). */
  domainOf?(request: Req): string | undefined;
}

/** A kind as the bot uses it: the spec with its form joined to its create call. */
export interface KindEntry extends Omit<KindSpec<unknown>, 'create' | 'form'> {
  flow: OrderFlow;
}

function defineKind<Req>(spec: KindSpec<Req>): KindEntry {
  const { create, form: makeForm, ...rest } = spec;
  const { request, ...form } = makeForm();
  return {
    ...rest,
    flow: {
      ...form,
      submit: async (env) => {
        const built = await request(env);
        const created = await create(env.api, built);
        const domain = spec.domainOf?.(built);
        if (domain !== undefined && created.order_id !== undefined && env.ctx.chat !== undefined) {
          await env.chatData.rememberOrderDomain(env.ctx.chat.id, created.order_id, domain);
        }
        return created;
      },
      listOrders: (api) => spec.listOrders(api),
    },
  };
}

const hostingTariffs: ListTariffs = ORDER_CALLS.hosting.listTariffs;
const mailTariffs: ListTariffs = ORDER_CALLS.mail.listTariffs;
const sslTariffs: ListTariffs = ORDER_CALLS.ssl.listTariffs;

/** The one table of product kinds. */
export const ORDER_KINDS = {
  domain: defineKind<DomainOrderRequest>({
    labelKey: 'order:kind.domain',
    listTitleKey: 'orders:title.domain',
    listOrders: ORDER_CALLS.domain.listOrders,
    tariffs: null,
    create: ORDER_CALLS.domain.create,
    form: createDomainForm,
    prefillStep: DOMAIN_NAME,
  }),
  hosting: defineKind<HostingOrderRequest>({
    labelKey: 'order:kind.hosting',
    listTitleKey: 'orders:title.hosting',
    listOrders: ORDER_CALLS.hosting.listOrders,
    tariffs: {
      list: hostingTariffs,
      titleKey: 'catalog:tariffsTitle.hosting',
      buttonKey: 'catalog:kind.hosting',
    },
    create: ORDER_CALLS.hosting.create,
    form: () => createHostingForm(hostingTariffs),
    prefillStep: HOSTING_DOMAIN,
    domainOf: (request) => request.domain,
  }),
  mail: defineKind<MailOrderRequest>({
    labelKey: 'order:kind.mail',
    listTitleKey: 'orders:title.mail',
    listOrders: ORDER_CALLS.mail.listOrders,
    tariffs: {
      list: mailTariffs,
      titleKey: 'catalog:tariffsTitle.mail',
      buttonKey: 'catalog:kind.mail',
    },
    create: ORDER_CALLS.mail.create,
    form: () => createMailForm(mailTariffs),
    prefillStep: null,
  }),
  ssl: defineKind<SslOrderRequest>({
    labelKey: 'order:kind.ssl',
    listTitleKey: 'orders:title.ssl',
    listOrders: ORDER_CALLS.ssl.listOrders,
    tariffs: {
      list: sslTariffs,
      titleKey: 'catalog:tariffsTitle.ssl',
      buttonKey: 'catalog:kind.ssl',
    },
    create: ORDER_CALLS.ssl.create,
    form: () => createSslForm(sslTariffs),
    prefillStep: SSL_SUBJECT,
    domainOf: (request) => request.domain,
  }),
} as const satisfies Record<ProductKind, KindEntry>;

/** The kind's entry: a table lookup, so every kind has one. */
export function orderKind(kind: ProductKind): KindEntry {
  return ORDER_KINDS[kind];
}

/** Kinds with a tariff list, in the table's order (`/tariffs`). */
export const TARIFF_KINDS: readonly ProductKind[] = PRODUCT_KINDS.filter(
  (kind) => ORDER_KINDS[kind].tariffs !== null,
);
