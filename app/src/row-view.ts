/*
 * One row of the zone table. An editable row has host, value and TTL cells edited in place
 * (cell.ts), a delete button («Вернуть» while deleted), and a line under it for the server's
 * problems with its edit. A plain row is text only: a read-only role's, or a record the bot
 * cannot read.
 */

import type { EditProblem as Problem, Row, ZoneRecord } from '../../src/mini-app/contract.js';
import { type Cell, editableCell } from './cell.js';
import { el } from './dom.js';
import { cellOf, type Field } from './fields.js';
import type { Words } from './words.js';

export interface RowView {
  readonly rows: readonly HTMLTableRowElement[];
  current(): Row | undefined;
  /** Shows `row`; `before`: the record as loaded (undefined for an added row). */
  update(row: Row, before: Row | undefined, deleted: boolean): void;
  setProblems(problems: readonly Problem[]): void;
  hasProblems(): boolean;
  setVisible(on: boolean): void;
}

export interface RowActions {
  edit(patch: Partial<Row>): void;
  remove(): void;
  restore(): void;
}

const FIELDS: readonly Field[] = ['host', 'data', 'ttl'];
let problemIds = 0;

/**
 * `label` names the record in every control's accessible name («Удалить A www»); without it an
 * added row is named by its current type and host.
 */
export function editableRow(words: Words, label: string | undefined, actions: RowActions): RowView {
  const fieldWord = { host: words.host, data: words.value, ttl: words.ttlField };
  const cells: Record<Field, Cell> = {
    host: editableCell('host', words.badHost, actions.edit),
    data: editableCell('data', '', actions.edit),
    ttl: editableCell('ttl', words.badTtl, actions.edit),
  };
  const type = el('span');
  const mark = el('span', { class: 'mark' });
  const remove = el('button', { type: 'button', class: 'remove' });
  // Icons on a phone's width; the accessible name and the tooltip say the words.
  const restore = el('button', { type: 'button', class: 'restore' }, '↩');
  remove.addEventListener('click', actions.remove);
  restore.addEventListener('click', actions.restore);
  const tr = el(
    'tr',
    {},
    el('td', { class: 'type' }, type, mark),
    cells.host.td,
    cells.data.td,
    cells.ttl.td,
    el('td', { class: 'actions' }, remove, restore),
  );
  const problemId = `problem-${++problemIds}`;
  const problemText = el('p', { id: problemId, class: 'error', role: 'alert' });
  const problemRow = el('tr', { class: 'problem', hidden: '' }, el('td', { colspan: '5' }, problemText));
  let current: Row | undefined;
  let problems: readonly Problem[] = [];
  return {
    rows: [tr, problemRow],
    current: () => current,
    update(row, before, deleted) {
      current = row;
      const name = label ?? `${row.type} ${row.host}`;
      type.textContent = row.type;
      mark.textContent = deleted ? words.toDelete : before ? '' : words.added;
      for (const field of FIELDS) {
        const value = String(row[field]);
        const changed = before !== undefined && row[field] !== before[field];
        const said = changed ? `${value} (${words.changed})` : value;
        cells[field].label(`${fieldWord[field]}: ${name}`);
        cells[field].show(value, `${fieldWord[field]}: ${name} — ${said}`, changed, !deleted);
      }
      tr.classList.toggle('added', !before);
      tr.classList.toggle('deleted', deleted);
      const removeWord = before ? words.remove : words.drop;
      remove.textContent = '✕';
      remove.setAttribute('aria-label', `${removeWord} ${name}`);
      remove.title = removeWord;
      restore.setAttribute('aria-label', `${words.restore} ${name}`);
      restore.title = words.restore;
      remove.hidden = deleted;
      restore.hidden = !deleted;
    },
    setProblems(list) {
      problems = list;
      problemText.textContent = list.map((p) => p.message).join(' ');
      problemRow.hidden = list.length === 0;
      tr.classList.toggle('has-problem', list.length > 0);
      const named = new Set(list.map((p) => cellOf(p.field)));
      for (const field of FIELDS) cells[field].problem(named.has(field), list.length > 0 ? problemId : '');
    },
    hasProblems: () => problems.length > 0,
    setVisible(on) {
      tr.hidden = !on;
      problemRow.hidden = !on || problems.length === 0;
    },
  };
}

/** A record shown as text; `note` (a record the bot cannot read, in the editor) goes in a last cell. */
export function plainRow(record: ZoneRecord, note?: string): RowView {
  const row = record.row;
  const tr = el(
    'tr',
    {},
    el('td', { class: 'type' }, record.type),
    el('td', { class: 'host' }, row?.host ?? ''),
    el('td', { class: 'data' }, row?.data ?? record.value),
    el('td', { class: 'ttl' }, String(record.ttl)),
  );
  if (note !== undefined) tr.append(el('td', { class: 'actions hint' }, note));
  const current = row ?? {
    type: record.type,
    host: '',
    data: record.value,
    ttl: record.ttl,
  };
  return {
    rows: [tr],
    current: () => current,
    update() {},
    setProblems() {},
    hasProblems: () => false,
    setVisible(on) {
      tr.hidden = !on;
    },
  };
}
