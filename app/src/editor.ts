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

export function zoneEditor(api: AppApi, words: Words, first: Zone) {
  const domain = first.domain;
  let pending = P.startPending(first.records);
  let planned: Planned | undefined;
  let planFailed = false;
  let lastPlan: Plan | undefined;
  let applying = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  let lastProblems = '';
  let table: ZoneTable | undefined;

  const tableBox = el('div');
  const plan = planView(words);
  const said = messages();
  const fallback = el('button', { type: 'button', class: 'apply' });
  const control = applyControl(fallback, words.apply, () => apply());
  const count = () => P.pendingCount(pending);

  const refresh = () => {
    // Shown once the server has planned the edits and found no problem; disabled while it replans.
    control.set({
      visible: count() > 0 && lastPlan?.problems.length === 0 && !planFailed,
      enabled: planned !== undefined,
      busy: applying,
      text: applying ? words.applying : `${words.apply} (${lastPlan?.lines.length ?? count()})`,
    });
    work.inert = applying;
  };

  const showProblems = (problems: readonly Problem[], targets: readonly P.Target[]) => {
    table?.setProblems(problems, targets);
    const said = JSON.stringify(problems);
    if (problems.length > 0 && said !== lastProblems) haptic('error');
    lastProblems = said;
  };

  /** Asks the server for the plan of the edits, once they stop changing for 300 ms. */
  const schedulePlan = () => {
    clearTimeout(timer);
    const mine = ++seq;
    planned = undefined;
    planFailed = false;
    const { edits, targets } = P.editsOf(pending);
    if (edits.length === 0) {
      lastPlan = undefined;
      plan.clear();
      showProblems([], []);
      refresh();
      return;
    }
    plan.planning();
    refresh();
    timer = setTimeout(async () => {
      try {
        const answer = await api.post('zone/plan', { domain, edits });
        if (mine !== seq) return;
        planned = { edits, targets, plan: answer };
        lastPlan = answer;
        plan.show(answer);
        showProblems(answer.problems, targets);
      } catch (error) {
        if (mine !== seq) return;
        planFailed = true;
        plan.failed(failureText(words, error));
        haptic('error');
      }
      refresh();
    }, 300);
  };

  const setPending = (next: P.Pending) => {
    if (next === pending) return;
    pending = next;
    table?.update(pending);
    confirmClosing(count() > 0);
    schedulePlan();
  };

  const build = (zone: Zone) => {
    table = zoneTable(words, zone.records, {
      record: (id) => ({
        edit: (patch) => setPending(P.changeRecord(pending, id, patch)),
        remove: () => setPending(P.deleteRecord(pending, id)),
        restore: () => setPending(P.restoreRecord(pending, id)),
      }),
      added: (key) => ({
        edit: (patch) => setPending(P.changeAdded(pending, key, patch)),
        remove: () => setPending(P.removeAdded(pending, key)),
        restore: () => {},
      }),
    });
    table.update(pending);
    tableBox.replaceChildren(
      ...(zone.records.length === 0 ? [el('p', {}, words.noRecords)] : []),
      table.element,
    );
  };

  /** Reads the zone again; `applied`: the edits are in it now, else the stale ones are dropped. */
  const reload = async (applied: boolean) => {
    flow.reset();
    lastPlan = undefined;
    try {
      const zone = await api.get('zone', { domain });
      pending = applied ? P.startPending(zone.records) : P.rebase(pending, zone.records);
      build(zone);
    } catch (error) {
      pending = P.startPending([]);
      table = undefined;
      tableBox.replaceChildren(
        el('p', { class: 'error', role: 'alert' }, `${words.failed}: ${failureText(words, error)}`),
      );
    }
    confirmClosing(count() > 0);
    schedulePlan();
  };

  const flow = applyFlow(api, words, domain, {
    busy(on) {
      applying = on;
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
    const now = planned;
    if (now) void flow.apply(now, () => planned === now);
  };

  // What the user edits; inert while Apply runs, so nothing changes under it.
  const work = el(
    'div',
    {},
    tableBox,
    addForm(words, first.recordTypes, (row) => setPending(P.addRows(pending, [row]))),
    pasteForm(
      words,
      (text) => api.post('zone/paste', { domain, text }),
      (pasted) => {
        const { pending: next, added, changed } = P.pasteInto(pending, pasted.rows, pasted.changes);
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
    clearTimeout(timer);
    seq++;
    control.dispose();
    confirmClosing(false);
  };
  return {
    element: section,
    /** Leaves the zone: asks first while edits are pending; false when the user stays. */
    async leave(): Promise<boolean> {
      if (applying) return false;
      if (count() > 0 && !(await ask(words.discardQuestion, words.discard))) return false;
      dispose();
      return true;
    },
  };
}
