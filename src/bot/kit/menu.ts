/** Commands in menu order; each has `commands.<name>` descriptions in both languages. */
export const MENU_COMMANDS = [
  'invoice',
  'invoices',
  'check',
  'order',
  'orders',
  'requisites',
  'notify',
  'team',
  'dns',
  'ns',
  'cert',
  'payments',
  'statements',
  'statement',
  'partner_statements',
  'partner_statement',
  'prices',
  'tariffs',
  'zones',
  'token',
  'lang',
  'cancel',
  'logout',
  'help',
  'start',
] as const;

/** A command of the menu. */
export type MenuCommand = (typeof MENU_COMMANDS)[number];
