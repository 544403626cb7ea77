/*
 * «Вставить зону»: a BIND file or the chat's one-line records → `api/zone/paste` → the rows not
 * yet in the zone become `add` edits; the lines it could not read are listed with its reasons,
 * and the text stays to fix them (pasting it again adds no row twice).
 */
import type { Pasted } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import { textForm } from './text-form.js';
import type { Words } from './words.js';

export function pasteForm(
  words: Words,
  paste: (text: string) => Promise<Pasted>,
  /** Takes the pasted rows and changes; answers how many of each were new. */
  onPasted: (pasted: Pasted) => { added: number; changed: number },
  failure: (error: unknown) => string,
): HTMLElement {
  const result = el('div', { role: 'status' });
  return textForm({
    id: 'paste-text',
    title: words.pasteTitle,
    label: words.pasteLabel,
    button: words.paste,
    rows: 4,
    area: { spellcheck: 'false' },
    result,
    async onText(text, area) {
      try {
        const pasted = await paste(text);
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
      }
    },
  });
}
