/*
 * The Mini App's API endpoints: what each needs of the member's role (the chat's capabilities,
 * `core/team.ts`) and what it answers. Thin: input read with zod or core, the partner API or a
 * service called with the chosen account's token, the answer as JSON. No answer carries a token.
 */
import { parseStartParam } from '../core/mini-app-launch.js';
import { type Capability, can, ROLES, rolesAllowed } from '../core/team.js';
import {
  checkCustomer,
  customerForm,
  deleteCustomer,
  getCustomer,
  listCustomers,
  pasteCustomer,
  saveCustomer,
} from './customer-endpoints.js';
import type { Endpoint, EndpointCall } from './endpoint-types.js';
import { catalogOf, domainCheckOf, submitOf } from './order-endpoints.js';
import { applyOf, checkLine, pasteOf, planOf, zoneOf } from './zone-endpoints.js';

export { type Endpoint, type EndpointCall, EndpointError, type MiniAppPartnerApi } from './endpoint-types.js';

/** Which roles may do what `need` allows, and the member's, in the user's words. */
const rolesWords = (call: EndpointCall, need: Capability) => ({
  roles: rolesAllowed(need)
    .map((role) => call.t(`team:role.${role}`))
    .join(', '),
  role: call.t(`team:role.${call.account.role}`),
});

/**
 * What the app may show and offer the member; the chat's own rules: DNS is `tech` work (/dns), a
 * look-up role sees the zone read-only (told which roles may change it), any other sees none;
 * saved customers are the chat's /requisites, `all` work (any other role is told who may).
 */
function sessionOf(call: EndpointCall) {
  const { launch, account, t } = call;
  const dns = can(account.role, 'tech') ? 'edit' : can(account.role, 'lookup') ? 'read' : 'none';
  const customers = can(account.role, 'all') ? 'edit' : 'none';
  return {
    user: { id: launch.userId, firstName: launch.user.firstName },
    account: {
      kind: account.kind,
      chatId: account.chatId,
      role: account.role,
      // The chat's word for the role (`team:role.*`): the app names it as the chat does.
      roleName: t(`team:role.${account.role}`),
    },
    capabilities: ROLES[account.role].capabilities,
    dns,
    ...(dns === 'read' ? { readOnlyReason: t('miniapp:readOnly', rolesWords(call, 'tech')) } : {}),
    customers,
    ...(customers === 'none'
      ? {
          customersRefusal: t('miniapp:customersRole', rolesWords(call, 'all')),
          // Ordering is `all` work too (the chat's /order): the order form says who may.
          orderRefusal: t('miniapp:orderRole', rolesWords(call, 'all')),
        }
      : {}),
    authDate: launch.authDate.toISOString(),
    // The screen a group's button opens, from the signed start parameter (a private chat's
    // button puts it in the page's address instead).
    ...(launch.startParam === undefined ? {} : { screen: parseStartParam(launch.startParam)?.screen }),
  };
}

/** The API, by path below `<app path>api/`. */
export const ENDPOINTS = {
  session: { method: 'GET', need: 'anyone', run: async (call) => sessionOf(call) },
  zone: { method: 'GET', need: 'lookup', run: zoneOf },
  'zone/check': { method: 'POST', need: 'tech', run: async (call) => checkLine(call) },
  'zone/plan': { method: 'POST', need: 'tech', run: planOf },
  'zone/paste': { method: 'POST', need: 'tech', run: pasteOf },
  'zone/apply': { method: 'POST', need: 'tech', run: applyOf },
  // Saved customers: the chat's /requisites, whose capability is `all`.
  customers: { method: 'GET', need: 'all', run: listCustomers },
  customer: { method: 'GET', need: 'all', run: getCustomer },
  'customer/form': { method: 'POST', need: 'all', run: async (call) => customerForm(call) },
  'customer/check': { method: 'POST', need: 'all', run: async (call) => checkCustomer(call) },
  'customer/save': { method: 'POST', need: 'all', run: saveCustomer },
  'customer/delete': { method: 'POST', need: 'all', run: deleteCustomer },
  'customer/paste': { method: 'POST', need: 'all', run: async (call) => pasteCustomer(call) },
  // The order form: the chat's /order, `all` work too (prices are a look-up, but the form orders).
  'order/catalog': { method: 'GET', need: 'all', run: catalogOf },
  'order/domain': { method: 'GET', need: 'all', run: domainCheckOf },
  'order/submit': { method: 'POST', need: 'all', run: submitOf },
} as const satisfies Record<string, Endpoint>;
