import type { PresetPlan } from '../../../../core/dns-preset-plan.js';
import { PRESET_IDS } from '../../../../core/dns-presets.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { joinLinesWithin } from '../../../../core/text.js';
import type { Translate } from '../../../kit/i18n.js';
import { describeRecord } from '../views.js';

/** A preset's name in the chat's language. */
export function presetName(t: Translate, presetId: string): string {
  return t(`dnspresets:preset.${presetId}.name`);
}

/** The list of presets for a domain: each with what it sets up (the buttons carry the names). */
export function renderPresetChoice(t: Translate, domain: string): string {
  return [
    t('dnspresets:chooseTitle', { domain: escapeHtml(toUnicodeDomain(domain)) }),
    '',
    ...PRESET_IDS.map((id) =>
      t('dnspresets:chooseRow', {
        name: presetName(t, id),
        about: t(`dnspresets:preset.${id}.about`),
      }),
    ),
  ].join('\n');
}

/** Records listed per part of the preview; presets are small, the counts are always whole. */
const PREVIEW_RECORDS = 20;

/** The preview of a preset: what it adds, which records it replaces, what is there already. */
export function renderPresetPreview(t: Translate, plan: PresetPlan): string {
  return joinLinesWithin(
    [
      t('dnspresets:previewTitle', {
        preset: presetName(t, plan.presetId),
        domain: escapeHtml(toUnicodeDomain(plan.domain)),
      }),
      t('dnspresets:previewAdd', { count: plan.add.length }),
      ...plan.add.slice(0, PREVIEW_RECORDS).map((r) => `+ ${describeRecord(t, r)}`),
      t('dnspresets:previewReplace', { count: plan.remove.length }),
      ...plan.remove.slice(0, PREVIEW_RECORDS).map((r) => `− ${describeRecord(t, r.record)}`),
      t('dnspresets:previewKeep', { count: plan.keep.length }),
      ...plan.keep.slice(0, PREVIEW_RECORDS).map((r) => `= ${describeRecord(t, r.record)}`),
      '',
      t('dnspresets:previewNote'),
    ],
    4000,
  );
}
