/*
 * The Mini App's API endpoints: what each needs of the member's role (the chat's capabilities,
 * `core/team.ts`) and what it answers. Thin: input read with zod or core, the partner API or a
 * service called with the chosen account's token, the answer as JSON. No answer carries a token.
 */
import { parseStartParam } from '../core/mini-app-launch.js';
import { type Capability, can, ROLES, rolesAllowed } from '../core/team.js';
import { invoicesOf, linkOf, shareOf, statementFileOf, statementsOf } from './billing-endpoints.js';
import type { AnswerOf, EndpointName } from './contract.js';
import {
  checkCustomer,
  customerForm,
  deleteCustomer,
  getCustomer,
  listCustomers,
  pasteCustomer,
  saveCustomer,
} from './customer-endpoints.js';
import type { CallOf, Endpoint, EndpointCall } from './endpoint-types.js';
import { changesOf, expiringOf, owedOf } from './home-endpoints.js';
import { catalogOf, domainCheckOf, submitOf } from './order-endpoints.js';
import { applyOf, checkLine, domainsOf, pasteOf, planOf, zoneOf } from './zone-endpoints.js';

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
function sessionOf(call: CallOf<'session'>): AnswerOf<'session'> {
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
      n: account.n,
      label: account.name ?? t('accounts:numbered', { n: account.n }),
      accounts: account.count,
    },
    capabilities: [...ROLES[account.role].capabilities],
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
    ...screenOf(launch.startParam),
  };
}

/**
 * The accounts the app's header switches between, labelled as the chat labels them; `active`: the
 * chat's active one (what the app opens on). Switching is the app's own: the chat's active
 * account stays as it is.
 */
async function accountsList(call: CallOf<'accounts'>): Promise<AnswerOf<'accounts'>> {
  const all = await call.listAccounts();
  return {
    accounts: all.map((a) => ({ n: a.n, label: a.name ?? call.t('accounts:numbered', { n: a.n }) })),
    active: all.find((a) => a.active)?.n ?? call.account.n,
  };
}

/** The screen a group's button opens, from the signed start parameter. */
function screenOf(startParam: string | undefined) {
  const screen = startParam === undefined ? undefined : parseStartParam(startParam)?.screen;
  return screen === undefined ? {} : { screen };
}

/**
 * The API, by path below `<app path>api/`: what each endpoint needs of the member's role and what
 * it runs. Its method, request and answer are the contract's (contract.ts); an endpoint missing
 * here, or answering another shape, fails `tsc`.
 */
export const ENDPOINTS: { [N in EndpointName]: Endpoint<N> } = {
  session: { need: 'anyone', run: sessionOf },
  accounts: { need: 'anyone', run: accountsList },
  zone: { need: 'lookup', run: zoneOf },
  'zone/domains': { need: 'lookup', run: domainsOf },
  'zone/check': { need: 'tech', run: checkLine },
  'zone/plan': { need: 'tech', run: planOf },
  'zone/paste': { need: 'tech', run: pasteOf },
  'zone/apply': { need: 'tech', run: applyOf },
  // Saved customers: the chat's /requisites, whose capability is `all`.
  customers: { need: 'all', run: listCustomers },
  customer: { need: 'all', run: getCustomer },
  'customer/form': { need: 'all', run: customerForm },
  'customer/check': { need: 'all', run: checkCustomer },
  'customer/save': { need: 'all', run: saveCustomer },
  'customer/delete': { need: 'all', run: deleteCustomer },
  'customer/paste': { need: 'all', run: pasteCustomer },
  // The order form: the chat's /order, `all` work too (prices are a look-up, but the form orders).
  'order/catalog': { need: 'all', run: catalogOf },
  'order/domain': { need: 'all', run: domainCheckOf },
  'order/submit': { need: 'all', run: submitOf },
  // «Счета»: the chat's /invoices, /invoice, /statements — `billing` work (owner, admin, accountant).
  'billing/invoices': { need: 'billing', run: invoicesOf },
  'billing/link': { need: 'billing', run: linkOf },
  'billing/share': { need: 'billing', run: shareOf },
  'billing/statements': { need: 'billing', run: statementsOf },
  'billing/statement-file': { need: 'billing', run: statementFileOf },
  // The home: what is owed is billing; the domains and the DNS history are a look-up.
  'home/owed': { need: 'billing', run: owedOf },
  'home/expiring': { need: 'lookup', run: expiringOf },
  'home/changes': { need: 'lookup', run: changesOf },
};
