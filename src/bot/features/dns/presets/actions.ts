import type { ActionTable } from '../../../kit/callback-data.js';

/** DNS presets (`dnspresets`): the choice, the parameters, and Apply. */
export const PRESET_ACTIONS = {
  /**
   * The list for an order; choose one (order, preset id); skip an
   * optional parameter (draft nonce, parameter index); apply the preview (nonce, ask | force).
   */
  dnsPresets: { code: 'Ps', args: ['int'], need: 'tech' },
  dnsPreset: { code: 'Pp', args: ['int', 'word'], need: 'tech' },
  dnsPresetSkip: { code: 'Pk', args: ['word', 'int'], need: 'tech' },
  dnsPresetApply: { code: 'Pa', args: ['word', 'word'], need: 'tech' },
} as const satisfies ActionTable;
