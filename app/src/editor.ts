/*
 * The zone editor: the table with its pending edits, the add and paste forms, the plan of the
 * edits as the server words it (asked 300 ms after the last edit), and Apply (Telegram's main
 * button, or a button in the page). After Apply, or when the zone changed elsewhere, the zone
 * is read again: applied edits are gone, stale ones dropped (pending.ts `rebase`).
 */

import type { Plan, EditProblem as Problem, Zone } from '../../src/mini-app/contract.js';
import { type AppApi, failureText } from './api.js';
import { applyFlow } from './apply-flow.js';
import { el } from './dom.js';
import { type EditorView, editorView } from './editor-view.js';
import * as P from './pending.js';
import { ask, confirmClosing, haptic } from './telegram.js';
import type { Words } from './words.js';
import { type PlanState, zonePlanner } from './zone-planner.js';
import { type ZoneTable, zoneTable } from './zone-table.js';

/** What the editor keeps between taps, in one place. */
interface EditorState {
  /** The edits made and not yet applied (pending.ts). */
  pending: P.Pending;
  /** Where the plan of those edits stands; `planned` is what Apply sends. */
  plan: PlanState;
  /** The server's last plan, with its problems (still shown while the next is asked). */
  lastPlan: Plan | undefined;
  /** Apply is running: the table is inert. */
  applying: boolean;
  /** The problems last shown, so a new set buzzes once. */
  problemsShown: string;
  table: ZoneTable | undefined;
}

export function zoneEditor(api: AppApi, words: Words, first: Zone) {
  const domain = first.domain;
  const state: EditorState = {
    pending: P.startPending(first.records),
    plan: { kind: 'none' },
    lastPlan: undefined,
    applying: false,
    problemsShown: '',
    table: undefined,
  };
  const count = () => P.pendingCount(state.pending);
  const planned = () => (state.plan.kind === 'planned' ? state.plan.planned : undefined);

  const refresh = () => {
    // Shown once the server has planned the edits and found no problem; disabled while it replans.
    view.control.set({
      visible: count() > 0 && state.lastPlan?.problems.length === 0 && state.plan.kind !== 'failed',
      enabled: planned() !== undefined,
      busy: state.applying,
      text: state.applying ? words.applying : `${words.apply} (${state.lastPlan?.lines.length ?? count()})`,
    });
    view.work.inert = state.applying;
  };

  const showProblems = (problems: readonly Problem[], targets: readonly P.Target[]) => {
    state.table?.setProblems(problems, targets);
    const said = JSON.stringify(problems);
    if (problems.length > 0 && said !== state.problemsShown) haptic('error');
    state.problemsShown = said;
  };

  const planner = zonePlanner(
    (edits) => api.post('zone/plan', { domain, edits }),
    (next) => {
      state.plan = next;
      showPlan(view, words, next);
      if (next.kind === 'none') {
        state.lastPlan = undefined;
        showProblems([], []);
      } else if (next.kind === 'planned') {
        state.lastPlan = next.planned.plan;
        showProblems(next.planned.plan.problems, next.planned.targets);
      }
      refresh();
    },
  );

  const setPending = (next: P.Pending) => {
    if (next === state.pending) return;
    state.pending = next;
    state.table?.update(state.pending);
    confirmClosing(count() > 0);
    planner.schedule(state.pending);
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
    view.tableBox.replaceChildren(
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
      view.tableBox.replaceChildren(
        el('p', { class: 'error', role: 'alert' }, `${words.failed}: ${failureText(words, error)}`),
      );
    }
    confirmClosing(count() > 0);
    planner.schedule(state.pending);
  };

  const flow = applyFlow(api, words, domain, {
    busy(on) {
      state.applying = on;
      if (on) view.said.clear();
      refresh();
    },
    async applied(answer) {
      await reload(true);
      view.said.report(answer);
    },
    async refused(error, now) {
      view.said.alert(failureText(words, error));
      if (error.code === 'zoneChanged') await reload(false);
      else if (error.problems.length > 0) showProblems(error.problems, now.targets);
    },
  });

  const view: EditorView = editorView(words, first, {
    addRow: (row) => setPending(P.addRows(state.pending, [row])),
    paste: (text) => api.post('zone/paste', { domain, text }),
    pasted: (pasted) => {
      const { pending: next, added, changed } = P.pasteInto(state.pending, pasted.rows, pasted.changes);
      setPending(next);
      return { added, changed };
    },
    apply: () => {
      const now = planned();
      if (now) void flow.apply(now, () => planned() === now);
    },
  });
  build(first);
  refresh();

  const dispose = () => {
    planner.stop();
    view.control.dispose();
    confirmClosing(false);
  };
  return {
    element: view.section,
    /** Leaves the zone: asks first while edits are pending; false when the user stays. */
    async leave(): Promise<boolean> {
      if (state.applying) return false;
      if (count() > 0 && !(await ask(words.discardQuestion, words.discard))) return false;
      dispose();
      return true;
    },
  };
}

/** The plan's section as the plan stands; a failure buzzes. */
function showPlan(view: EditorView, words: Words, plan: PlanState): void {
  if (plan.kind === 'none') view.plan.clear();
  else if (plan.kind === 'asking') view.plan.planning();
  else if (plan.kind === 'planned') view.plan.show(plan.planned.plan);
  else {
    view.plan.failed(failureText(words, plan.error));
    haptic('error');
  }
}
