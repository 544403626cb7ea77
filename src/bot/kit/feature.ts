import type { Composer, MiddlewareFn, Scenes } from 'telegraf';
import type { BotContext } from '../context.js';
import type { ActionTable } from './callback-data.js';
import type { CallbackHandler, CallbackRouter } from './callback-router.js';

/** Where button handlers are declared: the router itself, or a feature's own `CallbackSet`. */
export interface CallbackRegistrar<T extends ActionTable> {
  on<A extends keyof T & string>(
    action: A,
    handler: CallbackHandler<T, A>,
    options?: { selfAnswer?: boolean },
  ): this;
}

/** One button handler a feature claims; it reaches the router only when `createBot` wires it. */
export interface CallbackRegistration<T extends ActionTable> {
  readonly action: keyof T & string;
  register(router: CallbackRouter<T>): void;
}

/**
 * Collects a feature's button handlers while the feature is built, so that the feature hands
 * them over as data and `createBot` decides when (and in which order) the router takes them.
 */
export class CallbackSet<T extends ActionTable> implements CallbackRegistrar<T> {
  private readonly entries: CallbackRegistration<T>[] = [];

  on<A extends keyof T & string>(
    action: A,
    handler: CallbackHandler<T, A>,
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

  get registrations(): readonly CallbackRegistration<T>[] {
    return this.entries;
  }
}

/**
 * A feature of the bot, always in this one shape: its commands (`composer`), the buttons it
 * answers (`callbacks`) and the scenes it enters, all built from explicit deps by
 * `createXFeature(deps)` and wired by `createBot` in one visible order.
 */
export interface Feature<T extends ActionTable> {
  /** Names the feature in wiring errors. */
  readonly name: string;
  readonly composer: Composer<BotContext>;
  readonly callbacks: readonly CallbackRegistration<T>[];
  readonly scenes: readonly Scenes.BaseScene<BotContext>[];
  /**
   * What `/cancel` closes of this feature besides a scene: previews waiting for their Apply or Yes
   * (their buttons then say they are outdated). Whether anything was open.
   */
  readonly closeOpen?: (ctx: BotContext) => boolean;
  /**
   * Runs before scenes, buttons and commands on every update: finishes (or tells) what a killed
   * process left half-done, then passes the update on.
   */
  readonly settle?: MiddlewareFn<BotContext>;
}

/**
 * Hands every feature's buttons to the router, in order, and returns their scenes for the stage.
 * Throws when two features claim one action or one scene id (the router would refuse the action
 * too; this names both features), and when an action of the table has no handler at all: a
 * wiring mistake is found at start, not by the partner's tap.
 */
export function registerFeatures<T extends ActionTable>(
  router: CallbackRouter<T>,
  table: T,
  features: readonly Feature<T>[],
): Scenes.BaseScene<BotContext>[] {
  const actionOwners = new Map<string, string>();
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
  const unhandled = router.unhandled(table);
  if (unhandled.length > 0) throw new Error(`callback actions without a handler: ${unhandled.join(', ')}`);
  return features.flatMap((feature) => feature.scenes);
}
