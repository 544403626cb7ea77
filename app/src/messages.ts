/*
 * The editor's last word: a status (Apply's report, role="status") or an alert (a refusal,
 * role="alert"), one at a time, scrolled into view.
 */
import type { Applied } from '../../src/mini-app/contract.js';
import { el } from './dom.js';

export function messages() {
  const status = el('div', { role: 'status', class: 'message' });
  const alert = el('p', { role: 'alert', class: 'error' });
  const say = (kind: 'status' | 'alert', ...nodes: (Node | string)[]) => {
    status.replaceChildren(...(kind === 'status' ? nodes : []));
    alert.replaceChildren(...(kind === 'alert' ? nodes : []));
    if (nodes.length > 0) (kind === 'status' ? status : alert).scrollIntoView?.({ block: 'nearest' });
  };
  return {
    elements: [status, alert] as const,
    clear: () => say('status'),
    alert: (text: string) => say('alert', text),
    /** Apply's answer: the server's message, and each record that failed with its reason. */
    report(done: Applied): void {
      const failures = done.failures.map((f) => el('li', {}, `${f.text} — ${f.reason}`));
      say('status', el('p', {}, done.message), ...(failures.length > 0 ? [el('ul', {}, ...failures)] : []));
    },
  };
}
