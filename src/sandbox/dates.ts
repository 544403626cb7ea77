/**
 * Date helpers of the sandbox. The provider is Belarusian, so "now" is rendered in Minsk time
 * (UTC+3 all year round since 2011), whatever the machine's time zone is.
 */

const MINSK_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function minsk(date: Date): Date {
  return new Date(date.getTime() + MINSK_OFFSET_MS);
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `DD.MM.YYYY` of the given instant in Minsk time. */
export function formatDate(date: Date): string {
  const d = minsk(date);
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCFullYear(), 4)}`;
}

/** `DD.MM.YYYY HH:MM` of the given instant in Minsk time. */
export function formatDateTime(date: Date): string {
  const d = minsk(date);
  return `${formatDate(date)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The instant `days` days after `date`. */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/**
 * A sortable day key (`YYYYMMDD` as a number) of a `DD.MM.YYYY` string, or of the date part of a
 * `DD.MM.YYYY HH:MM` string. Undefined when the text is not a real calendar date in that form.
 */
export function dayKey(text: string): number | undefined {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})(?: (\d{2}):(\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = Number(match[3]);
  if (match[4] !== undefined && (Number(match[4]) > 23 || Number(match[5]) > 59)) return undefined;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return undefined;
  }
  return year * 10_000 + month * 100 + day;
}

/** True when the text is a real calendar date written `DD.MM.YYYY`. */
export function isDate(text: string): boolean {
  return !text.includes(' ') && dayKey(text) !== undefined;
}
