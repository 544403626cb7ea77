import { mergeActionTables } from '../../kit/callback-data.js';
import { BULK_ACTIONS } from './bulk/actions.js';
import { CHANGE_ACTIONS } from './change/actions.js';
import { HISTORY_ACTIONS } from './history/actions.js';
import { NAME_SERVER_ACTIONS } from './name-servers/actions.js';
import { PRESET_ACTIONS } from './presets/actions.js';
import { RECORD_ACTIONS } from './records/actions.js';
import { ZONE_FILE_ACTIONS } from './zone-file/actions.js';

/** Every DNS part's buttons: one line a part. */
export const DNS_ACTIONS = mergeActionTables(
  RECORD_ACTIONS,
  CHANGE_ACTIONS,
  ZONE_FILE_ACTIONS,
  NAME_SERVER_ACTIONS,
  HISTORY_ACTIONS,
  PRESET_ACTIONS,
  BULK_ACTIONS,
);
