/*
 * The plan of the pending edits, asked of the server once they stop changing for 300 ms: only
 * the answer to the newest edits counts (an older one arriving late is dropped), and nothing is
 * asked while nothing is pending.
 */
import type { Edit, Plan } from '../../src/mini-app/contract.js';
import * as P from './pending.js';

/** The plan the server gave for the pending edits as they are now: what Apply sends. */
export interface Planned {
  edits: Edit[];
  targets: P.Target[];
  plan: Plan;
}

/** Where the plan of the pending edits stands. */
export type PlanState =
  /** Nothing pending: no plan. */
  | { kind: 'none' }
  /** Asked (or about to be); the last plan, if any, is still shown. */
  | { kind: 'asking' }
  | { kind: 'planned'; planned: Planned }
  /** No plan could be had: no answer, or a refusal. */
  | { kind: 'failed'; error: unknown };

export interface ZonePlanner {
  /** The pending edits changed: a plan of them is asked 300 ms from now, unless they change again. */
  schedule(pending: P.Pending): void;
  /** Nothing more is asked, and an answer still on its way is dropped. */
  stop(): void;
}

export function zonePlanner(
  ask: (edits: Edit[]) => Promise<Plan>,
  onState: (state: PlanState) => void,
  delayMs = 300,
): ZonePlanner {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const stop = () => {
    clearTimeout(timer);
    asked++;
  };
  return {
    schedule(pending) {
      stop();
      const mine = asked;
      const { edits, targets } = P.editsOf(pending);
      if (edits.length === 0) {
        onState({ kind: 'none' });
        return;
      }
      onState({ kind: 'asking' });
      timer = setTimeout(async () => {
        let next: PlanState;
        try {
          next = { kind: 'planned', planned: { edits, targets, plan: await ask(edits) } };
        } catch (error) {
          next = { kind: 'failed', error };
        }
        if (mine === asked) onState(next);
      }, delayMs);
    },
    stop,
  };
}
