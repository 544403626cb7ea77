/*
 * A form of one text area and its button, for text the user pastes (a zone, a card of
 * requisites): the text goes to `onText` on submit (nothing happens while it is blank), and the
 * button is disabled until `onText` settles, so a second tap sends nothing twice.
 */
import { el } from './dom.js';

export interface TextFormOptions {
  /** The text area's id; the heading's is `<id>-title`. */
  id: string;
  title: string;
  label: string;
  button: string;
  rows: number;
  /** Where `onText` says what came of it (below the button). */
  result: HTMLElement;
  /** More attributes of the text area (`spellcheck`). */
  area?: Record<string, string>;
  onText(text: string, area: HTMLTextAreaElement): Promise<void>;
}

export function textForm(options: TextFormOptions): HTMLElement {
  const { id } = options;
  const area = el('textarea', { id, rows: String(options.rows), ...options.area, required: '' });
  const submit = el('button', { type: 'submit' }, options.button);
  const form = el(
    'form',
    { class: 'paste', 'aria-labelledby': `${id}-title` },
    el('h2', { id: `${id}-title` }, options.title),
    el('label', { for: id }, options.label),
    area,
    submit,
    options.result,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (area.value.trim() === '') return;
    submit.disabled = true;
    try {
      await options.onText(area.value, area);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
