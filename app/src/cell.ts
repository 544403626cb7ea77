/*
 * A cell edited in place: a button showing the value; tapped, a labelled input. Enter or leaving
 * the field commits, Escape cancels. The row (row-view.ts) sets what the button shows.
 */
import type { Row } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import { type Field, patchOf } from './fields.js';
import { haptic } from './telegram.js';

export interface Cell {
  readonly td: HTMLTableCellElement;
  /** Shows `text`; `name` is the button's accessible name; a disabled cell cannot be opened. */
  show(text: string, name: string, changed: boolean, enabled: boolean): void;
  /** The input's label (it follows the row's label). */
  label(text: string): void;
  /** Marks the cell as the one a problem names; `describedBy`: the problem's text, or ''. */
  problem(on: boolean, describedBy: string): void;
}

/** `badText`: what to say when the typed text cannot be the field (pending.ts `patchOf`). */
export function editableCell(field: Field, badText: string, onCommit: (patch: Partial<Row>) => void): Cell {
  const td = el('td', { class: field });
  const button = el('button', { type: 'button', class: 'cell' });
  td.append(button);
  let text = '';
  let inputLabel = '';
  button.addEventListener('click', () => {
    haptic('selection');
    const input = el('input', {
      type: 'text',
      'aria-label': inputLabel,
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      enterkeyhint: 'done',
      inputmode: field === 'ttl' ? 'numeric' : 'text',
    });
    input.value = text;
    let done = false;
    const close = (commit: boolean, refocus: boolean) => {
      if (done) return;
      const patch = commit ? patchOf(field, input.value) : undefined;
      if (commit && !patch) {
        haptic('error');
        if (refocus) {
          // Enter on a bad value: say why and stay in the field.
          input.setAttribute('aria-invalid', 'true');
          input.setCustomValidity(badText);
          input.reportValidity();
          return;
        }
      }
      done = true;
      input.replaceWith(button);
      if (refocus) button.focus();
      if (patch) onCommit(patch);
    };
    input.addEventListener('input', () => input.setCustomValidity(''));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === 'Escape') {
        event.preventDefault();
        close(event.key === 'Enter', true);
      }
    });
    input.addEventListener('blur', () => close(true, false));
    button.replaceWith(input);
    input.focus();
    input.select();
  });
  return {
    td,
    show(value, name, changed, enabled) {
      text = value;
      button.textContent = value;
      button.setAttribute('aria-label', name);
      button.disabled = !enabled;
      td.classList.toggle('changed', changed);
    },
    label(value) {
      inputLabel = value;
    },
    problem(on, describedBy) {
      td.classList.toggle('invalid', on);
      if (describedBy) button.setAttribute('aria-describedby', describedBy);
      else button.removeAttribute('aria-describedby');
    },
  };
}
