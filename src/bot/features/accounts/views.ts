import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { escapeHtml } from '../../../core/format.js';
import { type Account, MAX_ACCOUNTS } from '../../../storage/chat-data/accounts.js';
import { styled } from '../../kit/bot-api-today.js';
import type { Translate } from '../../kit/i18n.js';
import { accountLabel } from '../../middlewares/account.js';
import { encodeCallback } from '../../registry.js';

/** The longest own name of an account: «👤 name» and «🔄 name» stay whole on a button. */
export const NAME_LIMIT = 24;
/** Telegram draws a longer label cut on a phone; every button here keeps within it. */
const BUTTON_LIMIT = 30;

/** A label within `limit` characters (as a reader counts them), cut with «…» when longer. */
export function fitLabel(label: string, limit = BUTTON_LIMIT): string {
  const chars = [...label];
  return chars.length <= limit ? label : `${chars.slice(0, limit - 1).join('')}…`;
}

/** A button labelled `prefix label`, the label cut to keep the whole within the limit. */
export function labelButton(prefix: string, label: string): string {
  return `${prefix} ${fitLabel(label, BUTTON_LIMIT - [...prefix].length - 1)}`;
}

/** An account's lines on /accounts: its label on top (the own name), the provider's name under it. */
function accountLines(t: Translate, account: Account): string[] {
  const label = `<b>${escapeHtml(accountLabel(t, account))}</b>`;
  const top = account.active ? t('accounts:activeLine', { label }) : t('accounts:otherLine', { label });
  const under =
    account.name !== undefined && account.partner !== undefined
      ? [t('accounts:partnerLine', { partner: escapeHtml(account.partner) })]
      : [];
  return [top, ...under];
}

/** `/accounts`: every account of the chat (the active one marked), a row of buttons each, and ➕. */
export function renderAccounts(
  t: Translate,
  accounts: readonly Account[],
): { text: string; keyboard: InlineKeyboardButton[][] } {
  if (accounts.length === 0) {
    return {
      text: t('accounts:none'),
      keyboard: [[Markup.button.callback(t('accounts:addButton'), encodeCallback('accountAdd'))]],
    };
  }
  const text = [
    t('accounts:title', { count: accounts.length, max: MAX_ACCOUNTS }),
    '',
    ...accounts.flatMap((account) => accountLines(t, account)),
    '',
    t(accounts.length > 1 ? 'accounts:hintMany' : 'accounts:hintOne'),
  ].join('\n');
  const rows = accounts.map((account) => {
    const label = accountLabel(t, account);
    return [
      Markup.button.callback(
        labelButton(account.active ? '✅' : '🔄', label),
        encodeCallback('accountSwitch', account.n),
      ),
      Markup.button.callback(t('accounts:renameButton'), encodeCallback('accountRename', account.n)),
      styled(
        Markup.button.callback(t('accounts:removeButton'), encodeCallback('accountRemove', account.n)),
        'danger',
      ),
    ];
  });
  return {
    text,
    keyboard: [...rows, [Markup.button.callback(t('accounts:addButton'), encodeCallback('accountAdd'))]],
  };
}

/** What removing an account takes with it, counted before asking. */
export interface RemovalCost {
  keys: number;
  groups: number;
  /** The last account of the chat: nothing will be connected after it. */
  last: boolean;
}

/** The removal question: what goes with the account (its notifications here, its keys, its groups). */
export function renderRemovalQuestion(
  t: Translate,
  account: Account,
  cost: RemovalCost,
  options: { forgetAll?: boolean } = {},
): { text: string; keyboard: InlineKeyboardButton[][] } {
  const label = escapeHtml(accountLabel(t, account));
  const text = [
    t('accounts:removeAsk', { label }),
    t('accounts:removeNotifications'),
    cost.keys === 0 ? t('accounts:removeNoKeys') : t('accounts:removeKeys', { count: cost.keys }),
    ...(cost.groups === 0 ? [] : [t('accounts:removeGroups', { count: cost.groups })]),
    '',
    t(cost.last ? 'accounts:removeLast' : 'accounts:removeStays'),
    ...(options.forgetAll ? [t('accounts:logoutAll')] : []),
  ].join('\n');
  const yes = styled(
    Markup.button.callback(t('accounts:removeYes'), encodeCallback('accountRemoveYes', account.n)),
    'danger',
  );
  const all = styled(
    Markup.button.callback(t('accounts:forgetAll'), encodeCallback('logout', 'yes')),
    'danger',
  );
  // From /logout, «Нет» says nothing was deleted (onboarding's); from /accounts, the list comes back.
  const no = Markup.button.callback(
    t('accounts:removeNo'),
    options.forgetAll ? encodeCallback('logout', 'no') : encodeCallback('accountRemoveNo'),
  );
  return { text, keyboard: options.forgetAll ? [[yes], [all], [no]] : [[yes, no]] };
}
