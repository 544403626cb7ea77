import { planRecordChange, valueField } from '../../../../core/dns-change.js';
import { readListedRecords } from '../../../../core/dns-plan.js';
import { DNS_RECORD_TYPES, type DnsRecordData, fieldValues } from '../../../../core/dns-records.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import type { OrderEngine } from '../../../forms/engine.js';
import {
  type OrderDraft,
  type OrderFlow,
  readNumber,
  type Step,
  type StepEnv,
} from '../../../forms/types.js';
import {
  fieldAnswer,
  formDomain,
  HOST,
  ORDER,
  recordOf,
  recordSteps,
  TTL,
  TYPE,
} from '../records/add-flow.js';
import { describeRecord } from '../views.js';
import type { ChangeRunner } from './runner.js';
import { describeRefusal, listButton } from './views.js';

/** The record being changed: its id among the domain's records (given by the card's button). */
const RECORD = 'dnsRecord';

/**
 * ✏️ Change of a record's card: the guided add's questions, the type kept and every answer
 * prefilled from the record but the value, which is asked with the old one to keep. The summary
 * reads «было → станет»; Confirm makes the change gap-free (the change runner).
 */
export function createDnsChangeFlow(deps: { changes: ChangeRunner }): OrderFlow {
  const steps = (draft: OrderDraft): Step[] => {
    const [order, ...rest] = recordSteps(draft, { typeGiven: true });
    const record: Step<number> = {
      id: RECORD,
      section: 'given',
      read: readNumber,
      async ask() {
        throw new UserInputError('dns:needDomain');
      },
    };
    return order ? [order, record, ...rest] : [record, ...rest];
  };

  /** The record as it is now; undefined when it was changed or deleted meanwhile (its id is gone). */
  const currentRecord = async (env: StepEnv) => {
    const orderId = Number(env.draft.answers[ORDER]);
    const id = Number(env.draft.answers[RECORD]);
    const listed = readListedRecords(await env.api.listDnsRecords(orderId));
    return { orderId, listed, old: listed.find((r) => r.id === id) };
  };

  return {
    kind: 'dnsChange',
    confirmKey: 'dnschange:confirm',
    cancelKey: 'dnschange:cancelled',
    submittingKey: 'dnschange:changing',
    midFlowKey: 'dnschange:midFlow',
    steps,
    async summaryHead(env: StepEnv) {
      const { old } = await currentRecord(env);
      const { t } = env.ctx;
      return [
        t('dnschange:preview', { domain: await formDomain(env) }),
        t('dnschange:was', { record: old ? describeRecord(t, old.record) : t('dnschange:goneLine') }),
        t('dnschange:becomes', { record: describeRecord(t, recordOf(env.draft)) }),
      ];
    },
    // The form ends here whatever happens: a record gone meanwhile, or a change that cannot be
    // made, is said with the way to the list — never the same summary again.
    async finish(env) {
      const { ctx } = env;
      const { orderId, listed, old } = await currentRecord(env);
      if (!old) {
        await ctx.reply(ctx.t('dnschange:recordGone'), listButton(ctx, orderId));
        return;
      }
      const planned = planRecordChange(listed, old, recordOf(env.draft));
      if (!planned.ok) {
        const refusal = describeRefusal(planned);
        await ctx.reply(ctx.t(refusal.key, refusal.params), {
          parse_mode: 'HTML',
          ...listButton(ctx, orderId),
        });
        return;
      }
      await deps.changes.run(ctx, orderId, planned.plan);
    },
  };
}

/** Opens the change form of a listed record: everything prefilled but its value, offered to keep. */
export async function startRecordChange(
  engine: OrderEngine,
  ctx: BotContext,
  orderId: number,
  recordId: number,
  record: DnsRecordData,
): Promise<void> {
  const asked = valueField(record.type);
  const chosen: Record<string, unknown> = {
    [ORDER]: orderId,
    [RECORD]: recordId,
    [TYPE]: record.type,
    [HOST]: record.host,
    [TTL]: record.ttl,
  };
  const kept: Record<string, unknown> = {};
  for (const [spec, value] of fieldValues(record)) {
    if (spec.name === asked) kept[fieldAnswer(spec.name)] = value;
    else chosen[fieldAnswer(spec.name)] = value;
  }
  // Every field of the type is answered or offered: the engine asks the value first.
  if (!DNS_RECORD_TYPES[record.type].fields.some((f) => f.name === asked)) return;
  await engine.start(ctx, 'dnsChange', {}, chosen, undefined, kept);
}
