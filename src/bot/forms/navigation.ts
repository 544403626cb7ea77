import type { BotContext } from '../context.js';
import { UserInputError } from '../errors.js';
import { describeError } from '../middlewares/errors.js';
import { listSteps, loadEnv, type OrderEngineDeps, resolveFlow, stepBefore } from './form-state.js';
import { askStep, showEditMenu, showSummary } from './rendering.js';
import type { Step, StepEnv } from './types.js';

/** The env when `screen` is the screen shown last; otherwise the button is stale. */
export async function loadCurrentScreen(
  deps: OrderEngineDeps,
  ctx: BotContext,
  screen: number,
): Promise<StepEnv | undefined> {
  const env = await loadEnv(deps, ctx);
  if (env && ctx.toMember.pressed !== undefined && env.draft.status === 'editing') {
    // The member's own ephemeral screen: its keyboard goes at once. Telegram may no longer have
    // the message (it keeps none across its restarts, and one may never have reached an offline
    // member): then the press is not acted on, and the form's current screen is shown again as a
    // new message, from the draft — nothing answered is lost.
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    if (ctx.toMember.pressedGone) {
      await resumeScreen(deps, env, ctx.t('order:screenLost'));
      return undefined;
    }
  }
  if (env && env.draft.screen === screen && env.draft.status === 'editing') {
    // The button carries the screen number: that screen was shown, whatever a kill left stored.
    env.draft.unsent = undefined;
    return env;
  }
  if (ctx.toMember.pressed === undefined) await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
  if (env?.draft.unsent && env.draft.status === 'editing') {
    // A button of the screen before the one a kill kept from being sent: show that one now.
    await resumeScreen(deps, env, ctx.t('order:reasked'));
    return undefined;
  }
  await ctx.toMember.reply(ctx.t('common:buttonExpired'));
  return undefined;
}

/**
 * Takes an answer to the step being asked (`read` gets it from a text, a file or a button): a
 * refused one is said and the step asked again, an accepted one filed and the next step asked.
 */
export async function takeInput(
  deps: OrderEngineDeps,
  env: StepEnv,
  read: (step: Step) => Promise<unknown>,
): Promise<void> {
  if (env.draft.unsent && env.draft.status === 'editing') {
    // Stored but maybe never shown: the text may answer the question before. Ask again.
    await resumeScreen(deps, env, env.ctx.t('order:reasked'));
    return;
  }
  const step = listSteps(deps, env.draft).find((s) => s.id === env.draft.current);
  if (!step || env.draft.status !== 'editing') {
    await env.ctx.toMember.reply(env.ctx.t('order:useButtonsOrCancel'));
    return;
  }
  let value: unknown;
  try {
    value = await read(step);
    // A value of another shape (a forged or outdated button) is no answer to this step.
    if (step.read(value) === undefined) throw new UserInputError('order:useButtons');
  } catch (error) {
    if (!(error instanceof UserInputError)) throw error;
    await env.ctx.toMember.reply(describeError(error, env.ctx.t) ?? '', { parse_mode: 'HTML' });
    await askStep(deps, env, step);
    return;
  }
  await setAnswer(env, step, value);
  await advance(deps, env);
}

/**
 * Files the answer read through the step's type; `false` (nothing changed) when it is not one,
 * so the step is asked again.
 */
export async function setAnswer<T>(env: StepEnv, step: Step<T>, answer: unknown): Promise<boolean> {
  const value = step.read(answer);
  if (value === undefined) return false;
  const { draft } = env;
  const before = step.id in draft.answers ? draft.answers[step.id] : draft.previous[step.id];
  if (JSON.stringify(before) !== JSON.stringify(value)) {
    for (const id of step.invalidates?.(draft) ?? []) {
      if (id in draft.answers) {
        draft.previous[id] = draft.answers[id];
        delete draft.answers[id];
      }
    }
  }
  draft.answers[step.id] = value;
  delete draft.previous[step.id];
  await step.afterAnswer?.(env, value);
  return true;
}

/** Asks the first unanswered step, or shows the summary when every step is answered. */
export async function advance(deps: OrderEngineDeps, env: StepEnv): Promise<void> {
  for (let guard = 0; guard < 200; guard++) {
    const next = listSteps(deps, env.draft).find((s) => !(s.id in env.draft.answers));
    if (!next) return showSummary(deps, env);
    const automatic = next.auto ? await next.auto(env) : undefined;
    if (automatic === undefined || !(await setAnswer(env, next, automatic))) return askStep(deps, env, next);
  }
  throw new Error('order steps do not converge');
}

/** Shows the current screen again (a step's question, the summary or the Edit menu) with a note. */
export async function resumeScreen(deps: OrderEngineDeps, env: StepEnv, note: string): Promise<void> {
  const { draft } = env;
  if (draft.current !== undefined) {
    const step = listSteps(deps, draft).find((s) => s.id === draft.current);
    return step ? askStep(deps, env, step, note) : advance(deps, env);
  }
  // Of the screens without a current step, only the summary carries a Confirm nonce.
  return draft.nonce !== undefined ? showSummary(deps, env, note) : showEditMenu(deps, env, note);
}

/** A navigation button: Cancel, Keep, Skip, Back or Edit. */
export async function navigate(deps: OrderEngineDeps, env: StepEnv, action: string): Promise<void> {
  const { ctx, draft } = env;
  // An ephemeral screen lost its keyboard already (loadCurrentScreen).
  if (ctx.toMember.pressed === undefined) await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
  const steps = listSteps(deps, draft);
  const step = steps.find((s) => s.id === draft.current);
  switch (action) {
    case 'cancel':
      await ctx.scene.leave();
      await ctx.toMember.reply(
        ctx.t(resolveFlow(deps, draft.kind).cancelKey ?? 'order:cancelled'),
        undefined,
        {
          replaces: true,
        },
      );
      return;
    case 'keep':
      if (step && draft.previous[step.id] !== undefined) await setAnswer(env, step, draft.previous[step.id]);
      return advance(deps, env);
    case 'skip':
      if (step) await setAnswer(env, step, null);
      return advance(deps, env);
    case 'back': {
      // From the summary, Back is the last step; from a step, the one before it that is asked.
      const index = step ? steps.findIndex((s) => s.id === step.id) : steps.length;
      const target = stepBefore(steps, index);
      if (!target) return advance(deps, env);
      if (target.id in draft.answers) {
        draft.previous[target.id] = draft.answers[target.id];
        delete draft.answers[target.id];
      }
      return askStep(deps, env, target);
    }
    case 'edit':
      return showEditMenu(deps, env);
    default:
      return advance(deps, env);
  }
}

/** Edit from the summary: the section's answers are taken away (offered again as Keep) and asked. */
export async function editSection(deps: OrderEngineDeps, env: StepEnv, section: string): Promise<void> {
  if (env.ctx.toMember.pressed === undefined)
    await env.ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
  if (section === 'given') return advance(deps, env);
  for (const step of listSteps(deps, env.draft).filter((s) => s.section === section)) {
    if (step.id in env.draft.answers) {
      env.draft.previous[step.id] = env.draft.answers[step.id];
      delete env.draft.answers[step.id];
    }
  }
  await advance(deps, env);
}
