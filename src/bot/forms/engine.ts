import { randomBytes } from 'node:crypto';
import { Composer, Scenes } from 'telegraf';
import type { BotContext } from '../context.js';
import { UserInputError } from '../errors.js';
import { sceneAnswers } from '../kit/scene-answers.js';
import { describeError } from '../middlewares/errors.js';
import type { CallbackRegistrar } from '../registry.js';
import { listSteps, loadEnv, type OrderEngineDeps, resolveFlow } from './form-state.js';
import {
  advance,
  editSection,
  loadCurrentScreen,
  navigate,
  resumeScreen,
  setAnswer,
  takeInput,
} from './navigation.js';
import type { GroupRef } from './ports.js';
import { settleInterrupted } from './recovery.js';
import { confirmOrder } from './submit.js';
import {
  DRAFT_VERSION,
  type FlowKind,
  ORDER_SCENE,
  type OrderDraft,
  readDraft,
  type Step,
  type StepEnv,
} from './types.js';

export type { OrderEngineDeps } from './form-state.js';
export { ORDER_SCENE } from './types.js';

/** Larger files are not a CSR: refuse them before downloading. */
const MAX_FILE_BYTES = 64 * 1024;

/**
 * Runs every guided order as one scene: the flow of the kind lists its steps (given the answers
 * so far), and the engine asks the first unanswered one, takes typed answers, buttons and files,
 * goes Back, edits a section from the summary, and submits exactly once.
 *
 * This class wires the scene and the buttons; what they do is in the files beside it: navigation
 * (answers and moves), rendering (screens), submit (Confirm), created-order (the report),
 * recovery (an outcome a timeout or a kill left unknown); what it needs of team groups and the
 * product kinds comes through its ports (ports.ts).
 */
export class OrderEngine {
  /** Forms (a chat's, or a group member's) whose Confirm this process is carrying out right now. */
  private readonly submitting = new Set<string>();

  constructor(private readonly deps: OrderEngineDeps) {}

  /**
   * Starts a guided form. `typed` answers are taken as if the partner had typed them (a domain
   * from /check goes through its step's check); `chosen` ones as if a button had been pressed
   * (read by the step's type only, never parsed as text: "new" is a choice, not a pasted card).
   */
  async start(
    ctx: BotContext,
    kind: FlowKind,
    typed: Record<string, unknown> = {},
    chosen: Record<string, unknown> = {},
    team?: GroupRef,
    /** Answers offered to keep (a changed record's value): asked, with a Keep button. */
    kept: Record<string, unknown> = {},
  ): Promise<void> {
    const { deps } = this;
    // Fail early without a token, before the first question.
    await ctx.partnerApi(team?.chat);
    const draft: OrderDraft = {
      version: DRAFT_VERSION,
      kind,
      id: randomBytes(4).toString('hex'),
      answers: {},
      previous: { ...kept },
      screen: 0,
      options: [],
      status: 'editing',
      ...(team === undefined ? {} : { team: { chat: team.chat, thread: team.thread } }),
    };
    await ctx.scene.enter(ORDER_SCENE, draft, true);
    const env = await loadEnv(deps, ctx);
    if (!env) return;
    for (const [id, value] of Object.entries(chosen)) {
      const step = listSteps(deps, env.draft).find((s) => s.id === id);
      const read = step?.read(value);
      if (step && read !== undefined) await setAnswer(env, step, read);
    }
    for (const [id, value] of Object.entries(typed)) {
      const step = listSteps(deps, env.draft).find((s) => s.id === id);
      if (!step) continue;
      try {
        // A prefilled answer goes through the step's own check (a taken domain is asked again).
        const checked =
          step.parseText && typeof value === 'string' ? await step.parseText(env, value) : value;
        await setAnswer(env, step, checked);
      } catch (error) {
        if (!(error instanceof UserInputError)) throw error;
        await ctx.toMember.reply(describeError(error, ctx.t) ?? '', { parse_mode: 'HTML' });
      }
    }
    await advance(deps, env);
  }

  /** The scene every form runs in: typed answers and files go to the step being asked. */
  scene(): Scenes.BaseScene<BotContext> {
    const { deps } = this;
    const scene = new Scenes.BaseScene<BotContext>(ORDER_SCENE);
    // Before anything else: a Confirm a killed process left unfinished is settled first.
    scene.use((ctx, next) => settleInterrupted(deps, this.submitting, ctx, next));
    const answers = new Composer<BotContext>();
    answers.on('text', async (ctx) => {
      const env = await loadEnv(deps, ctx);
      if (!env) return;
      await takeInput(deps, env, (step) => readTypedAnswer(env, step, ctx.message.text));
    });
    answers.on('document', async (ctx) => {
      const env = await loadEnv(deps, ctx);
      if (!env) return;
      const document = ctx.message.document;
      await takeInput(deps, env, async (step) => {
        if (!step.parseFile) throw new UserInputError('order:noFileHere');
        if ((document.file_size ?? 0) > MAX_FILE_BYTES) throw new UserInputError('order:fileTooLarge');
        const content = await deps.downloadFile(ctx, document.file_id);
        return step.parseFile(env, content, document.file_name ?? '');
      });
    });
    answers.on('message', (ctx) => ctx.toMember.reply(ctx.t('order:textPlease')));
    // A command mid-form: /help keeps the form (and says so), any other leaves it, as it says.
    const flowOf = (ctx: BotContext) => {
      const draft = readDraft(ctx.scene.state);
      return draft === undefined || draft === 'outdated' ? undefined : resolveFlow(deps, draft.kind);
    };
    scene.use(
      sceneAnswers(answers, {
        // The screen again below the help, with a line that the form is still open.
        stillOpen: async (ctx) => {
          const env = await loadEnv(deps, ctx);
          if (env) await resumeScreen(deps, env, ctx.t(flowOf(ctx)?.midFlowKey ?? 'order:commandMidFlow'));
        },
        left: (ctx) => ctx.t(flowOf(ctx)?.cancelKey ?? 'order:cancelled'),
      }),
    );
    return scene;
  }

  /** The order buttons, routed through the one callback codec. */
  register(router: CallbackRegistrar): void {
    const { deps } = this;
    router.on('orderOption', async (ctx, screen, index) => {
      const env = await loadCurrentScreen(deps, ctx, screen);
      if (!env) return;
      await takeInput(deps, env, async () => {
        if (index < 0 || index >= env.draft.options.length) throw new UserInputError('order:useButtons');
        return env.draft.options[index];
      });
    });
    router.on('orderNav', async (ctx, screen, action) => {
      const env = await loadCurrentScreen(deps, ctx, screen);
      if (env) await navigate(deps, env, action);
    });
    router.on('orderEdit', async (ctx, screen, section) => {
      const env = await loadCurrentScreen(deps, ctx, screen);
      if (env) await editSection(deps, env, section);
    });
    router.on('orderConfirm', (ctx, nonce) => confirmOrder(deps, this.submitting, ctx, nonce), {
      selfAnswer: true,
    });
  }
}

/** A typed answer, read by the step (a step without `parseText` takes buttons only). */
async function readTypedAnswer(env: StepEnv, step: Step, text: string): Promise<unknown> {
  if (!step.parseText) throw new UserInputError('order:useButtons');
  return step.parseText(env, text);
}
