import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import type { InlineKeyboardButton, Message } from 'telegraf/types';
import { cutGraphemes, htmlToPlain } from '../../core/text.js';
import { styled } from '../kit/bot-api-today.js';
import { type EphemeralExtra, ephemeralIdOf } from '../kit/ephemeral-api.js';
import { groupQuestion } from '../kit/group-question.js';
import { inRows } from '../kit/keyboards.js';
import type { Screen, ScreenBlock } from '../kit/screen.js';
import { encodeCallback } from '../registry.js';
import { listSteps, type OrderEngineDeps, persistSession, resolveFlow, stepBefore } from './form-state.js';
import type { OrderDraft, Question, Section, Step, StepEnv } from './types.js';

/** How much of a kept value the Keep button quotes (UTF-16 units, cut between graphemes). */
const KEEP_LIMIT = 40;

/** Asks a step: its question, its option buttons, Keep and Skip where they apply, Back and Cancel. */
export async function askStep(deps: OrderEngineDeps, env: StepEnv, step: Step, note?: string): Promise<void> {
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
        ctx.t('order:keep', { value: describeKeptValue(env, step, question, previous) }),
        encodeCallback('orderNav', screen, 'keep'),
      ),
    );
  }
  if (question.skippable)
    nav.push(Markup.button.callback(ctx.t('order:skip'), encodeCallback('orderNav', screen, 'skip')));
  const steps = listSteps(deps, draft);
  const row: InlineKeyboardButton[] = [];
  if (
    stepBefore(
      steps,
      steps.findIndex((s) => s.id === step.id),
    ) !== undefined
  ) {
    row.push(Markup.button.callback(ctx.t('order:back'), encodeCallback('orderNav', screen, 'back')));
  }
  row.push(Markup.button.callback(ctx.t('order:cancel'), encodeCallback('orderNav', screen, 'cancel')));
  const keyboard = [...inRows(optionButtons, question.perRow ?? 2), nav, row].filter((r) => r.length > 0);
  // In a group, a typed answer must be a reply to the bot: a question without choices to tap is a
  // ForceReply aimed at the member (Back and Cancel give way to /cancel), the others say so.
  const typedOnly = optionButtons.length === 0 && nav.length === 0;
  await presentScreen(deps, env, (ephemeral) => {
    const asked = groupQuestion(ctx, question.text, !typedOnly, ephemeral !== undefined);
    const forced = asked.extra.reply_markup !== undefined;
    const body = forced ? `${asked.text}\n<i>${ctx.t('common:leaveWithCancel')}</i>` : asked.text;
    const text = note ? `${note}\n\n${body}` : body;
    return ctx.reply(text, {
      parse_mode: 'HTML',
      ...(forced ? asked.extra : Markup.inlineKeyboard(keyboard)),
      ...ephemeral,
    });
  });
}

/** The Keep button's text: the kept value as plain text, short, never cut inside a grapheme. */
function describeKeptValue(env: StepEnv, step: Step, question: Question, previous: unknown): string {
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
 *
 * In a group the screen is the member's alone (ephemeral, `send` spreads `ephemeral` into its
 * extra); a screen a button of theirs brought up takes the place of the one they pressed it on.
 */
async function presentScreen(
  deps: OrderEngineDeps,
  env: StepEnv,
  send: (ephemeral: EphemeralExtra | undefined) => Promise<Message>,
): Promise<void> {
  const { ctx, draft } = env;
  draft.unsent = true;
  await persistSession(deps, ctx);
  const previous = { messageId: draft.messageId, ephemeralId: draft.ephemeralId };
  const sent = await ctx.toMember.send(send, { replaces: true });
  draft.unsent = undefined;
  draft.messageId = sent.message_id;
  draft.ephemeralId = ephemeralIdOf(sent);
  // The screen before loses its buttons: only the screen shown last is live. (A replaced one is gone.)
  const chatId = ctx.chat?.id;
  if (previous.ephemeralId !== undefined) {
    const replaced = ctx.toMember.pressed?.ephemeralMessageId === previous.ephemeralId;
    if (!replaced && previous.ephemeralId !== draft.ephemeralId)
      await ctx.toMember.dropKeyboard(previous.ephemeralId);
  } else if (
    previous.messageId !== undefined &&
    previous.messageId !== sent.message_id &&
    chatId !== undefined
  )
    await ctx.telegram
      .editMessageReplyMarkup(chatId, previous.messageId, undefined, undefined)
      .catch(() => undefined);
}

/** The Edit menu: a button a section of the form, and one back to the summary. */
export async function showEditMenu(deps: OrderEngineDeps, env: StepEnv, note?: string): Promise<void> {
  const { ctx, draft } = env;
  draft.screen += 1;
  draft.nonce = undefined;
  draft.current = undefined;
  const sections = editableSections(deps, draft);
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
  await presentScreen(deps, env, (ephemeral) =>
    ctx.reply(text, {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([...inRows(buttons, 2), [back]]),
      ...ephemeral,
    }),
  );
}

/** The sections the partner may change, in the form's order ('given' ones are not theirs to change). */
export function editableSections(deps: OrderEngineDeps, draft: OrderDraft): Section[] {
  return [...new Set(listSteps(deps, draft).map((s) => s.section))].filter((s) => s !== 'given');
}

/**
 * Every answer as it will be sent, then Confirm, Edit, Back and Cancel; `intro` under the title.
 * One screen: in a rich message the form's sections each have their part (a details block, open),
 * in HTML the lines as they always were, split into parts when over 4,096 characters.
 */
export async function showSummary(deps: OrderEngineDeps, env: StepEnv, intro?: string): Promise<void> {
  const { ctx, draft } = env;
  const flow = resolveFlow(deps, draft.kind);
  const [title = '', ...head] = await flow.summaryHead(env);
  const sections = new Map<Section, string[]>();
  for (const step of listSteps(deps, draft)) {
    if (!(step.id in draft.answers)) continue;
    const value = step.read(draft.answers[step.id]);
    const line = value === undefined ? undefined : step.describe?.(env, value);
    if (line) sections.set(step.section, [...(sections.get(step.section) ?? []), line]);
  }
  draft.current = undefined;
  draft.status = 'editing';
  draft.screen += 1;
  draft.nonce = randomBytes(6).toString('base64url');
  const confirmKey = flow.confirmKey ?? 'order:confirm';
  const keyboard = [
    // The one button that sends what the summary shows (an order, a record, a customer): green.
    [
      styled(
        Markup.button.callback(ctx.t(confirmKey), encodeCallback('orderConfirm', draft.nonce)),
        'success',
      ),
    ],
    [
      Markup.button.callback(ctx.t('order:edit'), encodeCallback('orderNav', draft.screen, 'edit')),
      Markup.button.callback(ctx.t('order:back'), encodeCallback('orderNav', draft.screen, 'back')),
      Markup.button.callback(ctx.t('order:cancel'), encodeCallback('orderNav', draft.screen, 'cancel')),
    ],
  ];
  const top: ScreenBlock[] = [
    ...(intro ? [{ type: 'text' as const, html: intro }] : []),
    ...(head.length > 0 ? [{ type: 'text' as const, html: head.join('\n') }] : []),
  ];
  const screen = (rich: boolean): Screen => ({
    // The title is the summary's bold first line; the screen draws it bold itself.
    title: title.replace(/^<b>(.*)<\/b>$/s, '$1'),
    blocks: rich
      ? [
          ...top,
          ...[...sections].map(
            ([section, lines]): ScreenBlock =>
              section === 'given'
                ? { type: 'text', html: lines.join('\n') }
                : {
                    type: 'section',
                    title: ctx.t(`order:section.${section}`),
                    open: true,
                    blocks: [{ type: 'text', html: lines.join('\n') }],
                  },
          ),
        ]
      : [...top, { type: 'text', html: [...sections.values()].flat().join('\n') }],
    keyboard,
  });
  await presentScreen(
    deps,
    env,
    async (ephemeral) => (await ctx.screens.send(ctx, screen, ephemeral)).message,
  );
}
