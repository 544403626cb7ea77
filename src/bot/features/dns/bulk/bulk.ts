import type { CallbackRegistrar } from '../../../registry.js';
import type { DnsPorts } from '../ports.js';
import { registerApplyButton } from './apply.js';
import {
  type AskPresetParams,
  answerChange,
  CHANGE_PURPOSE,
  registerPresetButton,
  takePresetChange,
} from './change.js';
import { answerDomains, DOMAINS_PURPOSE, registerPickerButtons, startBulk } from './picker.js';

/**
 * `/dns bulk`: pick domains (buttons, paged, ✅ toggles, select all / none; or a pasted list) →
 * one change (a one-line add, `del <TYPE> <host> <value glob>`, `replace <old> <new>`, or a preset
 * with its parameters asked by the presets' own questions) → a per-domain preview under the
 * delete limit (a domain over it is skipped unless the separate force button) → Apply with ONE
 * progress message → ONE report. Each domain's accepted changes are one history entry of kind
 * `bulk` (of kind `change` for a replace).
 *
 * Each step is its own module (picker, change, preview, apply), handing the session draft on to
 * the next; this wires their buttons and typed answers into the DNS feature.
 */
export function createDnsBulk(deps: {
  router: CallbackRegistrar;
  askPresetParams: AskPresetParams;
  ports: DnsPorts;
}) {
  const { router, askPresetParams, ports } = deps;
  registerPickerButtons(router);
  registerPresetButton(router, askPresetParams);
  registerApplyButton(router, ports);
  return {
    start: startBulk,
    presetChosen: takePresetChange,
    inputHandlers: { [DOMAINS_PURPOSE]: answerDomains, [CHANGE_PURPOSE]: answerChange },
  };
}
