import { toDnsRecordBody } from '../../../../api/index.js';
import { type FieldKind, problemMessage, readField } from '../../../../core/dns-fields.js';
import { readTxtAnswer } from '../../../../core/dns-line.js';
import {
  checkTogether,
  DEFAULT_TTL,
  DNS_RECORD_TYPES,
  DNS_TYPES,
  type DnsRecordData,
  type DnsType,
  type FieldSpec,
} from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import {
  type OrderDraft,
  type OrderFlow,
  readNumber,
  readString,
  type Step,
  type StepEnv,
} from '../../../forms/types.js';
import { describeRecord } from '../views.js';

/** The answers' keys: the domain order, the type, the host, the TTL (a field's is `dns:<field>`). */
export const ORDER = 'dnsOrder';
export const TYPE = 'dnsType';
export const HOST = 'dnsHost';
export const TTL = 'dnsTtl';

/** The key of a field's answer. */
export const fieldAnswer = (field: string) => `dns:${field}`;

/** A typed answer, read and checked exactly as the one-line form and a BIND import check it. */
function readAnswer(field: string, kind: FieldKind, text: string): string | number {
  const read = readField(field, kind, text);
  if (read.ok) return read.value;
  const { key, params } = problemMessage(read.problem);
  throw new UserInputError(key, params);
}

/** The record type as answered. */
const readType = (value: unknown): DnsType | undefined => DNS_TYPES.find((t) => t === value);

/** A field's answer as `readAnswer` gave it: text, or a number for the numeric fields. */
const readFieldAnswer = (value: unknown): string | number | undefined =>
  typeof value === 'string' || typeof value === 'number' ? value : undefined;

function fieldStep(type: DnsType, { name: field, kind }: FieldSpec): Step<string | number> {
  return {
    id: fieldAnswer(field),
    section: 'record',
    read: readFieldAnswer,
    async ask({ ctx }) {
      const key = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      return { text: ctx.t('dns:askField', { field: ctx.t(`dns:field.${key}`), type }) };
    },
    async parseText(env, text) {
      // A pasted TXT in quotes is read as the one-line form reads it, not kept with its quotes.
      const value = readAnswer(field, kind, kind === 'text' ? readTxtAnswer(text) : text);
      // A rule over several fields (a null MX's priority 0) is checked once both are answered,
      // whichever is answered (or edited) last.
      const answered = Object.fromEntries(
        DNS_RECORD_TYPES[type].fields.map((f) => [
          f.name,
          readFieldAnswer(env.draft.answers[`dns:${f.name}`]),
        ]),
      );
      const problem = checkTogether(type, { ...answered, [field]: value });
      if (problem) {
        const { key, params } = problemMessage(problem);
        throw new UserInputError(key, params);
      }
      return value;
    },
  };
}

/** The record the answers describe (all steps answered), built by its type's descriptor. */
export function recordOf(draft: OrderDraft): DnsRecordData {
  const type = DNS_TYPES.find((t) => t === draft.answers[TYPE]);
  if (!type) throw new UserInputError('dns:needDomain');
  const values: Record<string, string | number> = {};
  for (const { name } of DNS_RECORD_TYPES[type].fields) {
    const answer = draft.answers[fieldAnswer(name)];
    values[name] = typeof answer === 'number' ? answer : String(answer ?? '');
  }
  return DNS_RECORD_TYPES[type].build(String(draft.answers[HOST]), Number(draft.answers[TTL]), values);
}

/** Given by where the form started (a button), never asked. */
function givenStep(id: string): Step<number> {
  return {
    id,
    section: 'given',
    read: readNumber,
    async ask() {
      throw new UserInputError('dns:needDomain');
    },
  };
}

/**
 * A record's questions: the domain order (given), the type (asked, or given when a change keeps
 * it), the host, the type's fields and the TTL. The guided add and the guided change share them.
 */
export function recordSteps(draft: OrderDraft, options: { typeGiven: boolean }): Step[] {
  const type = DNS_TYPES.find((t) => t === draft.answers[TYPE]);
  return [
    givenStep(ORDER),
    {
      id: TYPE,
      section: options.typeGiven ? 'given' : 'recordType',
      read: readType,
      async ask({ ctx }) {
        return {
          text: ctx.t('dns:askType'),
          options: DNS_TYPES.map((t) => ({ label: t, value: t })),
          perRow: 4,
        };
      },
      invalidates: (d) => Object.keys(d.answers).filter((k) => k.startsWith('dns:')),
    } satisfies Step<DnsType>,
    {
      id: HOST,
      section: 'record',
      read: readString,
      async ask({ ctx }) {
        return { text: ctx.t('dns:askHost') };
      },
      async parseText(_env, text) {
        return String(readAnswer('host', 'host', text));
      },
    } satisfies Step<string>,
    ...(type ? DNS_RECORD_TYPES[type].fields.map((field) => fieldStep(type, field)) : []),
    {
      id: TTL,
      section: 'record',
      read: readNumber,
      async ask({ ctx }) {
        return {
          text: ctx.t('dns:askTtl'),
          options: [300, DEFAULT_TTL, 86_400].map((ttl) => ({
            label: ctx.t('dns:ttlOption', { ttl }),
            value: ttl,
          })),
          perRow: 3,
        };
      },
      async parseText(_env, text) {
        return Number(readAnswer('ttl', 'ttl', text));
      },
    } satisfies Step<number>,
  ];
}

/** The domain a form's record is for, as the partner reads it. */
export async function formDomain(env: StepEnv): Promise<string> {
  const orderId = Number(env.draft.answers[ORDER]);
  const domain = (await env.api.domainOrderIndex()).byOrderId.get(orderId) ?? String(orderId);
  return escapeHtml(toUnicodeDomain(domain));
}

/**
 * Adding a DNS record by buttons: type → host → the type's fields → ttl → preview → confirm.
 * It ends on the added record with its id and the list button (`showAdded`, built with the DNS
 * records list before the engine and handed to this flow and the DNS feature alike).
 */
export function createDnsAddFlow(deps: {
  showAdded(ctx: BotContext, orderId: number, record: DnsRecordData): Promise<void>;
}): OrderFlow {
  const steps = (draft: OrderDraft): Step[] => recordSteps(draft, { typeGiven: false });

  return {
    kind: 'dnsAdd',
    confirmKey: 'dns:addConfirm',
    cancelKey: 'dns:addCancelled',
    submittingKey: 'dns:adding',
    midFlowKey: 'dns:commandMidAdd',
    steps,
    async summaryHead(env: StepEnv) {
      return [
        env.ctx.t('dns:addPreview', { domain: await formDomain(env) }),
        describeRecord(env.ctx.t, recordOf(env.draft)),
      ];
    },
    async finish(env) {
      const orderId = Number(env.draft.answers[ORDER]);
      const record = recordOf(env.draft);
      await env.api.addDnsRecord(orderId, toDnsRecordBody(record));
      await deps.showAdded(env.ctx, orderId, record);
    },
  };
}
