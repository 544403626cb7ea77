/*
 * The zone editor's page: the heading, the table's place, the add and paste forms (inert while
 * Apply runs), the plan, Apply's fallback button and the messages. It holds no state: what a
 * form gives goes to the editor's handlers.
 */
import type { Pasted, Row, Zone } from '../../src/mini-app/contract.js';
import { addForm } from './add-form.js';
import { failureText } from './api.js';
import { el } from './dom.js';
import { messages } from './messages.js';
import { pasteForm } from './paste-form.js';
import { planView } from './plan-view.js';
import { applyControl } from './telegram.js';
import type { Words } from './words.js';

export interface EditorHandlers {
  addRow(row: Row): void;
  paste(text: string): Promise<Pasted>;
  /** Takes the pasted rows and changes; answers how many of each were new. */
  pasted(pasted: Pasted): { added: number; changed: number };
  apply(): void;
}

export function editorView(words: Words, first: Zone, on: EditorHandlers) {
  const tableBox = el('div');
  const plan = planView(words);
  const said = messages();
  const fallback = el('button', { type: 'button', class: 'apply' });
  const control = applyControl(fallback, words.apply, on.apply);
  // What the user edits; inert while Apply runs, so nothing changes under it.
  const work = el(
    'div',
    {},
    tableBox,
    addForm(words, first.recordTypes, on.addRow),
    pasteForm(words, on.paste, on.pasted, (error) => failureText(words, error)),
  );
  const section = el(
    'section',
    { class: 'editor', 'aria-labelledby': 'zone-title' },
    el('h1', { id: 'zone-title' }, `${words.title} ${first.domainUnicode}`),
    work,
    plan.element,
    fallback,
    ...said.elements,
  );
  return { section, work, tableBox, plan, said, control };
}

export type EditorView = ReturnType<typeof editorView>;
