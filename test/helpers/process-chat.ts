import type { BotApiServer, RecordedCall } from '../../src/playground/bot-api/index.js';
import { isPostTo, seenText } from './seen-text.js';

/*
 * One chat with the real bot process over the local Bot API server: type or tap as a partner
 * does, then wait for the message that answers. The reliability stories (a kill mid-Confirm, a
 * kill mid-change) drive the built bot through it.
 */

/** An inline button as the chat shows it. */
export interface Button {
  text: string;
  callback_data?: string;
  url?: string;
}

/** One chat with the real bot: type or tap, then wait for the message that answers. */
export class ProcessChat {
  constructor(
    readonly telegram: BotApiServer,
    readonly id: number,
    readonly languageCode = 'en',
  ) {}

  private replies(since: number): RecordedCall[] {
    return this.telegram.calls.slice(since).filter(isPostTo(this.id));
  }

  /** Every text the bot sent since `since` (a rich message's as its lines), once one matches `until`. */
  async after(since: number, until: RegExp): Promise<{ text: string; buttons: Button[] }> {
    await this.telegram
      .waitForCall((c) => isPostTo(this.id)(c) && until.test(seenText(c)), { since, timeoutMs: 15_000 })
      .catch(() => {
        const said = this.replies(since).map(seenText);
        throw new Error(`chat ${this.id} waited for ${until}; the bot said: ${JSON.stringify(said)}`);
      });
    const replies = this.replies(since);
    return {
      text: replies.map(seenText).join('\n'),
      buttons: replies.flatMap(
        (c) =>
          (c.params.reply_markup as { inline_keyboard?: Button[][] } | undefined)?.inline_keyboard?.flat() ??
          [],
      ),
    };
  }

  async say(text: string, until: RegExp) {
    const since = this.telegram.calls.length;
    this.telegram.sendText(text, { chatId: this.id, userId: this.id, languageCode: this.languageCode });
    return this.after(since, until);
  }

  /** Taps the button labelled `label` on the bot's latest message that has it. */
  async tap(label: string, until?: RegExp) {
    const since = this.telegram.calls.length;
    this.press(label);
    return until ? this.after(since, until) : undefined;
  }

  press(label: string): void {
    const message = this.telegram
      .visibleMessages(this.id)
      .reverse()
      .find((m) =>
        (m.reply_markup as { inline_keyboard?: Button[][] } | undefined)?.inline_keyboard
          ?.flat()
          .some((b) => b.text.includes(label)),
      );
    const button = (message?.reply_markup as { inline_keyboard: Button[][] } | undefined)?.inline_keyboard
      .flat()
      .find((b) => b.text.includes(label));
    if (!message || !button?.callback_data) throw new Error(`chat ${this.id} shows no button "${label}"`);
    this.telegram.pressButton(button.callback_data, {
      chatId: this.id,
      userId: this.id,
      messageId: Number(message.message_id),
      languageCode: this.languageCode,
    });
  }
}
