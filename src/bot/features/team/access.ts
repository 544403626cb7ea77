import type { Capability } from '../../../core/team.js';
import type { BotSession } from '../../context.js';
import { type FlowKind, ORDER_SCENE, readDraft } from '../../forms/types.js';
import type { MenuCommand } from '../../kit/menu.js';
import { ACTIONS, type CallbackAction } from '../../registry.js';

/**
 * What each command needs in a bound group (roles in `core/team.ts`). Exhaustive: a new menu
 * command fails `tsc` here until it is classified.
 */
export const COMMAND_CAPABILITIES = {
  start: 'anyone',
  help: 'anyone',
  cancel: 'anyone',
  // Refused in groups by the command itself; nothing to guard.
  token: 'anyone',
  // Refused in groups by the command itself (a group works with the one account its owner bound).
  accounts: 'anyone',
  // The team screen answers everyone; changing roles and `/team off` check the owner themselves.
  team: 'anyone',
  prices: 'lookup',
  tariffs: 'lookup',
  zones: 'lookup',
  orders: 'lookup',
  invoices: 'billing',
  invoice: 'billing',
  payments: 'billing',
  statements: 'billing',
  statement: 'billing',
  partner_statements: 'billing',
  partner_statement: 'billing',
  notify: 'billing',
  dns: 'tech',
  ns: 'tech',
  cert: 'tech',
  keys: 'tech',
  check: 'tech',
  order: 'all',
  requisites: 'all',
  lang: 'all',
  // In a group it forgets the group (its token, its team): the owner's decision.
  logout: 'roles',
} as const satisfies Record<MenuCommand, Capability>;

/**
 * What each guided form needs (the buttons of its screens included): a DNS record's form is
 * technical work, the rest are orders and requisites. A new kind fails `tsc` here until classified.
 */
export const FORM_CAPABILITIES = {
  domain: 'all',
  hosting: 'all',
  mail: 'all',
  ssl: 'all',
  profile: 'all',
  dnsAdd: 'tech',
  dnsChange: 'tech',
  keyNew: 'tech',
} as const satisfies Record<FlowKind, Capability>;

/**
 * What a button needs; for the order engine's buttons, what the member's open form needs (none
 * open, or one this version cannot read: undefined, and the engine tells the button is stale).
 */
export function actionCapability(
  action: CallbackAction,
  session: BotSession | undefined,
): Capability | undefined {
  const need = ACTIONS[action].need;
  if (need !== 'openForm') return need;
  const scenes = session?.__scenes;
  const draft = scenes?.current === ORDER_SCENE && scenes.state ? readDraft(scenes.state) : undefined;
  return draft === undefined || draft === 'outdated' ? undefined : FORM_CAPABILITIES[draft.kind];
}

const isMenuCommand = (name: string): name is MenuCommand => Object.hasOwn(COMMAND_CAPABILITIES, name);

/** What a command needs; undefined for a command the bot does not have (the fallback answers it). */
export function commandCapability(name: string): Capability | undefined {
  return isMenuCommand(name) ? COMMAND_CAPABILITIES[name] : undefined;
}
