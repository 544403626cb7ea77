import type { PresetPlan } from '../../../../core/dns-preset-plan.js';
import { PRESET_IDS } from '../../../../core/dns-presets.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { Translate } from '../../../kit/i18n.js';
import type { Screen } from '../../../kit/screen.js';
import { planColumns, planCounts, planRow, richOrCapped } from '../plan-views.js';

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

/** Records listed per part of an HTML preview (presets are small); the counts are always whole. */
const PREVIEW_RECORDS = 20;

/**
 * The preview of a preset: the counts of what it adds, changes and deletes (as its report will
 * count them: `planCounts`) and of what is there already, a table of those records, and the note
 * that the rest stay.
 */
export function presetPreviewScreen(
  t: Translate,
  plan: PresetPlan,
  notes: readonly string[],
  rich: boolean,
): Screen {
  return richOrCapped(rich, (all) => {
    const cap = <T>(list: readonly T[]) => (all ? list : list.slice(0, PREVIEW_RECORDS));
    const rows = [
      ...cap(plan.add).map((r) => planRow(t, 'add', r)),
      ...cap(plan.remove).map((r) => planRow(t, 'delete', r.record)),
      ...cap(plan.keep).map((r) => planRow(t, 'keep', r.record)),
    ];
    const counts = planCounts(plan.add, plan.remove);
    return {
      title: t('dnspresets:previewTitle', {
        preset: presetName(t, plan.presetId),
        domain: escapeHtml(toUnicodeDomain(plan.domain)),
      }),
      blocks: [
        {
          type: 'text',
          html: [
            t('dnspresets:previewAdd', { count: counts.add }),
            t('dnspresets:previewChange', { count: counts.change }),
            t('dnspresets:previewReplace', { count: counts.delete }),
            t('dnspresets:previewKeep', { count: plan.keep.length }),
          ].join('\n'),
        },
        ...(rows.length > 0
          ? [{ type: 'table' as const, columns: planColumns(t), rows, compact: true }]
          : []),
        ...[t('dnspresets:previewNote'), ...notes].map((html) => ({ type: 'text' as const, html })),
      ],
    };
  });
}
