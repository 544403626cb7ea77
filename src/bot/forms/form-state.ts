import type { Logger } from '../../logger.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { BotContext, WatchPort } from '../context.js';
import type { ProductFlows, TeamOrderPort } from './ports.js';
import {
  type FlowKind,
  type FormKind,
  ORDER_SCENE,
  type OrderDraft,
  type OrderFlow,
  readDraft,
  type Step,
  type StepEnv,
} from './types.js';

/** What the order engine and its parts run on: storage, the log, the forms and the team seats. */
export interface OrderEngineDeps {
  chatData: ChatData;
  logger: Logger;
  /** The forms that order nothing. */
  flows: Record<FormKind, OrderFlow>;
  /** The product kinds' forms (the ordering feature's registry). */
  productFlows: ProductFlows;
  /** Downloads a file the user sent (a CSR); the bot passes telegraf's file link + fetch. */
  downloadFile(ctx: BotContext, fileId: string): Promise<string>;
  /** The watchers: an invoice the bot created is never announced to the partner as "new". */
  watches?: WatchPort | undefined;
  /** Team groups: whether a member may order for one, and telling it of an order. */
  teams: TeamOrderPort;
}

/** The flow of a kind: a product's or a form's, from the deps. */
export function resolveFlow(deps: OrderEngineDeps, kind: FlowKind): OrderFlow {
  switch (kind) {
    case 'profile':
    case 'dnsAdd':
    case 'dnsChange':
    case 'keyNew':
      return deps.flows[kind];
    default:
      return deps.productFlows[kind].flow;
  }
}

/** The steps of the draft's flow, given its answers so far. */
export function listSteps(deps: OrderEngineDeps, draft: OrderDraft): Step[] {
  return resolveFlow(deps, draft.kind).steps(draft);
}

/**
 * The stored draft, read as this version's. A draft another version of the bot stored is
 * dropped, and the partner told to start again, before anything reads it.
 */
export async function loadDraft(ctx: BotContext): Promise<OrderDraft | undefined> {
  if (ctx.scene.current?.id !== ORDER_SCENE) return undefined;
  const draft = readDraft(ctx.scene.state);
  if (draft !== 'outdated') return draft;
  await ctx.scene.leave();
  if (ctx.callbackQuery) await ctx.answerCbQuery().catch(() => undefined);
  await ctx.reply(ctx.t('order:draftOutdated'));
  return undefined;
}

/**
 * The env the draft's steps run in: the chat's own account, or the team group's while the member
 * may still order there.
 */
export async function loadEnv(deps: OrderEngineDeps, ctx: BotContext): Promise<StepEnv | undefined> {
  const draft = await loadDraft(ctx);
  if (!draft) return undefined;
  const { team } = draft;
  if (team === undefined) {
    const account = ctx.chat?.id ?? 0;
    return { ctx, draft, api: await ctx.partnerApi(), chatData: deps.chatData, account };
  }
  // A group's order: only while the member still may order there (a role taken away, the group
  // unbound meanwhile: the form ends, saying why).
  if (!(await deps.teams.mayOrderFor(ctx, team))) {
    await ctx.scene.leave();
    if (ctx.callbackQuery) await ctx.answerCbQuery().catch(() => undefined);
    await ctx.reply(ctx.t('team:seatLost'));
    return undefined;
  }
  return {
    ctx,
    draft,
    api: await ctx.partnerApi(team.chat),
    chatData: deps.chatData,
    account: team.chat,
  };
}

/**
 * The step Back leads to from `index`: the nearest one before it that the partner is asked — a
 * step given by where the form started (the domain, a changed record's type) is never asked.
 */
export function stepBefore(steps: readonly Step[], index: number): Step | undefined {
  return steps.slice(0, Math.max(index, 0)).findLast((s) => s.section !== 'given');
}

/** Writes the session now, not at the end of the update: what a kill must not lose. */
export async function persistSession(deps: OrderEngineDeps, ctx: BotContext): Promise<void> {
  if (ctx.chat) await deps.chatData.sessionStore<object>().set(String(ctx.chat.id), ctx.session);
}
