/*
 * Making a DNS plan's changes at the provider, one call at a time and in the plan's order: what
 * the chat's Apply buttons and the Mini App's Apply both run. It sends no message and words no
 * error: each face reports the outcome in its own way (a chat message, a JSON answer).
 */
import { dnsRecordKindOf, type PartnerApi, toDnsRecordBody } from '../api/index.js';
import type { AppliedChange, PlannedChange } from '../core/dns-plan.js';

/** The partner API calls a change makes. */
export type DnsWriteApi = Pick<PartnerApi, 'addDnsRecord' | 'deleteDnsRecord'>;

/** The provider call of one planned change: the add, or the delete by the record's id and kind. */
export async function makeCall(api: DnsWriteApi, orderId: number, change: PlannedChange): Promise<void> {
  if (change.op === 'add') {
    await api.addDnsRecord(orderId, toDnsRecordBody(change.record));
    return;
  }
  const kind = dnsRecordKindOf(change.record.type);
  if (kind) await api.deleteDnsRecord(orderId, kind, change.id);
}

/**
 * A change that was not made: the provider refused it (`error`), or it was held back because the
 * other half of its record's change failed (`heldBack`, no call made).
 */
export type ChangeFailure =
  | { change: PlannedChange; heldBack: false; error: unknown }
  | { change: PlannedChange; heldBack: true };

export interface ChangesOutcome {
  /** The changes the provider accepted, in order. */
  applied: AppliedChange[];
  failures: ChangeFailure[];
}

/**
 * Makes the changes in order. A failed change does not stop the others, except those `holdBack`
 * names given the failures so far (the other half of a record's change: `heldBackBy` in core).
 * `onProgress` hears how many are done after each.
 */
export async function runChanges(
  api: DnsWriteApi,
  orderId: number,
  changes: readonly PlannedChange[],
  options: {
    onProgress?: ((done: number) => Promise<void>) | undefined;
    holdBack?: ((change: PlannedChange, failed: readonly PlannedChange[]) => boolean) | undefined;
  } = {},
): Promise<ChangesOutcome> {
  const applied: AppliedChange[] = [];
  const failures: ChangeFailure[] = [];
  for (const [index, change] of changes.entries()) {
    if (
      options.holdBack?.(
        change,
        failures.map((f) => f.change),
      )
    ) {
      failures.push({ change, heldBack: true });
    } else {
      try {
        await makeCall(api, orderId, change);
        applied.push({ op: change.op, record: change.record });
      } catch (error) {
        failures.push({ change, heldBack: false, error });
      }
    }
    await options.onProgress?.(index + 1);
  }
  return { applied, failures };
}
