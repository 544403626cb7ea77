/*
 * The Mini App's API endpoints: what each needs of the member's role (the chat's capabilities,
 * `core/team.ts`) and what it answers. Thin: input read with zod or core, one partner API call
 * with the chosen account's token, the answer as JSON. No answer carries a token.
 */
import { z } from 'zod';
import type { PartnerApi } from '../api/index.js';
import { formatDnsLine, parseDnsLine } from '../core/dns-line.js';
import { parseListedRecord } from '../core/dns-records.js';
import { toAsciiDomain, toUnicodeDomain } from '../core/domain-names.js';
import { type Capability, can, ROLES } from '../core/team.js';
import { echoInput } from '../core/text.js';
import type { Account } from './access.js';
import type { LaunchData } from './init-data.js';

/** The partner API calls the endpoints make. */
export type MiniAppPartnerApi = Pick<PartnerApi, 'domainOrderIndex' | 'listDnsRecords'>;

/** One checked call: who, which account, its client, and the query or body. */
export interface EndpointCall {
  launch: LaunchData;
  account: Account;
  api: MiniAppPartnerApi;
  query: URLSearchParams;
  /** The parsed JSON body of a POST; undefined for a GET. */
  body: unknown;
}

/**
 * A refusal an endpoint answers with: its status, the `error` code (a key of the `miniapp:error`
 * locale namespace) and the words the message interpolates.
 */
export class EndpointError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly vars: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'EndpointError';
  }
}

export interface Endpoint {
  method: 'GET' | 'POST';
  /** What the member's role must allow, as the same command in the chat. */
  need: Capability;
  run(call: EndpointCall): Promise<unknown>;
}

/** What the app may show and offer the member; the chat's own rules. */
function sessionOf(call: EndpointCall) {
  const { launch, account } = call;
  return {
    user: { id: launch.userId, firstName: launch.user.firstName },
    account: { kind: account.kind, chatId: account.chatId, role: account.role },
    capabilities: ROLES[account.role].capabilities,
    // DNS is `tech` work in the chat (/dns); a role without it sees no zone at all.
    dns: can(account.role, 'tech') ? 'edit' : 'none',
    authDate: launch.authDate.toISOString(),
  };
}

/** The domain order of `domain` (any spelling); the index is asked fresh once on a miss, as /dns does. */
async function findDomainOrder(
  api: MiniAppPartnerApi,
  domain: string,
): Promise<{ orderId: number; ascii: string }> {
  const ascii = toAsciiDomain(domain);
  if (ascii === undefined) throw new EndpointError(400, 'badDomain', { value: echoInput(domain, 64) });
  const orderId =
    (await api.domainOrderIndex()).byDomain.get(ascii) ??
    (await api.domainOrderIndex({ fresh: true })).byDomain.get(ascii);
  if (orderId === undefined)
    throw new EndpointError(404, 'domainNotFound', { domain: toUnicodeDomain(ascii) });
  return { orderId, ascii };
}

/** A zone's records as listed, each also read into fields and written as the one-line form. */
async function zoneOf(call: EndpointCall) {
  const domain = call.query.get('domain') ?? '';
  const { orderId, ascii } = await findDomainOrder(call.api, domain);
  const listed = await call.api.listDnsRecords(orderId);
  return {
    domain: ascii,
    domainUnicode: toUnicodeDomain(ascii),
    orderId,
    records: listed.map((entry) => {
      const record = parseListedRecord(entry);
      return {
        id: entry.record_id,
        type: entry.type,
        ttl: entry.ttl,
        value: entry.value,
        record: record ?? null,
        line: record === undefined ? null : formatDnsLine(record),
      };
    }),
  };
}

const lineBody = z.strictObject({ line: z.string().min(1).max(2_000) });

/** A one-line record checked as the chat checks it (`core/dns-line.ts`); nothing is written. */
function checkLine(call: EndpointCall) {
  const parsed = lineBody.safeParse(call.body);
  if (!parsed.success) throw new EndpointError(400, 'badJson');
  const result = parseDnsLine(parsed.data.line);
  return result.ok
    ? { ok: true, record: result.record, line: formatDnsLine(result.record) }
    : { ok: false, field: result.field, reason: result.reason, form: result.form ?? null };
}

/** The API, by path below `<app path>api/`. */
export const ENDPOINTS = {
  session: { method: 'GET', need: 'anyone', run: async (call) => sessionOf(call) },
  zone: { method: 'GET', need: 'tech', run: zoneOf },
  'zone/check': { method: 'POST', need: 'tech', run: async (call) => checkLine(call) },
} as const satisfies Record<string, Endpoint>;
