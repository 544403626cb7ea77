import type { Capability } from '../core/team.js';
import { ACCOUNTS_ACTIONS } from './features/accounts/actions.js';
import { BILLING_ACTIONS } from './features/billing/actions.js';
import { CATALOG_ACTIONS } from './features/catalog/actions.js';
import { DNS_ACTIONS } from './features/dns/actions.js';
import { FREE_TEXT_ACTIONS } from './features/free-text/actions.js';
import { KEYS_ACTIONS } from './features/keys/actions.js';
import { NOTIFY_ACTIONS } from './features/notify/actions.js';
import { ONBOARDING_ACTIONS } from './features/onboarding/actions.js';
import { ORDERING_ACTIONS } from './features/ordering/actions.js';
import { ORDERS_ACTIONS } from './features/orders/actions.js';
import { TEAM_ACTIONS } from './features/team/actions.js';
import { FORM_ACTIONS } from './forms/actions.js';
import { KIT_ACTIONS } from './kit/actions.js';
import {
  type CallbackCodec,
  createCallbackCodec,
  mergeActionTables,
  type ArgsOf as TableArgsOf,
} from './kit/callback-data.js';
import type { CallbackRouter } from './kit/callback-router.js';
import {
  type CallbackRegistrar as KitCallbackRegistrar,
  CallbackSet as KitCallbackSet,
  type Feature as KitFeature,
} from './kit/feature.js';

/*
 * The feature registry: every button of the bot, from the features' own tables, and the kit's
 * generic pieces bound to them, so a feature names an action, its arguments and its handler with
 * the types checked end to end.
 */

/**
 * Every button of the bot: the features' own tables, merged (a name or code declared twice
 * throws at start). Each action says who may press it in a bound group (`core/team.ts`), or that
 * it needs what the member's open form needs: a role the team does not know fails `tsc` here.
 */
export const ACTIONS = mergeActionTables(
  KIT_ACTIONS,
  FORM_ACTIONS,
  ONBOARDING_ACTIONS,
  BILLING_ACTIONS,
  CATALOG_ACTIONS,
  ORDERS_ACTIONS,
  ORDERING_ACTIONS,
  DNS_ACTIONS,
  NOTIFY_ACTIONS,
  TEAM_ACTIONS,
  KEYS_ACTIONS,
  ACCOUNTS_ACTIONS,
  FREE_TEXT_ACTIONS,
) satisfies Record<string, { need: Capability | 'openForm' }>;

/** The bot's actions and their arguments. */
export type Actions = typeof ACTIONS;
export type CallbackAction = keyof Actions & string;
export type ArgsOf<A extends CallbackAction> = TableArgsOf<Actions, A>;

/** The codec of every button (the router decodes with it). */
export const callbackCodec: CallbackCodec<Actions> = createCallbackCodec(ACTIONS);
/** Builds a button's data; throws when it would break Telegram's limit (a programming error). */
export const encodeCallback = callbackCodec.encode;
/** Reads a button's data back; `undefined` for anything stale, foreign or malformed. */
export const decodeCallback = callbackCodec.decode;
/** Whether a button's data would be within Telegram's limit (a word as long as a domain may not be). */
export const callbackFits = callbackCodec.fits;

/** A feature of this bot: its commands, its buttons (of `ACTIONS`) and its scenes. */
export type Feature = KitFeature<Actions>;
/** Where a feature's parts declare their button handlers. */
export type CallbackRegistrar = KitCallbackRegistrar<Actions>;
/** A feature's own button handlers, handed to the router by `createBot`. */
export class CallbackSet extends KitCallbackSet<Actions> {}
/** The router of this bot's buttons. */
export type BotCallbackRouter = CallbackRouter<Actions>;
