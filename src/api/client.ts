import { type BillingApi, createBillingApi } from './billing.js';
import { type DomainOrderIndex, type DomainOrderIndexQuery, indexDomainOrders } from './domain-index.js';
import { createDomainsApi, type DomainsApi } from './domains.js';
import type { Caller, PartnerTransport } from './http.js';
import { createOrderingApi, type OrderingApi } from './ordering.js';

/** Every operation of the partner API, bound to one partner's token, plus the domain order index. */
export type PartnerApi = BillingApi &
  OrderingApi &
  DomainsApi & {
    /** The domain orders by domain and by id: one list call (kept briefly by the cached client). */
    domainOrderIndex(query?: DomainOrderIndexQuery): Promise<DomainOrderIndex>;
  };

/**
 * A client for one token over a shared transport: cheap to create per chat, the keep-alive
 * pool stays shared. The token lives only in this closure and the request headers.
 */
export function createPartnerApi(transport: PartnerTransport, token: string): PartnerApi {
  const call: Caller = (spec) => transport.call(token, spec);
  const ordering = createOrderingApi(call);
  return {
    ...createBillingApi(call),
    ...ordering,
    ...createDomainsApi(call),
    domainOrderIndex: async () => indexDomainOrders(await ordering.listDomainOrders()),
  };
}
