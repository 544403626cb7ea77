/*
 * The zone editor's planner (app/src/zone-planner.ts): the plan of the pending edits is asked
 * 300 ms after the last edit, only the answer to the newest edits is shown, nothing is asked
 * while nothing is pending, and nothing arrives after the editor is left.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addRows, startPending } from '../../app/src/pending.js';
import { type PlanState, zonePlanner } from '../../app/src/zone-planner.js';
import type { Edit, Plan, Row } from '../../src/mini-app/contract.js';

const row = (host: string): Row => ({ type: 'A', host, data: '192.0.2.1', ttl: 3600 });
const planOf = (edits: Edit[]): Plan => ({
  domain: 'mysite.by',
  domainUnicode: 'mysite.by',
  orderId: 1,
  existing: 0,
  lines: edits.map((e) => ({ op: 'add' as const, row: e.op === 'add' ? e.row : row('?'), text: '' })),
  problems: [],
  needsForce: false,
  summary: `${edits.length}`,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the zone editor’s planner', () => {
  it('asks once, 300 ms after the last of several quick edits, and shows that plan', async () => {
    const asked: Edit[][] = [];
    const states: PlanState[] = [];
    const planner = zonePlanner(
      async (edits) => {
        asked.push(edits);
        return planOf(edits);
      },
      (state) => states.push(state),
    );
    let pending = startPending([]);
    for (const host of ['a', 'b', 'c']) {
      pending = addRows(pending, [row(host)]);
      planner.schedule(pending);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(300);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toHaveLength(3);
    expect(states.map((s) => s.kind)).toEqual(['asking', 'asking', 'asking', 'planned']);
    const last = states.at(-1);
    expect(last?.kind === 'planned' && last.planned.plan.summary).toBe('3');
  });

  it('drops an answer to older edits that arrives after newer ones were made', async () => {
    const answers: Array<(plan: Plan) => void> = [];
    const states: PlanState[] = [];
    const planner = zonePlanner(
      (edits) => new Promise<Plan>((resolve) => answers.push(() => resolve(planOf(edits)))),
      (state) => states.push(state),
    );
    const one = addRows(startPending([]), [row('a')]);
    planner.schedule(one);
    await vi.advanceTimersByTimeAsync(300);
    const two = addRows(one, [row('b')]);
    planner.schedule(two);
    await vi.advanceTimersByTimeAsync(300);
    expect(answers).toHaveLength(2);
    // The newer answer comes first, then the older one, late.
    answers[1]?.(planOf([]));
    await vi.advanceTimersByTimeAsync(0);
    answers[0]?.(planOf([]));
    await vi.advanceTimersByTimeAsync(0);
    const planned = states.filter((s) => s.kind === 'planned');
    expect(planned).toHaveLength(1);
    expect(planned[0]?.kind === 'planned' && planned[0].planned.edits).toHaveLength(2);
  });

  it('asks nothing while nothing is pending, says a failure, and is silent once stopped', async () => {
    const states: PlanState[] = [];
    let fail = true;
    const planner = zonePlanner(
      async (edits) => {
        if (fail) throw new Error('no answer');
        return planOf(edits);
      },
      (state) => states.push(state),
    );
    planner.schedule(startPending([]));
    expect(states).toEqual([{ kind: 'none' }]);
    const one = addRows(startPending([]), [row('a')]);
    planner.schedule(one);
    await vi.advanceTimersByTimeAsync(300);
    expect(states.at(-1)?.kind).toBe('failed');
    fail = false;
    planner.schedule(one);
    planner.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(states.at(-1)?.kind).toBe('asking');
  });
});
