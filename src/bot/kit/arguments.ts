import { escapeHtml } from '../../core/format.js';
import { echoInput } from '../../core/text.js';
import { UserInputError } from '../errors.js';

/** The words after a command (`/invoice 12` → `['12']`); telegraf gives the payload. */
export function commandWords(payload: string | undefined): string[] {
  return (payload ?? '')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
}

/** A positive integer id typed by the user, or a `UserInputError` showing the command's form. */
export function parseId(word: string | undefined, usageKey: string): number {
  if (word === undefined || !/^\d{1,10}$/.test(word) || Number(word) <= 0 || Number(word) > 2_147_483_647) {
    // A word of thousands of characters quoted whole would make a reply Telegram refuses.
    throw new UserInputError('errors:badId', { value: escapeHtml(echoInput(word ?? '')), usageKey });
  }
  return Number(word);
}

/** An optional id: absent → undefined, present → checked like `parseId`. */
export function parseOptionalId(word: string | undefined, usageKey: string): number | undefined {
  return word === undefined ? undefined : parseId(word, usageKey);
}
