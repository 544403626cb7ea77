import {
  DEFAULT_TTL,
  DNS_TYPES,
  type DnsRecordData,
  type DnsType,
  isDomainName,
  isHostLabel,
  isIpv4,
  isIpv6,
  toApiInput,
} from '../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { type BotContext, UserInputError } from '../../context.js';
import { describeRecord } from '../../views/dns.js';
import type { OrderDraft, OrderFlow, Step, StepEnv } from './types.js';

const ORDER = 'dnsOrder';
const TYPE = 'dnsType';
const HOST = 'dnsHost';
const TTL = 'dnsTtl';

type FieldKind = 'ipv4' | 'ipv6' | 'name' | 'int16' | 'text' | 'label';

/** The fields each type asks after the host, in the order of partner-api.md. */
const FIELDS: Record<DnsType, [string, FieldKind][]> = {
  A: [['ipv4', 'ipv4']],
  AAAA: [['ipv6', 'ipv6']],
  CNAME: [['canonical', 'name']],
  NS: [['ns', 'name']],
  MX: [
    ['mail_server', 'name'],
    ['priority', 'int16'],
  ],
  TXT: [['text', 'text']],
  SRV: [
    ['service', 'label'],
    ['protocol', 'label'],
    ['target', 'name'],
    ['port', 'int16'],
    ['priority', 'int16'],
    ['weight', 'int16'],
  ],
};

function readField(kind: FieldKind, text: string): string | number {
  const value = kind === 'text' ? text : text.trim();
  const ok =
    kind === 'ipv4'
      ? isIpv4(value)
      : kind === 'ipv6'
        ? isIpv6(value)
        : kind === 'name'
          ? isDomainName(value)
          : kind === 'int16'
            ? /^\d{1,5}$/.test(value) && Number(value) <= 65_535
            : kind === 'label'
              ? /^_?[A-Za-z0-9-]{1,63}$/.test(value)
              : value.trim() !== '' && value.length <= 4000;
  if (!ok) throw new UserInputError(`dns:invalid.${kind}`);
  return kind === 'int16' ? Number(value) : value;
}

function fieldStep(type: DnsType, field: string, kind: FieldKind): Step {
  return {
    id: `dns:${field}`,
    section: 'subject',
    async ask({ ctx }) {
      const key = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      return { text: ctx.t('dns:askField', { field: ctx.t(`dns:field.${key}`), type }) };
    },
    async parseText(_env, text) {
      return readField(kind, text);
    },
  };
}

/** The record the answers describe (all steps answered). */
export function recordOf(draft: OrderDraft): DnsRecordData {
  const type = draft.answers[TYPE] as DnsType;
  const fields = Object.fromEntries(FIELDS[type].map(([name]) => [name, draft.answers[`dns:${name}`]]));
  return {
    type,
    host: String(draft.answers[HOST]),
    ttl: Number(draft.answers[TTL]),
    ...fields,
  } as DnsRecordData;
}

/**
 * Adding a DNS record by buttons: type → host → the type's fields → ttl → preview → confirm.
 * `afterAdd` shows the refreshed list (the add call returns no id; the list has it).
 */
export function createDnsAddFlow(deps: {
  afterAdd(ctx: BotContext, orderId: number): Promise<void>;
}): OrderFlow {
  const steps = (draft: OrderDraft): Step[] => {
    const type = DNS_TYPES.find((t) => t === draft.answers[TYPE]);
    return [
      {
        // Filled from the button that started the form; never asked.
        id: ORDER,
        section: 'subject',
        async ask() {
          throw new UserInputError('dns:needDomain', { usageKey: 'dns:usage' });
        },
      },
      {
        id: TYPE,
        section: 'subject',
        async ask({ ctx }) {
          return {
            text: ctx.t('dns:askType'),
            options: DNS_TYPES.map((t) => ({ label: t, value: t })),
            perRow: 4,
          };
        },
        invalidates: (d) => Object.keys(d.answers).filter((k) => k.startsWith('dns:')),
      },
      {
        id: HOST,
        section: 'subject',
        async ask({ ctx }) {
          return { text: ctx.t('dns:askHost') };
        },
        async parseText(_env, text) {
          const host = text.trim();
          if (!isHostLabel(host)) throw new UserInputError('dns:invalid.host');
          return host;
        },
      },
      ...(type ? FIELDS[type].map(([field, kind]) => fieldStep(type, field, kind)) : []),
      {
        id: TTL,
        section: 'subject',
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
          const ttl = Number(text.trim());
          if (!/^\d{1,10}$/.test(text.trim()) || ttl < 1 || ttl > 2_147_483_647)
            throw new UserInputError('dns:invalid.ttl');
          return ttl;
        },
      },
    ];
  };

  return {
    kind: 'dnsAdd',
    confirmKey: 'dns:addConfirm',
    cancelKey: 'dns:addCancelled',
    steps,
    async summaryHead(env: StepEnv) {
      const orderId = Number(env.draft.answers[ORDER]);
      const [order] = await env.api.listDomainOrders({ order_id: orderId });
      const domain = order?.advanced?.domain ?? String(orderId);
      return [
        env.ctx.t('dns:addPreview', { domain: escapeHtml(toUnicodeDomain(domain)) }),
        describeRecord(env.ctx.t, recordOf(env.draft)),
      ];
    },
    async finish(env) {
      const orderId = Number(env.draft.answers[ORDER]);
      const record = recordOf(env.draft);
      await env.api.addDnsRecord(orderId, toApiInput(record) as never);
      await env.ctx.reply(env.ctx.t('dns:added', { record: describeRecord(env.ctx.t, record) }), {
        parse_mode: 'HTML',
      });
      await deps.afterAdd(env.ctx, orderId);
    },
  };
}
