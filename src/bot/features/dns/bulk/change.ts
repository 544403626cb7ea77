import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import { type BulkChange, type BulkDraft, parseBulkLine } from '../../../../core/dns-bulk.js';
import type { PresetDraft } from '../../../../core/dns-preset-plan.js';
import { isPresetId, PRESET_IDS, type PresetId } from '../../../../core/dns-presets.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import { AWAIT_INPUT_SCENE, type InputHandler } from '../../../kit/await-input.js';
import type { Translate } from '../../../kit/i18n.js';
import { inRows } from '../../../kit/keyboards.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { presetName } from '../presets/views.js';
import { describeLineProblem } from '../views.js';
import {
  awaitAnswer,
  findAnswerDraft,
  findDraft,
  listDomainOrders,
  refuseStale,
  settleQuestion,
} from './draft.js';
import { showPreview } from './preview.js';
import { renderDomainNames } from './views.js';

/** The await-input purpose of the change line. */
export const CHANGE_PURPOSE = 'dnsBulkChange';

/** A preset chosen as the change, with its parameters still to ask. */
type PresetChoice = PresetDraft & { presetId: PresetId };

/** Asks a preset's parameters by the presets' own questions; they end in `takePresetChange`. */
export type AskPresetParams = (ctx: BotContext, draft: PresetChoice) => Promise<void>;

/** "What to do with them?": a line (add / del / replace) answered in the scene, or a preset's button. */
export async function askChange(ctx: BotContext, draft: BulkDraft): Promise<void> {
  const orders = new Map(await listDomainOrders(ctx));
  const domains = draft.orderIds.flatMap((id) => {
    const domain = orders.get(id);
    return domain === undefined ? [] : [domain];
  });
  await awaitAnswer(ctx, CHANGE_PURPOSE);
  const presets = PRESET_IDS.map((id) =>
    Markup.button.callback(`🧩 ${presetName(ctx.t, id)}`, encodeCallback('dnsBulkPreset', draft.nonce, id)),
  );
  const sent = await ctx.reply(
    ctx.t('dnsbulk:askChange', {
      count: draft.orderIds.length,
      domains: renderDomainNames(ctx.t, domains),
    }),
    { parse_mode: 'HTML', ...Markup.inlineKeyboard(inRows(presets, 2)) },
  );
  ctx.session.dnsBulk = { ...draft, stage: 'change', questionMessageId: sent.message_id };
}

/**
 * The change line read in full: `add <record line>`, `del <TYPE> <host> <value glob>` or
 * `replace <old> <new>`. A line that is not one throws what is wrong with it, so the scene asks
 * again.
 */
function readChangeLine(t: Translate, text: string): BulkChange {
  const read = parseBulkLine(text);
  if (read.ok) return read.change;
  if (read.error === 'verb') throw new UserInputError('dnsbulk:badVerb');
  if (read.error === 'match') throw new UserInputError(`dnsbulk:badMatch.${read.field}`);
  if (read.error === 'replace')
    throw new UserInputError(
      read.reason === 'missing'
        ? `dnsbulk:badReplace.missing.${read.field}`
        : `dnsbulk:badReplace.${read.reason}`,
    );
  throw new UserInputError('dns:badLine', describeLineProblem(t, read));
}

/** The typed change line: once it reads, the question's buttons go and the preview follows. */
export const answerChange: InputHandler = async (ctx, _input, text) => {
  const draft = await findAnswerDraft(ctx, 'change');
  if (!draft) return;
  const change = readChangeLine(ctx.t, text);
  await settleQuestion(ctx, draft);
  await showPreview(ctx, draft, change);
};

/**
 * A preset's button as the change: the line is no longer awaited, and the preset's parameters are
 * asked by the presets' own questions, tied back to this bulk by its nonce (`bulk`).
 */
export function registerPresetButton(router: CallbackRegistrar, askPresetParams: AskPresetParams): void {
  router.on(
    'dnsBulkPreset',
    async (ctx, nonce, presetId) => {
      const draft = findDraft(ctx, nonce, 'change');
      if (!draft || !isPresetId(presetId)) return refuseStale(ctx);
      await ctx.answerCbQuery();
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      if (ctx.scene.current?.id === AWAIT_INPUT_SCENE) await ctx.scene.leave();
      ctx.session.dnsBulk = { ...draft, questionMessageId: undefined };
      const presetNonce = randomBytes(6).toString('base64url');
      await askPresetParams(ctx, {
        nonce: presetNonce,
        orderId: 0,
        presetId,
        values: {},
        asked: 0,
        bulk: nonce,
      });
    },
    { selfAnswer: true },
  );
}

/** The presets' questions are answered: the preset with its values is the bulk's change. */
export async function takePresetChange(ctx: BotContext, preset: PresetChoice): Promise<void> {
  ctx.session.dnsPreset = undefined;
  const draft = await findAnswerDraft(ctx, 'change', preset.bulk);
  if (!draft) return;
  await showPreview(ctx, draft, { kind: 'preset', presetId: preset.presetId, values: preset.values });
}
