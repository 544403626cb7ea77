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
  'keys',
  'payments',
  'statements',
  'statement',
  'partner_statements',
  'partner_statement',
  'prices',
  'tariffs',
  'zones',
  'token',
  'accounts',
  'lang',
  'cancel',
  'logout',
  'help',
  'start',
] as const;

/** A command of the menu. */
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/**
 * Commands a member uses for themselves: registered `is_ephemeral` for group chats, so in a group
 * the command is seen only by its sender and the bot, and every answer to it goes to the sender
 * alone (kit/member-messages.ts). The rest answer the team (a list, a screen, a change).
 */
export const EPHEMERAL_COMMANDS: ReadonlySet<MenuCommand> = new Set<MenuCommand>([
  'help',
  'start',
  'cancel',
  'token',
  'accounts',
  'order',
  'requisites',
]);
