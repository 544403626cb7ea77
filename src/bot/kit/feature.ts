import type { Composer, Scenes } from 'telegraf';
import type { BotContext } from '../context.js';
import type { CallbackAction } from './callback-data.js';
import type { CallbackHandler, CallbackRouter } from './callback-router.js';

/** Where button handlers are declared: the router itself, or a feature's own `CallbackSet`. */
export interface CallbackRegistrar {
  on<A extends CallbackAction>(
    action: A,
    handler: CallbackHandler<A>,
    options?: { selfAnswer?: boolean },
  ): this;
}

/** One button handler a feature claims; it reaches the router only when `createBot` wires it. */
export interface CallbackRegistration {
  readonly action: CallbackAction;
  register(router: CallbackRouter): void;
}

/**
 * Collects a feature's button handlers while the feature is built, so that the feature hands
 * them over as data and `createBot` decides when (and in which order) the router takes them.
 */
export class CallbackSet implements CallbackRegistrar {
  private readonly entries: CallbackRegistration[] = [];

  on<A extends CallbackAction>(
    action: A,
    handler: CallbackHandler<A>,
    options: { selfAnswer?: boolean } = {},
  ): this {
    this.entries.push({
      action,
      register: (router) => {
        router.on(action, handler, options);
      },
    });
    return this;
  }

  get registrations(): readonly CallbackRegistration[] {
    return this.entries;
  }
}

/**
 * A feature of the bot, always in this one shape: its commands (`composer`), the buttons it
 * answers (`callbacks`) and the scenes it enters, all built from explicit deps by
 * `createXFeature(deps)` and wired by `createBot` in one visible order.
 */
export interface Feature {
  /** Names the feature in wiring errors. */
  readonly name: string;
  readonly composer: Composer<BotContext>;
  readonly callbacks: readonly CallbackRegistration[];
  readonly scenes: readonly Scenes.BaseScene<BotContext>[];
}

/**
 * Hands every feature's buttons to the router, in order, and returns their scenes for the stage.
 * Throws when two features claim one action or one scene id (the router would refuse the action
 * too; this names both features): a wiring mistake is found at start, not by the partner's tap.
 */
export function registerFeatures(
  router: CallbackRouter,
  features: readonly Feature[],
): Scenes.BaseScene<BotContext>[] {
  const actionOwners = new Map<CallbackAction, string>();
  const sceneOwners = new Map<string, string>();
  for (const feature of features) {
    for (const callback of feature.callbacks) {
      const owner = actionOwners.get(callback.action);
      if (owner !== undefined) {
        throw new Error(
          `callback action "${callback.action}" of feature "${feature.name}" is already claimed by "${owner}"`,
        );
      }
      actionOwners.set(callback.action, feature.name);
      callback.register(router);
    }
    for (const scene of feature.scenes) {
      const owner = sceneOwners.get(scene.id);
      if (owner !== undefined) {
        throw new Error(`scene "${scene.id}" of feature "${feature.name}" is already entered by "${owner}"`);
      }
      sceneOwners.set(scene.id, feature.name);
    }
  }
  return features.flatMap((feature) => feature.scenes);
}
