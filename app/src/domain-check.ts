/*
 * A domain's verdict as it is typed in the order form: asked of the server 350 ms after the last
 * key (the provider's own check, worded by the server), shown in a status line the input is
 * described by; only the last answer counts, an earlier one arriving late is dropped.
 */

import type { DomainCheck } from '../../src/mini-app/contract.js';
import { type AppApi, failureText } from './api.js';
import { el } from './dom.js';
import type { OrderWords } from './order-words.js';
import { haptic } from './telegram.js';
import type { Words } from './words.js';

/** How long after the last key the name is checked. */
const QUIET_MS = 350;

export interface DomainChecker {
  /** The status line (`id="domain-status"`), for the input's `aria-describedby`. */
  status: HTMLElement;
  /** Checks `typed` after the quiet time; `undefined` is handed on at once (nothing to order yet). */
  typed(typed: string, currencyId: number | undefined): void;
  /** Checks `typed` now. */
  check(typed: string, currencyId: number | undefined): Promise<void>;
  /** Forgets the verdict shown (a new order starts with none). */
  clear(): void;
}

export function domainChecker(
  api: AppApi,
  words: Words,
  o: OrderWords,
  onVerdict: (verdict: DomainCheck | undefined) => void,
): DomainChecker {
  const status = el('p', { id: 'domain-status', role: 'status', 'aria-live': 'polite', class: 'note' });
  let ticket = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async (typed: string, currencyId: number | undefined) => {
    const mine = ++ticket;
    onVerdict(undefined);
    if (typed.trim() === '') return void status.replaceChildren();
    status.textContent = o.checking;
    try {
      const answer = await api.get('order/domain', {
        name: typed.trim(),
        ...(currencyId === undefined ? {} : { currency: String(currencyId) }),
      });
      if (mine !== ticket) return;
      status.textContent = answer.message;
      if (!answer.available) haptic('error');
      onVerdict(answer);
    } catch (error) {
      if (mine !== ticket) return;
      status.textContent = failureText(words, error);
    }
  };
  return {
    status,
    check,
    clear() {
      clearTimeout(timer);
      ++ticket;
      status.replaceChildren();
    },
    typed(typed, currencyId) {
      clearTimeout(timer);
      ++ticket;
      onVerdict(undefined);
      timer = setTimeout(() => void check(typed, currencyId), QUIET_MS);
    },
  };
}
