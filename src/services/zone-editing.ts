/*
 * The Mini App's zone editor's effects: a table's edits planned against the records listed now,
 * and applied — exactly once per Apply, in the gap-free order, a half of a record's change held
 * back when its other half fails — then recorded as one history entry and reported to the chat
 * the account belongs to (the report, its Undo and live check are the chat's: a port).
 */
import type { PartnerApi } from '../api/index.js';
import { heldBackBy } from '../core/dns-change.js';
import type { HistoryAuthor, HistoryEntry } from '../core/dns-history.js';
import { readListedRecords } from '../core/dns-plan.js';
import type { Role } from '../core/team.js';
import { planZoneEdits, type ZoneEdit, type ZoneEditPlan } from '../core/zone-edits.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import { type ChangesOutcome, runChanges } from './dns-apply.js';
import type { DnsRecorder } from './dns-journal.js';

/** The partner API calls planning and applying make. */
export type ZoneEditApi = Pick<PartnerApi, 'listDnsRecords' | 'addDnsRecord' | 'deleteDnsRecord'>;

/** What the chat is told of edits applied from the app. */
export interface EditsReport {
  /** The chat whose account the app acted for (the user's private chat, or the team group). */
  chatId: number;
  who: HistoryAuthor;
  role: Role;
  orderId: number;
  /** ASCII. */
  domain: string;
  outcome: ChangesOutcome;
  total: number;
  /** The history entry (for ↩ Undo); none when nothing was made or no history is kept. */
  entry: HistoryEntry | undefined;
}

/** Sends the report to the chat (the bot implements it; main hands it over). */
export interface EditsReportPort {
  reportEdits(report: EditsReport): Promise<void>;
}

/** One Apply: who, for which account, which domain order, what, and its once-only key. */
export interface EditsApply {
  api: ZoneEditApi;
  who: HistoryAuthor;
  role: Role;
  orderId: number;
  domain: string;
  edits: readonly ZoneEdit[];
  /** Deletes beyond the limit were confirmed. */
  force: boolean;
  /** Made once per pending plan by the app: a repeat gets the first answer, nothing twice. */
  key: string;
}

export type EditsResult =
  | { status: 'applied'; plan: ZoneEditPlan; outcome: ChangesOutcome; entry: HistoryEntry | undefined }
  | { status: 'problems' | 'needsForce' | 'empty'; plan: ZoneEditPlan };

/** How long an Apply's key is remembered, and how many are. */
const KEY_TTL_MS = 15 * 60_000;
const MAX_KEYS = 1_000;

/** Plans edits against what is listed now; nothing is written. */
export async function planEdits(
  api: Pick<ZoneEditApi, 'listDnsRecords'>,
  orderId: number,
  edits: readonly ZoneEdit[],
): Promise<ZoneEditPlan> {
  return planZoneEdits(readListedRecords(await api.listDnsRecords(orderId)), edits);
}

export function createZoneEditing(deps: {
  recorder: DnsRecorder;
  reports: EditsReportPort | undefined;
  logger: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  /** Applies by key, kept while they run and a while after: a double tap or a retry joins the first. */
  const applies = new Map<string, { at: number; result: Promise<EditsResult> }>();

  const forgetOld = () => {
    for (const [key, kept] of applies) {
      if (applies.size <= MAX_KEYS && now() - kept.at < KEY_TTL_MS) break;
      applies.delete(key);
    }
  };

  const run = async (request: EditsApply): Promise<EditsResult> => {
    const plan = await planEdits(request.api, request.orderId, request.edits);
    if (plan.problems.length > 0) return { status: 'problems', plan };
    if (plan.calls.length === 0) return { status: 'empty', plan };
    if (plan.needsForce && !request.force) return { status: 'needsForce', plan };
    const outcome = await runChanges(request.api, request.orderId, plan.calls, { holdBack: heldBackBy });
    const entry = await deps.recorder.record(request.who, request.orderId, 'change', {
      records: outcome.applied,
    });
    // The changes are made: a report that cannot be sent costs the message, never the answer.
    await deps.reports
      ?.reportEdits({
        chatId: request.who.chatId,
        who: request.who,
        role: request.role,
        orderId: request.orderId,
        domain: request.domain,
        outcome,
        total: plan.calls.length,
        entry,
      })
      .catch((error: unknown) =>
        deps.logger.warn({ chatId: request.who.chatId, err: errorForLog(error) }, 'zone edits not reported'),
      );
    return { status: 'applied', plan, outcome, entry };
  };

  return {
    plan: planEdits,
    /** Applies the edits once per key (per account chat); a plan refused is not remembered. */
    apply(request: EditsApply): Promise<EditsResult> {
      forgetOld();
      const key = `${request.who.chatId}:${request.key}`;
      const kept = applies.get(key);
      if (kept) return kept.result;
      const result = run(request);
      applies.set(key, { at: now(), result });
      // Only what was applied is kept: a refusal or a failure may be tried again with the same key.
      result.then(
        (done) => {
          if (done.status !== 'applied') applies.delete(key);
        },
        () => applies.delete(key),
      );
      return result;
    },
  };
}

export type ZoneEditing = ReturnType<typeof createZoneEditing>;
