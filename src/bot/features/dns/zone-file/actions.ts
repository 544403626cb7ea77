import type { ActionTable } from '../../../kit/callback-data.js';

/** Zone files: export, import, and the import preview's Apply. */
export const ZONE_FILE_ACTIONS = {
  /** Export the records as a zone file; ask for a file to import: order id. */
  dnsExport: { code: 'dx', args: ['int'], need: 'tech' },
  dnsImport: { code: 'di', args: ['int'], need: 'tech' },
  /** Apply an import preview (single-use nonce); `force` confirms a large deletion. */
  dnsApply: { code: 'dp', args: ['word', 'word'], need: 'tech' },
} as const satisfies ActionTable;
