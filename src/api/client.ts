import { type BillingApi, createBillingApi } from './billing.js';
import { createDomainsApi, type DomainsApi } from './domains.js';
import type { Caller, PartnerTransport } from './http.js';
import { createOrderingApi, type OrderingApi } from './ordering.js';

/** Every operation of the partner API, bound to one partner's token. */
export type PartnerApi = BillingApi & OrderingApi & DomainsApi;

/**
 * A client for one token over a shared transport: cheap to create per chat, the keep-alive
 * pool stays shared. The token lives only in this closure and the request headers.
 */
export function createPartnerApi(transport: PartnerTransport, token: string): PartnerApi {
  const call: Caller = (spec) => transport.call(token, spec);
  return { ...createBillingApi(call), ...createOrderingApi(call), ...createDomainsApi(call) };
}
