/*
 * The DNS editor's endpoints: the zone as rows, a line checked, a pasted zone read into rows, the
 * pending edits planned, and Apply. Planning and applying are the services' (what the chat runs
 * too); here only the body is read and the outcome answered in the user's words.
 */
import { countChanges, sameRecordData } from '../core/dns-change.js';
import { formatDnsLine, parseDnsLine } from '../core/dns-line.js';
import { readListedRecords } from '../core/dns-plan.js';
import { sortRecords } from '../core/dns-record-order.js';
import { DNS_TYPES, type DnsRecordData, parseListedRecord, sameRecord } from '../core/dns-records.js';
import { describeSkipReason } from '../core/dns-words.js';
import { toAsciiDomain, toUnicodeDomain } from '../core/domain-names.js';
import { echoInput } from '../core/text.js';
import { rowOfRecord, type ZoneEdit } from '../core/zone-edits.js';
import { importZone } from '../core/zone-reader.js';
import type { AnswerOf } from './contract.js';
import { describeCounts, describeEditLine, describeFailure, describeProblem } from './edit-words.js';
import { type CallOf, EndpointError, type MiniAppPartnerApi } from './endpoint-types.js';

/** The domain order of `domain` (any spelling); the index is asked fresh once on a miss, as /dns does. */
async function findDomainOrder(
  api: MiniAppPartnerApi,
  domain: string | undefined,
): Promise<{ orderId: number; ascii: string }> {
  const text = domain ?? '';
  const ascii = toAsciiDomain(text);
  if (ascii === undefined) throw new EndpointError(400, 'badDomain', { value: echoInput(text, 64) });
  const orderId =
    (await api.domainOrderIndex()).byDomain.get(ascii) ??
    (await api.domainOrderIndex({ fresh: true })).byDomain.get(ascii);
  if (orderId === undefined)
    throw new EndpointError(404, 'domainNotFound', { domain: toUnicodeDomain(ascii) });
  return { orderId, ascii };
}

/** How many of the account's domains the picker offers (the field takes any other). */
const PICKER_DOMAINS = 100;

/** The account's domains, by name: what the picker offers (the session's account's, after a switch). */
export async function domainsOf(call: CallOf<'zone/domains'>): Promise<AnswerOf<'zone/domains'>> {
  const index = await call.api.domainOrderIndex();
  return {
    domains: [...index.byDomain.keys()]
      .sort()
      .slice(0, PICKER_DOMAINS)
      .map((domain) => ({ domain, domainUnicode: toUnicodeDomain(domain) })),
  };
}

/** A zone's records as listed, each also read into its row and the one-line form, and the types a row may have. */
export async function zoneOf(call: CallOf<'zone'>): Promise<AnswerOf<'zone'>> {
  const { orderId, ascii } = await findDomainOrder(call.api, call.input.domain);
  const listed = await call.api.listDnsRecords(orderId);
  return {
    domain: ascii,
    domainUnicode: toUnicodeDomain(ascii),
    orderId,
    recordTypes: [...DNS_TYPES],
    // The chat's one order, by type then host, so the editor lists what `/dns` lists.
    records: sortRecords(listed).map((entry) => {
      const record = parseListedRecord(entry);
      return {
        id: entry.record_id,
        type: entry.type,
        ttl: entry.ttl,
        value: entry.value,
        line: record === undefined ? null : formatDnsLine(record),
        row: record === undefined ? null : rowOfRecord(record),
      };
    }),
  };
}

/** A one-line record checked as the chat checks it (`core/dns-line.ts`), and its row; nothing is written. */
export function checkLine(call: CallOf<'zone/check'>): AnswerOf<'zone/check'> {
  const result = parseDnsLine(call.input.line);
  return result.ok
    ? { ok: true, line: formatDnsLine(result.record), row: rowOfRecord(result.record) }
    : { ok: false, field: result.field, reason: result.reason, form: result.form ?? null };
}

/** The pending edits planned against the zone as it is now, in words; nothing is written. */
export async function planOf(call: CallOf<'zone/plan'>): Promise<AnswerOf<'zone/plan'>> {
  const body = call.input;
  const { orderId, ascii } = await findDomainOrder(call.api, body.domain);
  const plan = await call.services.zoneEditing.plan(call.api, orderId, body.edits);
  return {
    domain: ascii,
    domainUnicode: toUnicodeDomain(ascii),
    orderId,
    existing: plan.existing,
    lines: plan.lines.map((line) => describeEditLine(call.t, line)),
    problems: plan.problems.map((problem) => describeProblem(call.t, problem)),
    needsForce: plan.needsForce,
    ...(plan.needsForce ? { forceQuestion: forceQuestion(call, plan) } : {}),
    summary: describeCounts(call.t, plan.lines),
  };
}

const forceQuestion = (
  call: CallOf<'zone/plan' | 'zone/apply'>,
  plan: { calls: { op: string }[]; existing: number },
) =>
  call.t('miniapp:massDeleteConfirm', {
    count: plan.calls.filter((c) => c.op === 'delete').length,
    existing: plan.existing,
  });

/** A pasted zone (a BIND file or the chat's lines) read into rows; those already listed are left out. */
export async function pasteOf(call: CallOf<'zone/paste'>): Promise<AnswerOf<'zone/paste'>> {
  const body = call.input;
  const { orderId, ascii } = await findDomainOrder(call.api, body.domain);
  const [listed, servers] = await Promise.all([
    call.api.listDnsRecords(orderId),
    call.api.listNameServers(orderId).catch(() => []),
  ]);
  const current = readListedRecords(listed);
  const read = importZone(body.text, ascii, { providerNameServers: servers });
  const fresh = read.records.filter((r) => !current.some((c) => sameRecord(c.record, r)));
  // A record the zone has with another TTL is that record changed, not a second one beside it.
  const retimed = (record: DnsRecordData) => current.find((c) => sameRecordData(c.record, record));
  return {
    rows: fresh.filter((r) => retimed(r) === undefined).map(rowOfRecord),
    changes: fresh.flatMap((r) => {
      const old = retimed(r);
      return old === undefined ? [] : [{ id: old.id, row: rowOfRecord(r) }];
    }),
    skipped: read.unsupported.map((line) => ({
      line: line.line,
      message: `${echoInput(line.text, 60)} — ${describeSkipReason(call.t, line.reason)}`,
    })),
  };
}

/** Apply: the services apply the plan once per key and tell the chat; the answer says what was done. */
export async function applyOf(call: CallOf<'zone/apply'>): Promise<AnswerOf<'zone/apply'>> {
  const body = call.input;
  const { orderId, ascii } = await findDomainOrder(call.api, body.domain);
  const edits: ZoneEdit[] = body.edits;
  const result = await call.services.zoneEditing.apply({
    api: call.api,
    // The session's account: its history gets the entry, its chat's report is headed with it.
    who: {
      chatId: call.account.chatId,
      userId: call.launch.userId,
      name: call.launch.user.firstName,
      account: call.account.n,
    },
    role: call.account.role,
    orderId,
    domain: ascii,
    edits,
    force: body.force ?? false,
    key: body.key,
  });
  if (result.status === 'inProgress') throw new EndpointError(409, 'applying');
  const { plan } = result;
  switch (result.status) {
    case 'problems': {
      const problems = plan.problems.map((problem) => describeProblem(call.t, problem));
      if (plan.problems.some((problem) => problem.reason === 'gone'))
        throw new EndpointError(409, 'zoneChanged', {}, { problems });
      throw new EndpointError(400, 'badEdits', {}, { problems });
    }
    case 'empty':
      throw new EndpointError(400, 'nothingToApply');
    case 'needsForce':
      throw new EndpointError(409, 'needsForce', {}, { message: forceQuestion(call, plan) });
    case 'applied': {
      const { applied, failures } = result.outcome;
      // The partner's changes, as the plan counted them and the chat's report says.
      const { done, total } = countChanges({ applied, failed: failures.map((f) => f.change) });
      return {
        applied: done,
        failed: total - done,
        total,
        failures: failures.map((failure) => describeFailure(call.t, failure)),
        message: `${call.t('dns:applied', { ok: done, total })} ${call.t('miniapp:reportInChat')}`,
      };
    }
  }
}
