/*
 * Apply: asks first when the plan deletes much of the zone (`needsForce`), sends the edits with
 * one idempotency key per request (the same on a retry or a double tap, a new one once the
 * edits or the force change), and asks again when the server says force is needed.
 */

import type { Applied } from '../../src/mini-app/contract.js';
import { ApiCallError, type AppApi, failureText } from './api.js';
import { base64url, keyFor, type PlanKey } from './apply-key.js';
import { ask, haptic } from './telegram.js';
import type { Words } from './words.js';
import type { Planned } from './zone-planner.js';

export interface ApplyHooks {
  busy(on: boolean): void;
  applied(answer: Applied): Promise<void>;
  /** A refusal (its words already said by `failureText`); `now`: what was sent. */
  refused(error: ApiCallError, now: Planned): Promise<void>;
}

const freshKey = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

export function applyFlow(api: AppApi, words: Words, domain: string, hooks: ApplyHooks) {
  let key: PlanKey | undefined;
  let running = false;

  const send = async (now: Planned, force: boolean): Promise<void> => {
    key = keyFor(key, now.edits, force, freshKey);
    running = true;
    hooks.busy(true);
    let answer: Applied | ApiCallError;
    try {
      answer = await api.post('zone/apply', {
        domain,
        edits: now.edits,
        key: key.key,
        ...(force ? { force } : {}),
      });
    } catch (error) {
      answer = error instanceof ApiCallError ? error : new ApiCallError(0, 'network', '');
    }
    // Busy until the zone is read again, so no tap lands on a plan that is already applied.
    if (!(answer instanceof ApiCallError)) {
      haptic('success');
      await hooks.applied(answer);
    } else if (answer.code !== 'needsForce' || force) {
      haptic('error');
      await hooks.refused(answer, now);
    }
    running = false;
    hooks.busy(false);
    if (answer instanceof ApiCallError && answer.code === 'needsForce' && !force) {
      if (await ask(failureText(words, answer), words.apply)) await send(now, true);
    }
  };

  return {
    /** Apply's press on `now`; `current` says whether it is still the plan once the user answered. */
    async apply(now: Planned, current: () => boolean): Promise<void> {
      if (running || now.plan.problems.length > 0) return;
      const force = now.plan.needsForce;
      if (force && !(await ask(now.plan.forceQuestion ?? words.forceQuestion, words.apply))) return;
      if (current() && !running) await send(now, force);
    },
    /** The zone was read again: the next Apply is a new request, whatever its edits. */
    reset(): void {
      key = undefined;
    },
  };
}
