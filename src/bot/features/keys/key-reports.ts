/*
 * What robots did with a key, told in the key's chat (its private chat or team group): one line
 * per change — «🔑 автообновление client.by — A office: 198.51.100.7 → 198.51.100.9 (ключ
 * «Роутер офиса»)» — with the changes folded since the last line, the failures worded as the
 * chat's own apply reports word them, ↩ Undo, and then the live check, as Mini App edits are
 * reported (edits-report.ts). And, once, that a key stopped because its account's token did.
 * Sent outside any update, through the bot's own client; the services call it through their port.
 * A key belongs to one account of its chat (`accountOfKey`): its reports act on that account's
 * token, their buttons carry it, and in a chat of several accounts they are headed with its name.
 */
import type { Telegram } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { ApiFactory } from '../../../api/index.js';
import { pairChanges } from '../../../core/dns-change.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import type { KeyReportPort } from '../../../services/key-reports.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import { accountOfKey } from '../../../storage/robot-keys.js';
import { speakAs, speakerOf } from '../../kit/account-speaker.js';
import type { Translations } from '../../kit/i18n.js';
import { wordFailure } from '../dns/apply.js';
import { undoButtons } from '../dns/history/record.js';
import { type LiveCheckPort, startChangeCheck } from '../dns/live-check/live-check.js';
import { describeChangeLines, describeRecord } from '../dns/views.js';

export interface KeyReportsDeps {
  telegram: Pick<Telegram, 'sendMessage'>;
  translations: Translations;
  chatData: Pick<ChatData, 'getLocale' | 'listAccounts'>;
  defaultLocale: Locale;
  apiFor: ApiFactory;
  liveChecks?: LiveCheckPort | undefined;
}

export function createKeyReports(deps: KeyReportsDeps): KeyReportPort {
  const translate = async (chatId: number) =>
    deps.translations.forLocale((await deps.chatData.getLocale(chatId)) ?? deps.defaultLocale);

  return {
    async reportKeyUse({ key, domain, outcome, entry, folded }) {
      const t = await translate(key.chatId);
      const params = { domain: escapeHtml(toUnicodeDomain(domain)), name: escapeHtml(key.name) };
      // A delete and an add of one host read as one change: «A office: old → new».
      const done = describeChangeLines(t, pairChanges(outcome.applied));
      const failed = outcome.failures.map((failure) => {
        const { change, reason } = wordFailure(t, failure);
        return `${change.op === 'add' ? '+' : '−'} ${describeRecord(t, change.record)} — ${escapeHtml(reason)}`;
      });
      const lines = [
        done.length > 0
          ? t('keys:report.done', { ...params, what: done.join('; ') })
          : t('keys:report.failed', params),
        ...(folded > 0 ? [t('keys:report.folded', { count: folded })] : []),
        ...(failed.length > 0 ? [t('keys:report.failures', { count: failed.length }), ...failed] : []),
      ];
      const buttons = undoButtons(t, key.orderId, entry);
      const of = await speakerOf(deps.chatData, key.chatId, t, accountOfKey(key));
      // As sent (headed, its Undo stamped with the key's account), so that the live check's edits keep it.
      const { text, reply_markup: keyboard } = speakAs(
        'sendMessage',
        {
          text: lines.join('\n'),
          parse_mode: 'HTML',
          ...(buttons.length > 0 ? { reply_markup: { inline_keyboard: [buttons] } } : {}),
        },
        of?.speaker,
      ) as { text: string; reply_markup?: { inline_keyboard: InlineKeyboardButton[][] } };
      const sent = await deps.telegram.sendMessage(key.chatId, text, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(keyboard ? { reply_markup: keyboard } : {}),
      });
      if (of === undefined) return;
      startChangeCheck(
        deps.liveChecks,
        { t, api: deps.apiFor(of.account.token) },
        sent,
        { html: text, keyboard },
        key.orderId,
        {
          added: outcome.applied.filter((c) => c.op === 'add').map((c) => c.record),
          removed: outcome.applied.filter((c) => c.op === 'delete').map((c) => c.record),
        },
      );
    },

    async reportKeyStopped({ key, reason }) {
      const t = await translate(key.chatId);
      // A group's token is the owner's, bound with /team: the way back is theirs.
      const where = key.chatId < 0 ? 'Group' : '';
      const of = await speakerOf(deps.chatData, key.chatId, t, accountOfKey(key));
      const { text } = speakAs(
        'sendMessage',
        { text: t(`keys:stopped.${reason}${where}`, { name: escapeHtml(key.name) }), parse_mode: 'HTML' },
        of?.speaker,
      );
      await deps.telegram.sendMessage(key.chatId, String(text), { parse_mode: 'HTML' });
    },
  };
}
