/*
 * Edits made in the Mini App, told in the chat whose account they were made for: the same apply
 * report as the chat's own Apply (what was done, what failed and why, ↩ Undo), headed by who made
 * them in the editor — in a team group that heading is the team's announcement — and then
 * live-checked like every change the chat makes. Sent outside any update, through the bot's own
 * client; the services call it through their port.
 *
 * The edits were made on one account of the chat: the author's (`who.account`, set by the Mini
 * App), else the active one. The live check asks with that account's token, the report's Undo
 * carries it, and in a chat of several accounts the report is headed with its name.
 */
import type { Telegram } from 'telegraf';
import type { ApiFactory } from '../../../api/index.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import type { EditsReport, EditsReportPort } from '../../../services/zone-editing.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import { speakAs, speakerOf, stampRows, telegramAs } from '../../kit/account-speaker.js';
import type { Translations } from '../../kit/i18n.js';
import { screenHtml } from '../../kit/screen.js';
import type { Screens } from '../../kit/screens.js';
import { wordFailure } from './apply.js';
import { undoButtons } from './history/record.js';
import { type LiveCheckPort, startChangeCheck } from './live-check/live-check.js';
import { applyReportScreen } from './plan-views.js';

export interface EditsReportDeps {
  telegram: Pick<Telegram, 'callApi' | 'sendMessage'>;
  screens: Screens;
  translations: Translations;
  chatData: Pick<ChatData, 'getLocale' | 'listAccounts'>;
  defaultLocale: Locale;
  apiFor: ApiFactory;
  liveChecks: LiveCheckPort | undefined;
}

export function createEditsReports(deps: EditsReportDeps): EditsReportPort {
  return {
    async reportEdits(report: EditsReport): Promise<void> {
      const { chatId, who, orderId, outcome } = report;
      const t = deps.translations.forLocale((await deps.chatData.getLocale(chatId)) ?? deps.defaultLocale);
      const heading = t(chatId < 0 ? 'dns:fromEditorGroup' : 'dns:fromEditor', {
        who: escapeHtml(who.name),
        role: t(`team:role.${report.role}`),
        domain: escapeHtml(toUnicodeDomain(report.domain)),
      });
      const failures = outcome.failures.map((failure) => {
        const { change, reason } = wordFailure(t, failure);
        return { op: change.op, record: change.record, reason };
      });
      // Spoken as the account the edits were made on, whichever is active now.
      const of = await speakerOf(deps.chatData, chatId, t, report.account);
      const buttons = undoButtons(t, orderId, report.entry);
      // Stamped here (not only on the way out), so that the live check's edits keep the account.
      const keyboard = buttons.length > 0 ? stampRows([buttons], of?.speaker) : undefined;
      const sent = await deps.screens.sendTo(telegramAs(deps.telegram, of?.speaker), chatId, (rich) => {
        const screen = applyReportScreen(t, { applied: outcome.applied, failures }, rich);
        // Who made it, in the editor, heads the report; the outcome is its first line.
        return {
          ...screen,
          title: heading,
          blocks: [{ type: 'text', html: screen.title }, ...screen.blocks],
          ...(keyboard ? { keyboard } : {}),
        };
      });
      if (of === undefined) return;
      // The check's edits keep the heading of an HTML report (a rich one is edited from its screen).
      const html = speakAs(
        'sendMessage',
        { text: screenHtml(sent.screen), parse_mode: 'HTML' },
        of.speaker,
      ).text;
      startChangeCheck(
        deps.liveChecks,
        { t, api: deps.apiFor(of.account.token) },
        sent,
        { html: String(html), keyboard: keyboard && { inline_keyboard: keyboard } },
        orderId,
        {
          added: outcome.applied.filter((c) => c.op === 'add').map((c) => c.record),
          removed: outcome.applied.filter((c) => c.op === 'delete').map((c) => c.record),
        },
      );
    },
  };
}
