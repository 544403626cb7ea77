/*
 * «Изменения»: the server's plan of the pending edits — its summary, then its lines, each marked
 * Добавить / Изменить / Удалить (the lines' texts are the chat's own words).
 */
import type { Plan } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import type { Words } from './words.js';

export function planView(words: Words) {
  const body = el('div');
  const section = el(
    'section',
    { class: 'plan', 'aria-labelledby': 'plan-title', hidden: '' },
    el('h2', { id: 'plan-title' }, words.planTitle),
    body,
  );
  const show = (...nodes: Node[]) => {
    section.hidden = false;
    body.replaceChildren(...nodes);
  };
  return {
    element: section,
    /** Nothing pending: no section. */
    clear(): void {
      section.hidden = true;
      body.replaceChildren();
    },
    /** Edits changed; the plan is on its way (the last one stays until it comes). */
    planning(): void {
      if (body.childElementCount === 0) show(el('p', {}, words.planning));
      section.hidden = false;
      section.setAttribute('aria-busy', 'true');
    },
    show(plan: Plan): void {
      section.removeAttribute('aria-busy');
      const lines = plan.lines.map((line) => {
        // The server's text names its op already («Добавить: A www …»); a text without it gets it.
        const word = words.ops[line.op];
        const text = line.text.startsWith(word) ? line.text : `${word}: ${line.text}`;
        return el('li', { class: `op-${line.op}` }, text);
      });
      const problems = plan.problems.length > 0 ? [el('p', { class: 'error' }, words.hasProblems)] : [];
      show(el('p', { class: 'summary' }, plan.summary), el('ul', { class: 'lines' }, ...lines), ...problems);
    },
    failed(message: string): void {
      section.removeAttribute('aria-busy');
      show(el('p', { class: 'error', role: 'alert' }, `${words.planFailed}: ${message}`));
    },
  };
}

export type PlanView = ReturnType<typeof planView>;
