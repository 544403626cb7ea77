import { diffZone } from './bind.js';
import type { DnsRecordData } from './dns-records.js';

/*
 * Import planning: what an imported zone changes against the records the provider lists, and
 * when such a change is large enough to need a second, explicit confirmation (octoDNS plan.py's
 * safety threshold). A changed record is a delete plus an add here: the provider has no update.
 */

/** A listed record the plan may delete, with the provider's id. */
export interface ListedRecord {
  id: number;
  record: DnsRecordData;
}

/** What applying an imported zone does to one domain order; kept in the session until Apply. */
export interface ImportPlan {
  /** Ties the Apply button to this plan; a button of an older plan finds none. */
  nonce: string;
  orderId: number;
  /** ASCII form. */
  domain: string;
  add: DnsRecordData[];
  remove: ListedRecord[];
  /** How many records the provider listed when the plan was made. */
  existing: number;
}

/** Zones smaller than this are never held back: every change is shown in the preview anyway. */
export const MIN_EXISTING_FOR_LIMIT = 10;
/** A plan that deletes more than this percentage of the existing records needs force (octoDNS: 30). */
export const MAX_SAFE_DELETE_PERCENT = 30;

/** The plan of an import: the records to add and to delete, and those left as they are. */
export function planImport(
  target: { nonce: string; orderId: number; domain: string },
  current: readonly ListedRecord[],
  wanted: readonly DnsRecordData[],
  existing: number = current.length,
): { plan: ImportPlan; unchanged: ListedRecord[] } {
  const diff = diffZone(current, wanted);
  return {
    plan: { ...target, add: diff.toAdd, remove: diff.toDelete, existing },
    unchanged: diff.unchanged,
  };
}

/** Whether the plan changes nothing. */
export function isEmptyPlan(plan: Pick<ImportPlan, 'add' | 'remove'>): boolean {
  return plan.add.length === 0 && plan.remove.length === 0;
}

/**
 * Whether applying the plan needs force: it deletes more than 30% of at least 10 existing
 * records (octoDNS's update/delete threshold).
 */
export function needsForce(plan: Pick<ImportPlan, 'remove' | 'existing'>): boolean {
  return (
    // Whole numbers on both sides: 30% of 70 must not become 20.999….
    plan.existing >= MIN_EXISTING_FOR_LIMIT &&
    plan.remove.length * 100 > plan.existing * MAX_SAFE_DELETE_PERCENT
  );
}
