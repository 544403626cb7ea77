import { answerOf, type OrderDraft } from '../../forms/types.js';

/** The answers a request is built from are read back by their steps; one missing is a bug. */
export function requireAnswer<T>(
  draft: OrderDraft,
  step: { id: string; read(value: unknown): T | undefined },
): T {
  const value = answerOf(draft, step);
  if (value === undefined) throw new Error(`order answer ${step.id} missing`);
  return value;
}
