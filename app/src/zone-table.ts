/*
 * The zone as a table (type, host, value, TTL: the chat's `/dns <domain>` columns) under a
 * filter by type and host. Editable, it keeps one row view per record and per added row and
 * updates them in place from the pending plan, so a tap on a button is never lost to a redraw.
 */
import type { EditProblem as Problem, ZoneRecord } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import { currentRow, type Pending, type Target } from './pending.js';
import { editableRow, plainRow, type RowActions, type RowView } from './row-view.js';
import type { Words } from './words.js';

/** What the editor does on a row's controls; absent, the table is read-only. */
export interface TableActions {
  record(id: number): RowActions;
  added(key: number): RowActions;
}

/** A row's key: `r<id>` for a record, `n<key>` for an added row. */
const recordKey = (id: number) => `r${id}`;
const addedKey = (key: number) => `n${key}`;

/** Names a record by type and host, and by its value too where several share both. */
function labels(records: readonly ZoneRecord[]): Map<number, string> {
  const count = new Map<string, number>();
  const short = (r: ZoneRecord) => (r.row ? `${r.row.type} ${r.row.host}` : '');
  for (const r of records) count.set(short(r), (count.get(short(r)) ?? 0) + 1);
  const out = new Map<number, string>();
  for (const r of records) {
    if (r.row) out.set(r.id, (count.get(short(r)) ?? 0) > 1 ? `${short(r)} ${r.row.data}` : short(r));
  }
  return out;
}

export function zoneTable(words: Words, records: readonly ZoneRecord[], actions?: TableActions) {
  const views = new Map<string, RowView>();
  const tbody = el('tbody');
  const named = labels(records);
  for (const r of records) {
    const label = named.get(r.id);
    const view =
      actions && label !== undefined
        ? editableRow(words, label, actions.record(r.id))
        : plainRow(r, actions ? words.unreadable : undefined);
    views.set(recordKey(r.id), view);
    tbody.append(...view.rows);
  }

  const typeSelect = el('select', { id: 'filter-type' });
  const hostInput = el('input', {
    id: 'filter-host',
    type: 'search',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
  });
  const filter = el(
    'div',
    { class: 'filter', role: 'search' },
    el('label', { for: 'filter-type' }, words.filterType),
    typeSelect,
    el('label', { for: 'filter-host' }, words.filterHost),
    hostInput,
  );
  const nothing = el('p', { class: 'note', hidden: '' }, words.nothingFound);
  const heads = [words.type, words.host, words.value, words.ttl, ...(actions ? [words.actions] : [])];
  const table = el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...heads.map((h, i) =>
          // The actions' column is as narrow as its buttons: its heading is for screen readers.
          el('th', { scope: 'col' }, i === 4 ? el('span', { class: 'visually-hidden' }, h) : h),
        ),
      ),
    ),
    tbody,
  );

  /** The filter's types: those in the table, plus «all». */
  const refreshTypes = () => {
    const types = [...new Set([...views.values()].map((v) => v.current()?.type ?? ''))]
      .filter(Boolean)
      .sort();
    const now = [...typeSelect.options].map((o) => o.value).join();
    if (now === ['', ...types].join()) return;
    const chosen = typeSelect.value;
    typeSelect.replaceChildren(
      el('option', { value: '' }, words.allTypes),
      ...types.map((t) => el('option', { value: t }, t)),
    );
    typeSelect.value = types.includes(chosen) ? chosen : '';
  };
  /** Shows the rows the filter takes, and any with a problem. */
  const applyFilter = () => {
    const type = typeSelect.value;
    const host = hostInput.value.trim().toLowerCase();
    let shown = 0;
    for (const view of views.values()) {
      const row = view.current();
      const on =
        view.hasProblems() ||
        ((type === '' || row?.type === type) && (row?.host.toLowerCase().includes(host) ?? false));
      view.setVisible(on);
      if (on) shown++;
    }
    nothing.hidden = shown > 0 || views.size === 0;
  };
  typeSelect.addEventListener('change', applyFilter);
  hostInput.addEventListener('input', applyFilter);
  refreshTypes();
  applyFilter();

  return {
    element: el('div', {}, filter, el('div', { class: 'scroll' }, table), nothing),
    /** Shows the pending plan: each record as it would be, added rows appended, dropped ones gone. */
    update(p: Pending): void {
      for (const id of p.base.keys()) {
        const row = currentRow(p, id);
        if (row) views.get(recordKey(id))?.update(row, p.base.get(id), p.deleted.has(id));
      }
      const keep = new Set(p.added.map((a) => addedKey(a.key)));
      for (const [key, view] of views) {
        if (key.startsWith('n') && !keep.has(key)) {
          for (const tr of view.rows) tr.remove();
          views.delete(key);
        }
      }
      for (const a of p.added) {
        let view = views.get(addedKey(a.key));
        if (!view && actions) {
          view = editableRow(words, undefined, actions.added(a.key));
          views.set(addedKey(a.key), view);
          tbody.append(...view.rows);
        }
        view?.update(a.row, undefined, false);
      }
      refreshTypes();
      applyFilter();
    },
    /** The server's problems, each by the row of its edit (`targets[problem.edit]`); others have none. */
    setProblems(problems: readonly Problem[], targets: readonly Target[]): void {
      const byKey = new Map<string, Problem[]>();
      for (const problem of problems) {
        const t = targets[problem.edit];
        const key = t?.kind === 'record' ? recordKey(t.id) : t ? addedKey(t.key) : '';
        byKey.set(key, [...(byKey.get(key) ?? []), problem]);
      }
      for (const [key, view] of views) view.setProblems(byKey.get(key) ?? []);
      applyFilter();
    },
  };
}

export type ZoneTable = ReturnType<typeof zoneTable>;
