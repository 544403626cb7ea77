/*
 * The zone editor: the table with its pending edits, the add and paste forms, the plan of the
 * edits as the server words it (asked 300 ms after the last edit), and Apply (Telegram's main
 * button, or a button in the page). After Apply, or when the zone changed elsewhere, the zone
 * is read again: applied edits are gone, stale ones dropped (pending.ts `rebase`).
 */

import type { Plan, EditProblem as Problem, Zone } from '../../src/mini-app/contract.js';
import { addForm } from './add-form.js';
import { type AppApi, failureText } from './api.js';
import { applyFlow, type Planned } from './apply-flow.js';
import { el } from './dom.js';
import { messages } from './messages.js';
import { pasteForm } from './paste-form.js';
import * as P from './pending.js';
import { planView } from './plan-view.js';
import { applyControl, ask, confirmClosing, haptic } from './telegram.js';
import type { Words } from './words.js';
import { type ZoneTable, zoneTable } from './zone-table.js';

/** What the editor keeps between taps, in one place. */
interface EditorState {
  /** The edits made and not yet applied (pending.ts). */
  pending: P.Pending;
  /** The edits the server planned with no problem: what Apply sends. */
  planned: Planned | undefined;
  /** The server's last plan, with its problems. */
  lastPlan: Plan | undefined;
  /** The last plan could not be had (no answer, a refusal). */
  planFailed: boolean;
  /** Apply is running: the table is inert. */
  applying: boolean;
  /** The plan is asked 300 ms after the last edit; only the newest answer counts. */
  planTimer: ReturnType<typeof setTimeout> | undefined;
  planSeq: number;
  /** The problems last shown, so a new set buzzes once. */
  problemsShown: string;
  table: ZoneTable | undefined;
}

export function zoneEditor(api: AppApi, words: Words, first: Zone) {
  const domain = first.domain;
  const state: EditorState = {
    pending: P.startPending(first.records),
    planned: undefined,
    lastPlan: undefined,
    planFailed: false,
    applying: false,
    planTimer: undefined,
    planSeq: 0,
    problemsShown: '',
    table: undefined,
  };

  const tableBox = el('div');
  const plan = planView(words);
  const said = messages();
  const fallback = el('button', { type: 'button', class: 'apply' });
  const control = applyControl(fallback, words.apply, () => apply());
  const count = () => P.pendingCount(state.pending);

  const refresh = () => {
    // Shown once the server has planned the edits and found no problem; disabled while it replans.
    control.set({
      visible: count() > 0 && state.lastPlan?.problems.length === 0 && !state.planFailed,
      enabled: state.planned !== undefined,
      busy: state.applying,
      text: state.applying ? words.applying : `${words.apply} (${state.lastPlan?.lines.length ?? count()})`,
    });
    work.inert = state.applying;
  };

  const showProblems = (problems: readonly Problem[], targets: readonly P.Target[]) => {
    state.table?.setProblems(problems, targets);
    const said = JSON.stringify(problems);
    if (problems.length > 0 && said !== state.problemsShown) haptic('error');
    state.problemsShown = said;
  };

  /** Asks the server for the plan of the edits, once they stop changing for 300 ms. */
  const schedulePlan = () => {
    clearTimeout(state.planTimer);
    const mine = ++state.planSeq;
    state.planned = undefined;
    state.planFailed = false;
    const { edits, targets } = P.editsOf(state.pending);
    if (edits.length === 0) {
      state.lastPlan = undefined;
      plan.clear();
      showProblems([], []);
      refresh();
      return;
    }
    plan.planning();
    refresh();
    state.planTimer = setTimeout(async () => {
      try {
        const answer = await api.post('zone/plan', { domain, edits });
        if (mine !== state.planSeq) return;
        state.planned = { edits, targets, plan: answer };
        state.lastPlan = answer;
        plan.show(answer);
        showProblems(answer.problems, targets);
      } catch (error) {
        if (mine !== state.planSeq) return;
        state.planFailed = true;
        plan.failed(failureText(words, error));
        haptic('error');
      }
      refresh();
    }, 300);
  };

  const setPending = (next: P.Pending) => {
    if (next === state.pending) return;
    state.pending = next;
    state.table?.update(state.pending);
    confirmClosing(count() > 0);
    schedulePlan();
  };

  const build = (zone: Zone) => {
    state.table = zoneTable(words, zone.records, {
      record: (id) => ({
        edit: (patch) => setPending(P.changeRecord(state.pending, id, patch)),
        remove: () => setPending(P.deleteRecord(state.pending, id)),
        restore: () => setPending(P.restoreRecord(state.pending, id)),
      }),
      added: (key) => ({
        edit: (patch) => setPending(P.changeAdded(state.pending, key, patch)),
        remove: () => setPending(P.removeAdded(state.pending, key)),
        restore: () => {},
      }),
    });
    state.table.update(state.pending);
    tableBox.replaceChildren(
      ...(zone.records.length === 0 ? [el('p', {}, words.noRecords)] : []),
      state.table.element,
    );
  };

  /** Reads the zone again; `applied`: the edits are in it now, else the stale ones are dropped. */
  const reload = async (applied: boolean) => {
    flow.reset();
    state.lastPlan = undefined;
    try {
      const zone = await api.get('zone', { domain });
      state.pending = applied ? P.startPending(zone.records) : P.rebase(state.pending, zone.records);
      build(zone);
    } catch (error) {
      state.pending = P.startPending([]);
      state.table = undefined;
      tableBox.replaceChildren(
        el('p', { class: 'error', role: 'alert' }, `${words.failed}: ${failureText(words, error)}`),
      );
    }
    confirmClosing(count() > 0);
    schedulePlan();
  };

  const flow = applyFlow(api, words, domain, {
    busy(on) {
      state.applying = on;
      if (on) said.clear();
      refresh();
    },
    async applied(answer) {
      await reload(true);
      said.report(answer);
    },
    async refused(error, now) {
      said.alert(failureText(words, error));
      if (error.code === 'zoneChanged') await reload(false);
      else if (error.problems.length > 0) showProblems(error.problems, now.targets);
    },
  });
  const apply = () => {
    const now = state.planned;
    if (now) void flow.apply(now, () => state.planned === now);
  };

  // What the user edits; inert while Apply runs, so nothing changes under it.
  const work = el(
    'div',
    {},
    tableBox,
    addForm(words, first.recordTypes, (row) => setPending(P.addRows(state.pending, [row]))),
    pasteForm(
      words,
      (text) => api.post('zone/paste', { domain, text }),
      (pasted) => {
        const { pending: next, added, changed } = P.pasteInto(state.pending, pasted.rows, pasted.changes);
        setPending(next);
        return { added, changed };
      },
      (error) => failureText(words, error),
    ),
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
  build(first);
  refresh();

  const dispose = () => {
    clearTimeout(state.planTimer);
    state.planSeq++;
    control.dispose();
    confirmClosing(false);
  };
  return {
    element: section,
    /** Leaves the zone: asks first while edits are pending; false when the user stays. */
    async leave(): Promise<boolean> {
      if (state.applying) return false;
      if (count() > 0 && !(await ask(words.discardQuestion, words.discard))) return false;
      dispose();
      return true;
    },
  };
}
