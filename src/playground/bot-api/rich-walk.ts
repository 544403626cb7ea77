/**
 * Reading a rich message the server holds: a RichText's plain text (a button's label, as a client
 * shows it) and the buttons the message carries, for a press to find the one pressed.
 */
import { isRecord, type Json } from './wire.js';

/** A RichText's plain text (a button's label, what a search finds). */
export function plainRichText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(plainRichText).join('');
  if (!isRecord(value)) return '';
  if (value.type === 'custom_emoji') return String(value.alternative_text ?? '');
  if (value.type === 'mathematical_expression') return String(value.expression ?? '');
  if (value.type === 'button' && isRecord(value.button)) return plainRichText(value.button.text);
  return plainRichText(value.text);
}

/** The buttons a rich message holds (in button blocks and in its text), for a press to find. */
export function richButtons(richMessage: unknown): Json[] {
  const found: Json[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (isRecord(value)) {
      if (value.type === 'buttons' && Array.isArray(value.buttons)) {
        for (const button of value.buttons) if (isRecord(button)) found.push(button);
      } else if (value.type === 'button' && isRecord(value.button)) {
        found.push(value.button);
      }
      for (const [key, inner] of Object.entries(value))
        if (key !== 'buttons' && key !== 'button') walk(inner);
    }
  };
  walk(richMessage);
  return found;
}
