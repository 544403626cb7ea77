import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import { isEmptyPlan, readListedRecords } from '../../../../core/dns-plan.js';
import {
  invalidPresetRecord,
  type PresetDraft,
  planPreset,
  readPresetParam,
} from '../../../../core/dns-preset-plan.js';
import { isPresetId, PRESET_IDS, type PresetId, presetOf } from '../../../../core/dns-presets.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import { AWAIT_INPUT_SCENE, type AwaitedInput, type InputHandler } from '../../../kit/await-input.js';
import { askMember } from '../../../kit/group-question.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { announce } from '../../team/announce.js';
import { type ApplyPlan, applyButton } from '../apply.js';
import { type DomainRef, refOfOrder } from '../domain.js';
import { copyValueButton, describeRecord } from '../views.js';
import { presetName, presetPreviewScreen, renderPresetChoice } from './views.js';

/**
 * Removes the buttons of an earlier question of the bot's (its id kept in a draft) once it is
 * answered another way, by typing: no live button is left behind. Never fails the answer.
 */
export async function dropButtons(ctx: BotContext, messageId: number | undefined): Promise<void> {
  const chatId = ctx.chat?.id;
  if (messageId === undefined || chatId === undefined) return;
  await ctx.telegram.editMessageReplyMarkup(chatId, messageId, undefined, undefined).catch(() => undefined);
}

/** The await-input purpose of a preset's parameter answer. */
const PARAM_PURPOSE = 'dnsPresetParam';

/**
 * `/dns <domain> preset`: choose a preset → its parameters one by one (optional ones can be
 * skipped; /cancel leaves) → a preview (add / replace / keep) → Apply under the delete limit, with
 * one progress message and a report; the accepted changes go to the history as one group.
 */
export function createDnsPresets(deps: {
  router: CallbackRegistrar;
  applyPlan: ApplyPlan;
  /** Takes a bulk's preset once its parameters are answered (the draft's `bulk` is set). */
  presetForBulk: (ctx: BotContext, draft: PresetDraft & { presetId: PresetId }) => Promise<void>;
}) {
  const { router, applyPlan, presetForBulk } = deps;

  const choose = async (ctx: BotContext, ref: DomainRef) => {
    const rows = PRESET_IDS.map((id) => [
      Markup.button.callback(presetName(ctx.t, id), encodeCallback('dnsPreset', ref.orderId, id)),
    ]);
    await ctx.reply(renderPresetChoice(ctx.t, ref.domain), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard(rows),
    });
  };

  /** The draft this button or answer belongs to, or undefined when it is stale. */
  const draftOf = (ctx: BotContext, nonce: string): (PresetDraft & { presetId: PresetId }) | undefined => {
    const draft = ctx.session.dnsPreset;
    if (draft?.nonce !== nonce || !isPresetId(draft.presetId)) return undefined;
    return { ...draft, presetId: draft.presetId };
  };

  /** Asks the draft's next parameter, or shows the preview once all are answered. */
  const next = async (ctx: BotContext, draft: PresetDraft & { presetId: PresetId }) => {
    const { params } = presetOf(draft.presetId);
    const param = params[draft.asked];
    if (param === undefined)
      return draft.bulk === undefined ? preview(ctx, draft) : presetForBulk(ctx, draft);
    ctx.session.dnsPreset = draft;
    await ctx.scene.enter(
      AWAIT_INPUT_SCENE,
      { purpose: PARAM_PURPOSE, orderId: draft.orderId } satisfies AwaitedInput,
      true,
    );
    const text = [
      ctx.t('dnspresets:askStep', {
        preset: presetName(ctx.t, draft.presetId),
        step: draft.asked + 1,
        steps: params.length,
        question: ctx.t(`dnspresets:ask.${draft.presetId}.${param.name}`),
      }),
      ...(param.optional ? [ctx.t('dnspresets:askOptional')] : []),
      ctx.t('dnspresets:askCancel'),
    ].join('\n');
    const skip = param.optional
      ? Markup.inlineKeyboard([
          Markup.button.callback(
            ctx.t('dnspresets:skipButton'),
            encodeCallback('dnsPresetSkip', draft.nonce, draft.asked),
          ),
        ])
      : undefined;
    // In a group the answer must be a reply to the bot (privacy mode): the question says so.
    const sent = await askMember(ctx, text, skip);
    // An ephemeral question (message id 0) keeps its Skip: a late tap on it is told it is stale.
    if (param.optional && sent.message_id !== 0)
      ctx.session.dnsPreset = { ...draft, questionMessageId: sent.message_id };
  };

  /** The question is answered: its Skip button goes, so no live button is left behind. */
  const settleQuestion = (ctx: BotContext, draft: PresetDraft) => dropButtons(ctx, draft.questionMessageId);

  const preview = async (ctx: BotContext, draft: PresetDraft & { presetId: PresetId }) => {
    const ref = await refOfOrder(ctx, draft.orderId);
    const listed = await (await ctx.partnerApi()).listDnsRecords(ref.orderId);
    const current = readListedRecords(listed);
    const invalid = invalidPresetRecord(presetOf(draft.presetId).records(draft.values, ref.domain));
    if (invalid) {
      // Microsoft's MX name is built from the domain, which an IDN domain does not fit.
      // Said, not thrown: from the parameter scene a thrown error would wait for another answer.
      ctx.session.dnsPreset = undefined;
      const text = ctx.t('dnspresets:notForDomain', {
        preset: presetName(ctx.t, draft.presetId),
        domain: escapeHtml(toUnicodeDomain(ref.domain)),
        record: describeRecord(ctx.t, invalid),
      });
      await ctx.reply(text, { parse_mode: 'HTML' });
      return;
    }
    const plan = planPreset(
      { nonce: draft.nonce, orderId: ref.orderId, domain: ref.domain, presetId: draft.presetId },
      presetOf(draft.presetId),
      draft.values,
      current,
      listed.length,
    );
    if (isEmptyPlan(plan)) {
      ctx.session.dnsPreset = undefined;
      await ctx.screens.send(ctx, (rich) =>
        presetPreviewScreen(ctx.t, plan, [ctx.t('dnspresets:nothing')], rich),
      );
      return;
    }
    ctx.session.dnsPreset = { ...draft, questionMessageId: undefined, plan };
    // The TXT values the preset adds (a verification code, SPF) can be copied to the service's page.
    const copies = plan.add.flatMap((r) => {
      const button = r.type === 'TXT' ? copyValueButton(ctx.t, r, true) : undefined;
      return button ? [[button]] : [];
    });
    const keyboard = [
      [
        applyButton(
          ctx.t('dnspresets:applyButton'),
          encodeCallback('dnsPresetApply', plan.nonce, 'ask'),
          plan.remove.length,
        ),
        Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'preset')),
      ],
      ...copies,
    ];
    await ctx.screens.send(ctx, (rich) => ({ ...presetPreviewScreen(ctx.t, plan, [], rich), keyboard }));
  };

  router.on('dnsPresets', async (ctx, orderId) => choose(ctx, await refOfOrder(ctx, orderId)));

  router.on('dnsPreset', async (ctx, orderId, presetId) => {
    if (!isPresetId(presetId)) throw new UserInputError('common:buttonExpired');
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const nonce = randomBytes(6).toString('base64url');
    await next(ctx, { nonce, orderId, presetId, values: {}, asked: 0 });
  });

  router.on(
    'dnsPresetSkip',
    async (ctx, nonce, index) => {
      const draft = draftOf(ctx, nonce);
      const param = draft && presetOf(draft.presetId).params[draft.asked];
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      if (!draft || draft.plan || draft.asked !== index || !param?.optional) {
        await ctx.answerCbQuery(ctx.t('dnspresets:expired'));
        return;
      }
      await ctx.answerCbQuery(ctx.t('dnspresets:skippingToast'));
      if (ctx.scene.current?.id === AWAIT_INPUT_SCENE) await ctx.scene.leave();
      await next(ctx, { ...draft, questionMessageId: undefined, asked: draft.asked + 1 });
    },
    { selfAnswer: true },
  );

  const answerParam: InputHandler = async (ctx, input, text) => {
    const stored = ctx.session.dnsPreset;
    const draft = stored && draftOf(ctx, stored.nonce);
    const param = draft && presetOf(draft.presetId).params[draft.asked];
    // The preset was left meanwhile (another preset chosen, or applied): say so, never stay silent.
    if (!draft || draft.orderId !== input.orderId || draft.plan || !param) {
      await ctx.reply(ctx.t('dnspresets:expired'));
      return;
    }
    const read = readPresetParam(param, text);
    if (!read.ok) throw new UserInputError(`dnspresets:paramError.${read.reason}`);
    await settleQuestion(ctx, draft);
    await next(ctx, {
      ...draft,
      questionMessageId: undefined,
      values: { ...draft.values, [param.name]: read.value },
      asked: draft.asked + 1,
    });
  };

  router.on(
    'dnsPresetApply',
    async (ctx, nonce, mode) => {
      const draft = draftOf(ctx, nonce);
      const plan = draft?.plan;
      if (!draft || !plan) {
        await ctx.answerCbQuery(ctx.t('dnspresets:expired'));
        await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
        return;
      }
      await ctx.answerCbQuery(ctx.t('dnspresets:applyingToast'));
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      await applyPlan(ctx, {
        plan,
        force: mode === 'force',
        ask: {
          ns: 'dnspresets',
          forceData: encodeCallback('dnsPresetApply', plan.nonce, 'force'),
          topic: 'preset',
        },
        kind: 'preset',
        settle: () => {
          ctx.session.dnsPreset = undefined;
        },
        announce: ({ ok, total }) =>
          announce(ctx, 'presetApplied', {
            orderId: plan.orderId,
            preset: presetName(ctx.t, plan.presetId),
            ok,
            total,
          }),
      });
    },
    { selfAnswer: true },
  );

  /** Asks a preset's parameters one by one (the same questions for a bulk, `draft.bulk` set). */
  const askParams = next;
  return { choose, askParams, inputHandlers: { [PARAM_PURPOSE]: answerParam } };
}
