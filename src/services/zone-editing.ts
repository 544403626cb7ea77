/*
 * The Mini App's zone editor's effects: a table's edits planned against the records listed now,
 * and applied — exactly once per Apply, in the gap-free order, a half of a record's change held
 * back when its other half fails — then recorded as one history entry and reported to the chat
 * the account belongs to (the report, its Undo and live check are the chat's: a port).
 */
import { ApiHttpError, type PartnerApi } from '../api/index.js';
import { heldBackBy } from '../core/dns-change.js';
import type { HistoryAuthor, HistoryEntry } from '../core/dns-history.js';
import { readListedRecords } from '../core/dns-plan.js';
import type { Role } from '../core/team.js';
import { planZoneEdits, type ZoneEdit, type ZoneEditPlan } from '../core/zone-edits.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import { createLowdbOnceKeys, type OnceKeys } from '../storage/once-keys.js';
import { type ChangeFailure, type ChangesOutcome, runChanges } from './dns-apply.js';
import type { DnsRecorder } from './dns-journal.js';
import { runOnce } from './once-only.js';

/** The partner API calls planning and applying make. */
export type ZoneEditApi = Pick<PartnerApi, 'listDnsRecords' | 'addDnsRecord' | 'deleteDnsRecord'>;

/** What the chat is told of edits applied from the app. */
export interface EditsReport {
  /** The chat whose account the app acted for (the user's private chat, or the team group). */
  chatId: number;
  /** That chat's account the edits were made on (the report is headed with it where it has several). */
  account: number;
  who: HistoryAuthor;
  role: Role;
  orderId: number;
  /** ASCII. */
  domain: string;
  outcome: ChangesOutcome;
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
  /** `who.account`: the chat's account the edits are made on (its history, its report, its keys). */
  who: HistoryAuthor & { account: number };
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
  | { status: 'problems' | 'needsForce' | 'empty'; plan: ZoneEditPlan }
  /** The same key is being applied (here or on another instance) and has not ended yet. */
  | { status: 'inProgress' };

/** How long an Apply's key is remembered. */
const KEY_TTL_MS = 15 * 60_000;

/**
 * An applied result as kept with its key (JSON): the provider's refusals keep what the answer
 * words (status and message), the history entry stays out (it names the member).
 */
function storedResult(result: EditsResult): unknown {
  if (result.status !== 'applied') return result;
  const failures = result.outcome.failures.map((failure) =>
    failure.heldBack
      ? failure
      : {
          ...failure,
          error:
            failure.error instanceof ApiHttpError
              ? { ...failure.error.toJSON(), status: failure.error.status }
              : { name: 'Error' },
        },
  );
  return { ...result, outcome: { ...result.outcome, failures }, entry: undefined };
}

/** A kept result back, its refusals as the errors they were (the endpoint words them by kind). */
function revivedResult(stored: unknown): EditsResult {
  const result = stored as EditsResult;
  if (result.status !== 'applied') return result;
  const failures = result.outcome.failures.map((failure): ChangeFailure => {
    if (failure.heldBack) return failure;
    const error = failure.error as {
      status?: number;
      operation?: string;
      method?: string;
      path?: string;
      providerMessage?: string;
    };
    return {
      ...failure,
      error:
        error.status === undefined
          ? new Error('change failed')
          : new ApiHttpError(
              { operation: error.operation ?? '', method: error.method ?? '', path: error.path ?? '' },
              error.status,
              error.providerMessage,
            ),
    };
  });
  return { ...result, outcome: { ...result.outcome, failures } };
}

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
  /**
   * Where Apply keys are claimed and their results kept (storage's: lowdb, or Redis shared by
   * every instance); this process's memory when not given.
   */
  onceKeys?: OnceKeys;
  /** How long a repeat waits for a running Apply of its key before it is told `inProgress`. */
  waitMs?: number;
}) {
  const onceKeys = deps.onceKeys ?? createLowdbOnceKeys();

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
        account: request.who.account,
        who: request.who,
        role: request.role,
        orderId: request.orderId,
        domain: request.domain,
        outcome,
        entry,
      })
      .catch((error: unknown) =>
        deps.logger.warn({ chatId: request.who.chatId, err: errorForLog(error) }, 'zone edits not reported'),
      );
    return { status: 'applied', plan, outcome, entry };
  };

  return {
    plan: planEdits,
    /**
     * Applies the edits once per key (per chat and account), on every instance sharing the store: a
     * repeat while the first runs waits for its result. Only what was applied is kept: a refusal
     * or a failure may be tried again with the same key.
     */
    async apply(request: EditsApply): Promise<EditsResult> {
      const once = await runOnce(
        onceKeys,
        `apply:${request.who.chatId}:${request.who.account}:${request.key}`,
        async () => {
          const value = await run(request);
          return { value, keep: value.status === 'applied' };
        },
        {
          keepMs: KEY_TTL_MS,
          store: storedResult,
          revive: revivedResult,
          ...(deps.waitMs === undefined ? {} : { waitMs: deps.waitMs }),
        },
      );
      return once.kind === 'busy' ? { status: 'inProgress' } : once.value;
    },
  };
}

export type ZoneEditing = ReturnType<typeof createZoneEditing>;
