import { ApiInterruptedError } from '../../api/index.js';
import { errorForLog } from '../../logger.js';
import { type CreatedOrder, findNewOrder, type OrderSubmission } from '../../services/order-submit.js';
import type { BotContext } from '../context.js';
import { reportCreatedOrder } from './created-order.js';
import { loadDraft, loadEnv, type OrderEngineDeps, resolveFlow } from './form-state.js';
import { formOwnerKey } from './member-scenes.js';
import { showSummary } from './rendering.js';
import { ORDER_SCENE, type OrderFlow, readDraft, type StepEnv } from './types.js';

const CANCEL_COMMAND = /^\/cancel(@\w+)?(\s|$)/;

/** What became of a Confirm a killed process left unfinished. */
type Interrupted = { created: CreatedOrder } | 'notCreated' | 'unchecked';

/**
 * A form's order as the submit service takes it: the kind's list, the form's create call (none
 * when only looking an order up), and whether a listed order is the draft's.
 */
export function submissionOf(
  env: StepEnv,
  flow: OrderFlow,
  create: NonNullable<OrderFlow['submit']> | undefined,
): OrderSubmission {
  return {
    listOrders: async () => (flow.listOrders ? flow.listOrders(env.api) : []),
    create: async () => {
      if (!create) throw new Error(`the ${flow.kind} form sends no order`);
      return create(env);
    },
    matches: (order) => flow.matches?.(env.draft, order) ?? false,
  };
}

/**
 * A draft stored as 'submitting' while no Confirm of that chat runs in this process: a process
 * died with the create call out. Whatever arrives next (a text, the old Confirm, /cancel) first
 * learns what became of it and says so; the update itself is not taken as an answer.
 */
export async function settleInterrupted(
  deps: OrderEngineDeps,
  submitting: ReadonlySet<string>,
  ctx: BotContext,
  next: () => Promise<void>,
): Promise<void> {
  if (ctx.scene.current?.id === ORDER_SCENE && readDraft(ctx.scene.state) === 'outdated') {
    // Dropped with a message; the update was meant for a form that is gone.
    await loadDraft(ctx);
    return;
  }
  const stored = await loadDraft(ctx);
  if (stored?.status !== 'submitting' || submitting.has(formOwnerKey(ctx))) return next();
  const env = await loadEnv(deps, ctx);
  if (!env) return next();
  const { draft } = env;
  if (ctx.callbackQuery) await ctx.answerCbQuery(ctx.t('order:checkingOutcome')).catch(() => undefined);
  const text = ctx.message && 'text' in ctx.message ? ctx.message.text : '';
  const cancelling = CANCEL_COMMAND.test(text);
  const outcome = await lookUpInterrupted(deps, env);
  deps.logger.info(
    {
      chatId: ctx.chat?.id,
      kind: draft.kind,
      outcome: typeof outcome === 'string' ? outcome : 'created',
      orderId: typeof outcome === 'string' ? undefined : outcome.created.order_id,
    },
    'interrupted order settled',
  );
  if (typeof outcome !== 'string') {
    await ctx.reply(ctx.t('order:interruptedCreated'));
    await reportCreatedOrder(deps, env, outcome.created);
    if (cancelling) await ctx.reply(ctx.t('order:cancelTooLate'));
    return;
  }
  if (cancelling) {
    await ctx.scene.leave();
    await ctx.reply(
      ctx.t(outcome === 'notCreated' ? 'order:cancelledNotCreated' : 'order:cancelledUnchecked'),
    );
    return;
  }
  draft.status = 'editing';
  await showSummary(
    deps,
    env,
    ctx.t(outcome === 'notCreated' ? 'order:interruptedNotCreated' : 'order:interruptedUnchecked'),
  );
}

async function lookUpInterrupted(deps: OrderEngineDeps, env: StepEnv): Promise<Interrupted> {
  const { draft } = env;
  const flow = resolveFlow(deps, draft.kind);
  // A form that ends in something other than an order (a saved profile, a DNS record) has no
  // list to look in.
  if (!flow.submit) return 'unchecked';
  // The list is stored before the create call: without it, the call was never made.
  if (draft.knownOrderIds === undefined) return 'notCreated';
  if (!flow.listOrders) return 'unchecked';
  try {
    const found = await findNewOrder(submissionOf(env, flow, undefined), env.api, draft.knownOrderIds);
    return found ? { created: found } : 'notCreated';
  } catch (error) {
    if (error instanceof ApiInterruptedError) throw error;
    deps.logger.warn({ chatId: env.ctx.chat?.id, err: errorForLog(error) }, 'order lookup failed');
    return 'unchecked';
  }
}
