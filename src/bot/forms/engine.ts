import { randomBytes } from 'node:crypto';
import { Composer, Markup, Scenes } from 'telegraf';
import type { InlineKeyboardButton, Message } from 'telegraf/types';
import { ApiInterruptedError, ApiNetworkError, ApiTimeoutError } from '../../api/index.js';
import { toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { UNPAID_INVOICE_STATE } from '../../core/invoice-search.js';
import { MESSAGE_LIMIT } from '../../core/paging.js';
import { productKindOf } from '../../core/product-kinds.js';
import { cutGraphemes, htmlToPlain, splitMessage } from '../../core/text.js';
import type { Logger } from '../../logger.js';
import { errorForLog } from '../../logger.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { BotContext, WatchPort } from '../context.js';
import { UserInputError } from '../errors.js';
import { orderKind } from '../features/ordering/kinds.js';
import { announce } from '../features/team/announce.js';
import type { TeamOrders, TeamSeat } from '../features/team/orders.js';
import { inRows, linkKeyboard, sendToClientButton } from '../kit/keyboards.js';
import { isCommand, sceneAnswers } from '../kit/scene-answers.js';
import { describeError } from '../middlewares/errors.js';
import type { CallbackRegistrar } from '../registry.js';
import { encodeCallback } from '../registry.js';
import { formOwnerKey } from './member-scenes.js';
import {
  DRAFT_VERSION,
  type FlowKind,
  type FormKind,
  ORDER_SCENE,
  type OrderDraft,
  type OrderFlow,
  type Question,
  readDraft,
  type Step,
  type StepEnv,
} from './types.js';

export { ORDER_SCENE } from './types.js';

/** Larger files are not a CSR: refuse them before downloading. */
const MAX_FILE_BYTES = 64 * 1024;

/** How much of a kept value the Keep button quotes (UTF-16 units, cut between graphemes). */
const KEEP_LIMIT = 40;

const CANCEL_COMMAND = /^\/cancel(@\w+)?(\s|$)/;

/** What the create call of a Confirm did, as far as it can be known. */
type SubmitResult = Awaited<ReturnType<NonNullable<OrderFlow['submit']>>>;

/** What became of a Confirm a killed process left unfinished. */
type Interrupted = { created: SubmitResult } | 'notCreated' | 'unchecked';

export interface OrderEngineDeps {
  chatData: ChatData;
  logger: Logger;
  /** The forms that order nothing; the product kinds' flows come from the registry. */
  flows: Record<FormKind, OrderFlow>;
  /** Downloads a file the user sent (a CSR); the bot passes telegraf's file link + fetch. */
  downloadFile(ctx: BotContext, fileId: string): Promise<string>;
  /** The watchers: an invoice the bot created is never announced to the partner as "new". */
  watches?: WatchPort | undefined;
  /** Orders of team groups filled in a member's private chat: seats and the group's announcement. */
  teamOrders?: TeamOrders | undefined;
}

/**
 * Runs every guided order as one scene: the flow of the kind lists its steps (given the answers
 * so far), and the engine asks the first unanswered one, takes typed answers, buttons and files,
 * goes Back, edits a section from the summary, and submits exactly once.
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
    team?: TeamSeat,
  ): Promise<void> {
    // Fail early without a token, before the first question.
    await ctx.partnerApi(team?.chat);
    const draft: OrderDraft = {
      version: DRAFT_VERSION,
      kind,
      answers: {},
      previous: {},
      screen: 0,
      options: [],
      status: 'editing',
      ...(team === undefined ? {} : { team: { chat: team.chat, thread: team.thread } }),
    };
    await ctx.scene.enter(ORDER_SCENE, draft, true);
    const env = await this.env(ctx);
    if (!env) return;
    for (const [id, value] of Object.entries(chosen)) {
      const step = this.steps(env.draft).find((s) => s.id === id);
      const read = step?.read(value);
      if (step && read !== undefined) await this.setAnswer(env, step, read);
    }
    for (const [id, value] of Object.entries(typed)) {
      const step = this.steps(env.draft).find((s) => s.id === id);
      if (!step) continue;
      try {
        // A prefilled answer goes through the step's own check (a taken domain is asked again).
        const checked =
          step.parseText && typeof value === 'string' ? await step.parseText(env, value) : value;
        await this.setAnswer(env, step, checked);
      } catch (error) {
        if (!(error instanceof UserInputError)) throw error;
        await ctx.reply(describeError(error, ctx.t) ?? '', { parse_mode: 'HTML' });
      }
    }
    await this.advance(env);
  }

  scene(): Scenes.BaseScene<BotContext> {
    const scene = new Scenes.BaseScene<BotContext>(ORDER_SCENE);
    // Before anything else: a Confirm a killed process left unfinished is settled first.
    scene.use((ctx, next) => this.settleInterrupted(ctx, next));
    const answers = new Composer<BotContext>();
    answers.on('text', async (ctx) => {
      const env = await this.env(ctx);
      if (!env) return;
      await this.onInput(env, (step) => {
        // A command mid-form is refused, not taken for the answer: the form is not lost.
        if (isCommand(ctx))
          throw new UserInputError(this.flow(env.draft.kind).midFlowKey ?? 'order:commandMidFlow');
        return this.readText(env, step, ctx.message.text);
      });
    });
    answers.on('document', async (ctx) => {
      const env = await this.env(ctx);
      if (!env) return;
      const document = ctx.message.document;
      await this.onInput(env, async (step) => {
        if (!step.parseFile) throw new UserInputError('order:noFileHere');
        if ((document.file_size ?? 0) > MAX_FILE_BYTES) throw new UserInputError('order:fileTooLarge');
        const content = await this.deps.downloadFile(ctx, document.file_id);
        return step.parseFile(env, content, document.file_name ?? '');
      });
    });
    answers.on('message', (ctx) => ctx.reply(ctx.t('order:textPlease')));
    scene.use(sceneAnswers(answers, 'stay'));
    return scene;
  }

  /** The order buttons, routed through the one callback codec. */
  register(router: CallbackRegistrar): void {
    router.on('orderOption', async (ctx, screen, index) => {
      const env = await this.currentScreen(ctx, screen);
      if (!env) return;
      await this.onInput(env, async () => {
        if (index < 0 || index >= env.draft.options.length) throw new UserInputError('order:useButtons');
        return env.draft.options[index];
      });
    });
    router.on('orderNav', async (ctx, screen, action) => {
      const env = await this.currentScreen(ctx, screen);
      if (env) await this.navigate(env, action);
    });
    router.on('orderEdit', async (ctx, screen, section) => {
      const env = await this.currentScreen(ctx, screen);
      if (!env) return;
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      for (const step of this.steps(env.draft).filter((s) => s.section === section)) {
        if (step.id in env.draft.answers) {
          env.draft.previous[step.id] = env.draft.answers[step.id];
          delete env.draft.answers[step.id];
        }
      }
      await this.advance(env);
    });
    router.on('orderConfirm', (ctx, nonce) => this.confirm(ctx, nonce), { selfAnswer: true });
  }

  // ---- the step machine ----

  /** The flow of a kind: a product's from the registry, a form's from the deps. */
  private flow(kind: FlowKind): OrderFlow {
    switch (kind) {
      case 'profile':
      case 'dnsAdd':
        return this.deps.flows[kind];
      default:
        return orderKind(kind).flow;
    }
  }

  private steps(draft: OrderDraft): Step[] {
    return this.flow(draft.kind).steps(draft);
  }

  /**
   * The stored draft, read as this version's. A draft another version of the bot stored is
   * dropped, and the partner told to start again, before anything reads it.
   */
  private async draft(ctx: BotContext): Promise<OrderDraft | undefined> {
    if (ctx.scene.current?.id !== ORDER_SCENE) return undefined;
    const draft = readDraft(ctx.scene.state);
    if (draft !== 'outdated') return draft;
    await ctx.scene.leave();
    if (ctx.callbackQuery) await ctx.answerCbQuery().catch(() => undefined);
    await ctx.reply(ctx.t('order:draftOutdated'));
    return undefined;
  }

  private async env(ctx: BotContext): Promise<StepEnv | undefined> {
    const draft = await this.draft(ctx);
    if (!draft) return undefined;
    const { team } = draft;
    if (team === undefined) {
      const account = ctx.chat?.id ?? 0;
      return { ctx, draft, api: await ctx.partnerApi(), chatData: this.deps.chatData, account };
    }
    // A group's order: only while the member still may order there (a role taken away, the group
    // unbound meanwhile: the form ends, saying why).
    if ((await this.teamSeat(ctx, draft)) === undefined) {
      await ctx.scene.leave();
      if (ctx.callbackQuery) await ctx.answerCbQuery().catch(() => undefined);
      await ctx.reply(ctx.t('team:seatLost'));
      return undefined;
    }
    return {
      ctx,
      draft,
      api: await ctx.partnerApi(team.chat),
      chatData: this.deps.chatData,
      account: team.chat,
    };
  }

  /** The member's seat in the group the draft orders for, if they may still order there. */
  private async teamSeat(ctx: BotContext, draft: OrderDraft): Promise<TeamSeat | undefined> {
    const { team } = draft;
    if (team === undefined || ctx.from === undefined) return undefined;
    return this.deps.teamOrders?.seat(ctx.from.id, team.chat, team.thread);
  }

  /** The env when `screen` is the screen shown last; otherwise the button is stale. */
  private async currentScreen(ctx: BotContext, screen: number): Promise<StepEnv | undefined> {
    const env = await this.env(ctx);
    if (env && env.draft.screen === screen && env.draft.status === 'editing') {
      // The button carries the screen number: that screen was shown, whatever a kill left stored.
      env.draft.unsent = undefined;
      return env;
    }
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    if (env?.draft.unsent && env.draft.status === 'editing') {
      // A button of the screen before the one a kill kept from being sent: show that one now.
      await this.resume(env, ctx.t('order:reasked'));
      return undefined;
    }
    await ctx.reply(ctx.t('common:buttonExpired'));
    return undefined;
  }

  private async onInput(env: StepEnv, read: (step: Step) => Promise<unknown>): Promise<void> {
    if (env.draft.unsent && env.draft.status === 'editing') {
      // Stored but maybe never shown: the text may answer the question before. Ask again.
      await this.resume(env, env.ctx.t('order:reasked'));
      return;
    }
    const step = this.steps(env.draft).find((s) => s.id === env.draft.current);
    if (!step || env.draft.status !== 'editing') {
      await env.ctx.reply(env.ctx.t('order:useButtonsOrCancel'));
      return;
    }
    let value: unknown;
    try {
      value = await read(step);
      // A value of another shape (a forged or outdated button) is no answer to this step.
      if (step.read(value) === undefined) throw new UserInputError('order:useButtons');
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      await env.ctx.reply(describeError(error, env.ctx.t) ?? '', { parse_mode: 'HTML' });
      await this.ask(env, step);
      return;
    }
    await this.setAnswer(env, step, value);
    await this.advance(env);
  }

  private async readText(env: StepEnv, step: Step, text: string): Promise<unknown> {
    if (!step.parseText) throw new UserInputError('order:useButtons');
    return step.parseText(env, text);
  }

  /**
   * Files the answer read through the step's type; `false` (nothing changed) when it is not one,
   * so the step is asked again.
   */
  private async setAnswer<T>(env: StepEnv, step: Step<T>, answer: unknown): Promise<boolean> {
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
  private async advance(env: StepEnv): Promise<void> {
    for (let guard = 0; guard < 200; guard++) {
      const next = this.steps(env.draft).find((s) => !(s.id in env.draft.answers));
      if (!next) return this.showSummary(env);
      const automatic = next.auto ? await next.auto(env) : undefined;
      if (automatic === undefined || !(await this.setAnswer(env, next, automatic)))
        return this.ask(env, next);
    }
    throw new Error('order steps do not converge');
  }

  private async ask(env: StepEnv, step: Step, note?: string): Promise<void> {
    const { ctx, draft } = env;
    const question = await step.ask(env);
    // Leaving the summary: its Confirm must not submit a draft that is being changed.
    draft.nonce = undefined;
    draft.current = step.id;
    draft.screen += 1;
    draft.options = question.options?.map((o) => o.value) ?? [];
    const screen = draft.screen;
    const optionButtons = (question.options ?? []).map((option, index) =>
      Markup.button.callback(option.label, encodeCallback('orderOption', screen, index)),
    );
    const nav: InlineKeyboardButton[] = [];
    const previous = draft.previous[step.id];
    if (previous !== undefined) {
      nav.push(
        Markup.button.callback(
          ctx.t('order:keep', { value: this.keptValue(env, step, question, previous) }),
          encodeCallback('orderNav', screen, 'keep'),
        ),
      );
    }
    if (question.skippable)
      nav.push(Markup.button.callback(ctx.t('order:skip'), encodeCallback('orderNav', screen, 'skip')));
    const steps = this.steps(draft);
    const row: InlineKeyboardButton[] = [];
    if (steps.findIndex((s) => s.id === step.id) > 0) {
      row.push(Markup.button.callback(ctx.t('order:back'), encodeCallback('orderNav', screen, 'back')));
    }
    row.push(Markup.button.callback(ctx.t('order:cancel'), encodeCallback('orderNav', screen, 'cancel')));
    const keyboard = [...inRows(optionButtons, question.perRow ?? 2), nav, row].filter((r) => r.length > 0);
    const text = note ? `${note}\n\n${question.text}` : question.text;
    await this.present(env, () =>
      ctx.reply(text, { parse_mode: 'HTML', ...Markup.inlineKeyboard(keyboard) }),
    );
  }

  /** The Keep button's text: the kept value as plain text, short, never cut inside a grapheme. */
  private keptValue(env: StepEnv, step: Step, question: Question, previous: unknown): string {
    const same = JSON.stringify(previous);
    const option = question.options?.find((o) => JSON.stringify(o.value) === same);
    let shown = option?.label;
    const kept = step.read(previous);
    if (shown === undefined && kept !== undefined) shown = step.keepText?.(env, kept);
    if (shown === undefined) {
      const described = kept === undefined ? undefined : step.describe?.(env, kept);
      if (described === undefined) shown = String(previous);
      else {
        // describe() is the summary line, "Label: value" in HTML; the button has room for the value.
        const plain = htmlToPlain(described);
        const colon = plain.indexOf(': ');
        shown = colon === -1 ? plain : plain.slice(colon + 2);
      }
    }
    return cutGraphemes(shown.replace(/\s+/g, ' ').trim(), KEEP_LIMIT);
  }

  /**
   * Write, then send: the draft is stored as "screen N, not yet shown" before its message goes
   * out, and marked shown after (the session middleware stores that once the update ends). A kill
   * after the send leaves the mark, so the stored draft is never behind what the partner saw, and
   * the next typed answer is not filed into a step the partner was not looking at.
   */
  private async present(env: StepEnv, send: () => Promise<Message>): Promise<void> {
    env.draft.unsent = true;
    await this.persistSession(env.ctx);
    const sent = await send();
    env.draft.unsent = undefined;
    env.draft.messageId = sent.message_id;
  }

  /** Shows the current screen again (a step's question, the summary or the Edit menu) with a note. */
  private async resume(env: StepEnv, note: string): Promise<void> {
    const { draft } = env;
    if (draft.current !== undefined) {
      const step = this.steps(draft).find((s) => s.id === draft.current);
      return step ? this.ask(env, step, note) : this.advance(env);
    }
    // Of the screens without a current step, only the summary carries a Confirm nonce.
    return draft.nonce !== undefined ? this.showSummary(env, note) : this.showEditMenu(env, note);
  }

  private async navigate(env: StepEnv, action: string): Promise<void> {
    const { ctx, draft } = env;
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const steps = this.steps(draft);
    const step = steps.find((s) => s.id === draft.current);
    switch (action) {
      case 'cancel':
        await ctx.scene.leave();
        await ctx.reply(ctx.t(this.flow(draft.kind).cancelKey ?? 'order:cancelled'));
        return;
      case 'keep':
        if (step && draft.previous[step.id] !== undefined)
          await this.setAnswer(env, step, draft.previous[step.id]);
        return this.advance(env);
      case 'skip':
        if (step) await this.setAnswer(env, step, null);
        return this.advance(env);
      case 'back': {
        // From the summary, Back is the last step; from a step, the one before it.
        const index = step ? steps.findIndex((s) => s.id === step.id) : steps.length;
        const target = steps[index - 1];
        if (!target) return this.advance(env);
        if (target.id in draft.answers) {
          draft.previous[target.id] = draft.answers[target.id];
          delete draft.answers[target.id];
        }
        return this.ask(env, target);
      }
      case 'edit':
        return this.showEditMenu(env);
      default:
        return this.advance(env);
    }
  }

  private async showEditMenu(env: StepEnv, note?: string): Promise<void> {
    const { ctx, draft } = env;
    draft.screen += 1;
    draft.nonce = undefined;
    draft.current = undefined;
    const sections = [...new Set(this.steps(draft).map((s) => s.section))];
    const buttons = sections.map((section) =>
      Markup.button.callback(
        ctx.t(`order:section.${section}`),
        encodeCallback('orderEdit', draft.screen, section),
      ),
    );
    const back = Markup.button.callback(
      ctx.t('order:backToSummary'),
      encodeCallback('orderNav', draft.screen, 'summary'),
    );
    const text = note ? `${note}\n\n${ctx.t('order:editWhat')}` : ctx.t('order:editWhat');
    await this.present(env, () =>
      ctx.reply(text, { parse_mode: 'HTML', ...Markup.inlineKeyboard([...inRows(buttons, 2), [back]]) }),
    );
  }

  private async showSummary(env: StepEnv, intro?: string): Promise<void> {
    const { ctx, draft } = env;
    const flow = this.flow(draft.kind);
    const lines = [...(intro ? [intro, ''] : []), ...(await flow.summaryHead(env))];
    for (const step of this.steps(draft)) {
      if (!(step.id in draft.answers)) continue;
      const value = step.read(draft.answers[step.id]);
      const line = value === undefined ? undefined : step.describe?.(env, value);
      if (line) lines.push(line);
    }
    draft.current = undefined;
    draft.status = 'editing';
    draft.screen += 1;
    draft.nonce = randomBytes(6).toString('base64url');
    // Every value that will be sent is shown: a long summary goes in parts (split between lines,
    // so no HTML tag is cut), and Confirm comes under the last, after everything it confirms.
    const parts = splitMessage(lines.join('\n'), MESSAGE_LIMIT);
    const confirmKey = flow.confirmKey ?? 'order:confirm';
    const keyboard = Markup.inlineKeyboard([
      [Markup.button.callback(ctx.t(confirmKey), encodeCallback('orderConfirm', draft.nonce))],
      [
        Markup.button.callback(ctx.t('order:edit'), encodeCallback('orderNav', draft.screen, 'edit')),
        Markup.button.callback(ctx.t('order:back'), encodeCallback('orderNav', draft.screen, 'back')),
        Markup.button.callback(ctx.t('order:cancel'), encodeCallback('orderNav', draft.screen, 'cancel')),
      ],
    ]);
    await this.present(env, async () => {
      for (const part of parts.slice(0, -1)) await ctx.reply(part, { parse_mode: 'HTML' });
      return ctx.reply(parts.at(-1) ?? '', { parse_mode: 'HTML', ...keyboard });
    });
  }

  // ---- exactly once ----

  /**
   * The Confirm button. Its nonce is single-use: the first tap marks the draft as submitting and
   * writes the session, takes the order list, writes the session again with that list, and only
   * then calls the provider, once. Any later tap (a double tap, a tap re-sent with a new update id,
   * a tap on an older summary) is answered "already submitted" or "expired" and calls nothing.
   */
  private async confirm(ctx: BotContext, nonce: string): Promise<void> {
    const env = ctx.scene.current?.id === ORDER_SCENE ? await this.env(ctx) : undefined;
    const draft = env?.draft;
    if (!env || !draft || draft.nonce !== nonce) {
      const submitted = draft?.status === 'submitting';
      await ctx.answerCbQuery(ctx.t(submitted ? 'order:alreadySubmitted' : 'order:confirmExpired'));
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      if (env && draft?.status === 'editing' && draft.unsent) await this.resume(env, ctx.t('order:reasked'));
      return;
    }
    if (draft.status !== 'editing') {
      await ctx.answerCbQuery(ctx.t('order:alreadySubmitted'));
      return;
    }
    const form = formOwnerKey(ctx);
    this.submitting.add(form);
    try {
      await this.submit(env);
    } finally {
      this.submitting.delete(form);
    }
  }

  private async submit(env: StepEnv): Promise<void> {
    const { ctx, draft } = env;
    draft.status = 'submitting';
    draft.nonce = undefined;
    // The nonce proves the summary was shown.
    draft.unsent = undefined;
    // A list from an earlier attempt would say a create call may have been made; none has yet.
    draft.knownOrderIds = undefined;
    await this.persistSession(ctx);
    await ctx.answerCbQuery(ctx.t(this.flow(draft.kind).submittingKey ?? 'order:submitting'));
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);

    const flow = this.flow(draft.kind);
    if (!flow.submit) {
      try {
        await flow.finish?.(env);
      } catch (error) {
        // The outcome is unknown: the draft stays 'submitting', and the next update settles it.
        if (
          error instanceof ApiTimeoutError ||
          error instanceof ApiNetworkError ||
          error instanceof ApiInterruptedError
        )
          throw error;
        // Refused (e.g. a 400 naming a field): nothing changed; show why and the summary again.
        await this.showSummary(env, describeError(error, ctx.t));
        return;
      }
      draft.status = 'done';
      await ctx.scene.leave();
      return;
    }
    try {
      draft.knownOrderIds = flow.listOrders ? (await flow.listOrders(env.api)).map((o) => o.order_id) : [];
    } catch (error) {
      // Nothing was sent yet: the user may simply confirm again.
      draft.status = 'editing';
      draft.knownOrderIds = undefined;
      await this.showSummary(env, describeError(error, ctx.t));
      return;
    }
    // Stored before the call: if this process dies while the call is out, the next one knows the
    // order may exist and which orders were there before it.
    await this.persistSession(ctx);
    let result: SubmitResult;
    try {
      result = await flow.submit(env);
    } catch (error) {
      // Stopping: the call may have reached the provider, and every later call would be cut off
      // too. The draft stays 'submitting' with its list; the next process looks the order up.
      if (error instanceof ApiInterruptedError) throw error;
      if (error instanceof ApiTimeoutError || error instanceof ApiNetworkError) {
        this.deps.logger.warn({ chatId: ctx.chat?.id, err: errorForLog(error) }, 'order outcome unknown');
        await this.findAfterUnknown(env, flow);
        return;
      }
      // The provider refused: nothing was created; show why and offer the summary again.
      this.deps.logger.info({ chatId: ctx.chat?.id, err: errorForLog(error) }, 'order refused');
      await this.showSummary(env, describeError(error, ctx.t));
      return;
    }
    await this.finishOrder(env, result);
  }

  private async finishOrder(env: StepEnv, result: SubmitResult): Promise<void> {
    const { ctx, draft } = env;
    draft.status = 'done';
    await ctx.scene.leave();
    this.deps.logger.info(
      { chatId: ctx.chat?.id, orderId: result.order_id, kind: draft.kind },
      'order created',
    );
    const chatId = ctx.chat?.id;
    const invoiceId = result.invoice_id;
    if (invoiceId !== undefined && this.deps.watches) {
      // Before anything else: the next poll must already know this invoice is the bot's own.
      const token = await this.deps.chatData.getToken(env.account);
      if (token !== undefined) {
        await this.deps.watches.noteCreatedInvoice(token, invoiceId).catch((error: unknown) => {
          this.deps.logger.warn({ chatId, err: errorForLog(error) }, 'could not note a created invoice');
        });
      }
    }
    // The invoice's number is what "Send to client" types into the inline picker; the create call
    // does not return it, so it is asked beside the link (when that is missing too). Neither
    // failing keeps the order from being reported.
    const [url, invoice] = await Promise.all([
      result.invoice_url ||
        (invoiceId === undefined ? undefined : env.api.getInvoiceUrl(invoiceId).catch(() => undefined)),
      invoiceId === undefined
        ? undefined
        : env.api.listInvoices({ invoice_id: invoiceId }).then(
            ([found]) => found,
            () => undefined,
          ),
    ]);
    // The invoice as the client sees it (СФ-2026-5101) when the list gave it, else its id.
    const text = ctx.t('order:created', {
      orderId: result.order_id ?? '—',
      invoiceId: invoice ? escapeHtml(invoice.invoice_number) : (invoiceId ?? '—'),
    });
    const share =
      // A group's invoice is not among this chat's (inline mode reads the private chat's token).
      invoice?.state === UNPAID_INVOICE_STATE && draft.team === undefined
        ? [sendToClientButton(ctx.t, invoice.invoice_number)]
        : [];
    const sent = await ctx.reply(url ? `${text}\n${escapeHtml(url)}` : text, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(url ? linkKeyboard(ctx.t('order:invoiceButton'), url, share) : {}),
    });
    const subject = escapeHtml(orderSubject(draft) ?? '—');
    const seat = await this.teamSeat(ctx, draft);
    if (seat !== undefined && this.deps.teamOrders) {
      // A group's order: the group hears of it with the link, and that message is the one marked
      // paid (the group's token is watched for the group, not for this private chat).
      const told = await this.deps.teamOrders.announceOrder(
        ctx.telegram,
        seat,
        { kind: draft.kind, subject, order: result.order_id ?? '—' },
        url || undefined,
      );
      if (url && invoiceId !== undefined && told !== undefined) {
        await this.deps.chatData.rememberInvoiceLink(seat.chat, invoiceId, told);
      }
      return;
    }
    // The message carries the invoice's link: it is marked paid when the payment arrives.
    if (url && invoiceId !== undefined && chatId !== undefined) {
      await this.deps.chatData.rememberInvoiceLink(chatId, invoiceId, sent.message_id);
    }
    await announce(ctx, 'orderCreated', {
      kind: ctx.t(`order:kind.${draft.kind}`),
      subject,
      order: result.order_id ?? '—',
    });
  }

  /** After a timeout the order may exist: look for it before offering to try again. */
  private async findAfterUnknown(env: StepEnv, flow: OrderFlow): Promise<void> {
    const { ctx } = env;
    await ctx.reply(ctx.t('order:unknownOutcome'));
    try {
      const found = await this.findNewOrder(env, flow);
      if (found) {
        await this.finishOrder(env, found);
        return;
      }
      await this.showSummary(env, ctx.t('order:notFoundAfterTimeout'));
    } catch (error) {
      if (error instanceof ApiInterruptedError) throw error;
      this.deps.logger.warn({ chatId: ctx.chat?.id, err: errorForLog(error) }, 'order lookup failed');
      await this.showSummary(env, ctx.t('order:lookupFailed'));
    }
  }

  /** A new order of this kind matching the draft (one that was not listed before submitting). */
  private async findNewOrder(env: StepEnv, flow: OrderFlow): Promise<SubmitResult | undefined> {
    const { draft } = env;
    const known = new Set(draft.knownOrderIds ?? []);
    const orders = flow.listOrders ? await flow.listOrders(env.api) : [];
    const found = orders.find((o) => !known.has(o.order_id) && (flow.matches?.(draft, o) ?? false));
    if (!found) return undefined;
    const [invoice] = await env.api.listInvoices({ order_id: found.order_id });
    return { order_id: found.order_id, invoice_id: invoice?.invoice_id };
  }

  /**
   * A draft stored as 'submitting' while no Confirm of that chat runs in this process: a process
   * died with the create call out. Whatever arrives next (a text, the old Confirm, /cancel) first
   * learns what became of it and says so; the update itself is not taken as an answer.
   */
  private async settleInterrupted(ctx: BotContext, next: () => Promise<void>): Promise<void> {
    if (ctx.scene.current?.id === ORDER_SCENE && readDraft(ctx.scene.state) === 'outdated') {
      // Dropped with a message; the update was meant for a form that is gone.
      await this.draft(ctx);
      return;
    }
    const stored = await this.draft(ctx);
    if (stored?.status !== 'submitting' || this.submitting.has(formOwnerKey(ctx))) return next();
    const env = await this.env(ctx);
    if (!env) return next();
    const { draft } = env;
    if (ctx.callbackQuery) await ctx.answerCbQuery(ctx.t('order:checkingOutcome')).catch(() => undefined);
    const text = ctx.message && 'text' in ctx.message ? ctx.message.text : '';
    const cancelling = CANCEL_COMMAND.test(text);
    const outcome = await this.lookUpInterrupted(env);
    this.deps.logger.info(
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
      await this.finishOrder(env, outcome.created);
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
    await this.showSummary(
      env,
      ctx.t(outcome === 'notCreated' ? 'order:interruptedNotCreated' : 'order:interruptedUnchecked'),
    );
  }

  private async lookUpInterrupted(env: StepEnv): Promise<Interrupted> {
    const { draft } = env;
    const flow = this.flow(draft.kind);
    // A form that ends in something other than an order (a saved profile, a DNS record) has no
    // list to look in.
    if (!flow.submit) return 'unchecked';
    // The list is stored before the create call: without it, the call was never made.
    if (draft.knownOrderIds === undefined) return 'notCreated';
    if (!flow.listOrders) return 'unchecked';
    try {
      const found = await this.findNewOrder(env, flow);
      return found ? { created: found } : 'notCreated';
    } catch (error) {
      if (error instanceof ApiInterruptedError) throw error;
      this.deps.logger.warn({ chatId: env.ctx.chat?.id, err: errorForLog(error) }, 'order lookup failed');
      return 'unchecked';
    }
  }

  private async persistSession(ctx: BotContext): Promise<void> {
    if (ctx.chat) await this.deps.chatData.sessionStore<object>().set(String(ctx.chat.id), ctx.session);
  }
}

/** What an order is for, from the answer its kind's prefill step holds (a domain, a site). */
function orderSubject(draft: OrderDraft): string | undefined {
  const kind = productKindOf(draft.kind);
  const step = kind === undefined ? null : orderKind(kind).prefillStep;
  const answer = step === null ? undefined : draft.answers[step];
  if (typeof answer === 'string') return answer;
  if (typeof answer !== 'object' || answer === null) return undefined;
  if ('ascii' in answer && typeof answer.ascii === 'string') return toUnicodeDomain(answer.ascii);
  if ('domain' in answer && typeof answer.domain === 'string') return answer.domain;
  return undefined;
}
