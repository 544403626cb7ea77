/*
 * «Вставить зону»: a BIND file or the chat's one-line records → `api/zone/paste` → the rows not
 * yet in the zone become `add` edits; the lines it could not read are listed with its reasons,
 * and the text stays to fix them (pasting it again adds no row twice).
 */
import type { Pasted } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import type { Words } from './words.js';

export function pasteForm(
  words: Words,
  paste: (text: string) => Promise<Pasted>,
  /** Takes the pasted rows and changes; answers how many of each were new. */
  onPasted: (pasted: Pasted) => { added: number; changed: number },
  failure: (error: unknown) => string,
): HTMLElement {
  const area = el('textarea', { id: 'paste-text', rows: '4', spellcheck: 'false', required: '' });
  const submit = el('button', { type: 'submit' }, words.paste);
  const result = el('div', { role: 'status' });
  const form = el(
    'form',
    { class: 'paste', 'aria-labelledby': 'paste-title' },
    el('h2', { id: 'paste-title' }, words.pasteTitle),
    el('label', { for: 'paste-text' }, words.pasteLabel),
    area,
    submit,
    result,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (area.value.trim() === '') return;
    submit.disabled = true;
    try {
      const pasted = await paste(area.value);
      const { added, changed } = onPasted(pasted);
      if (pasted.skipped.length === 0) area.value = '';
      const skipped = pasted.skipped.map((s) => el('li', {}, `${words.line} ${s.line}: ${s.message}`));
      result.replaceChildren(
        el('p', {}, `${words.pasted}: ${added}`),
        ...(changed > 0 ? [el('p', {}, `${words.pastedChanged}: ${changed}`)] : []),
        ...(skipped.length > 0
          ? [el('p', {}, `${words.skipped}:`), el('ul', { class: 'skipped' }, ...skipped)]
          : []),
      );
    } catch (error) {
      result.replaceChildren(el('p', { class: 'error', role: 'alert' }, failure(error)));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
