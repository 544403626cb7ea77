/*
 * Buttons that say what they do, as every bot story checks them (use-bot.ts after each story, the
 * harness at its stop): a button that deletes or replaces is red (Bot API 9.4 `style: 'danger'`),
 * the last step of a form green, navigation left to the app's own colour; a disabled button (a
 * role lacks its action, Bot API 10.3) carries no callback data and no colour, says 🔒 first, and
 * is drawn only in a group. The rules read labels (and, for a bare «Да»/«Yes», the question above
 * it), in both languages. test/bot/button-styles.test.ts pins each colour on the screens it is about.
 */

/** A Bot API call as the harness records it (a BotCall; structural, so the harness may import this). */
export interface DrawingCall {
  method: string;
  payload: Record<string, unknown>;
}

/** One button as drawn: its label, its style, and the message it came under. */
export interface Drawn {
  text: string;
  style: string | undefined;
  /** The text (or caption) of the message the keyboard came with; empty for a bare re-markup. */
  question: string;
  callbackData: string | undefined;
  /** A disabled button (`disabled: {}`): it does nothing. */
  disabled: boolean;
  /** The chat it was drawn in; undefined for an inline message. */
  chatId: unknown;
  method: string;
}

interface RawButton {
  text: string;
  style?: string;
  callback_data?: string;
  disabled?: object;
}

/** Every inline button of every keyboard among the calls (sent, edited, or re-marked up). */
export function drawnButtons(calls: readonly DrawingCall[]): Drawn[] {
  return calls.flatMap((call) => {
    const markup = call.payload.reply_markup as { inline_keyboard?: RawButton[][] } | undefined;
    const question = String(call.payload.text ?? call.payload.caption ?? '');
    return (markup?.inline_keyboard ?? []).flat().map((b) => ({
      text: b.text,
      style: b.style,
      question,
      callbackData: b.callback_data,
      disabled: b.disabled !== undefined,
      chatId: call.payload.chat_id,
      method: call.method,
    }));
  });
}

/** A word of a label, not a piece of a name in it («replace-en.com» is a domain, not a verb). */
const verb = (word: string) => new RegExp(`(?<![\\p{L}\\p{N}.-])${word}(?![\\p{L}\\p{N}.-])`, 'iu');
/** Labels that delete or replace, in Russian and English. */
export const DESTROYS = [
  /🗑/u,
  /♻️/u,
  verb('удалить'),
  verb('заменить'),
  verb('delete'),
  verb('replace'),
  verb('забыть'),
  verb('forget'),
];
/** A bare yes, which does what the question above it says. */
export const YES = /^(?:Да|Yes)(?:,|$)/;
/** The last step of a form or a preview (or of a change cut off): it does what the message shows. */
export const CONFIRMS =
  /^(?:✅ (?:Подтвердить заказ|Confirm order|Добавить|Add|Применить|Apply|Довести изменение до конца|Finish the change)|💾 (?:Сохранить|Save))$/;
/** Buttons that only move about: back, cancel, no, pages, skip, keep, edit the summary. */
export const NAVIGATES =
  /^(?:⬅|✖|◀|▶|↩ Отменить|↩ Undo|Нет$|No$|К итогу|Back to summary|Пропустить|Skip|Оставить|Keep|✏️|📋 Все записи|📋 All records|стр\.|page)/i;

/** What one button breaks of the rules, in words; undefined when it keeps them. */
function ruleBroken(button: Drawn): string | undefined {
  const where = `${button.text} (under «${button.question.slice(0, 60)}», ${button.method})`;
  if (button.disabled) {
    if (button.callbackData !== undefined) return `${where} is disabled but carries callback data`;
    if (button.style !== undefined) return `${where} is disabled but coloured ${button.style}`;
    if (!button.text.startsWith('🔒')) return `${where} is disabled without its 🔒`;
    if (typeof button.chatId === 'number' && button.chatId > 0)
      return `${where} is disabled in a private chat`;
    return undefined;
  }
  if (DESTROYS.some((pattern) => pattern.test(button.text))) {
    return button.style === 'danger' ? undefined : `${where} deletes or replaces: style ${button.style}`;
  }
  if (YES.test(button.text) && DESTROYS.some((pattern) => pattern.test(button.question))) {
    return button.style === 'danger'
      ? undefined
      : `${where} answers a question that deletes or replaces: style ${button.style}`;
  }
  if (CONFIRMS.test(button.text)) {
    // Green; red only where applying deletes (the styles stories pin which).
    return button.style === 'success' || button.style === 'danger'
      ? undefined
      : `${where} confirms: style ${button.style}`;
  }
  if (NAVIGATES.test(button.text)) {
    return button.style === undefined ? undefined : `${where} only navigates: style ${button.style}`;
  }
  return undefined;
}

/** Every rule the calls' buttons break, one line each. */
export function buttonRuleBreaks(calls: readonly DrawingCall[]): string[] {
  return drawnButtons(calls).flatMap((button) => ruleBroken(button) ?? []);
}

/** Throws, naming every button that breaks the rules; returns the buttons drawn. */
export function expectButtonRules(calls: readonly DrawingCall[]): Drawn[] {
  const breaks = buttonRuleBreaks(calls);
  if (breaks.length > 0) throw new Error(`buttons that do not say what they do:\n${breaks.join('\n')}`);
  return drawnButtons(calls);
}
