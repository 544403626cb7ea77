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

/**
 * The instant of a Minsk-time `DD.MM.YYYY HH:MM` string (a real date and time), or undefined when
 * the text is not in that form.
 */
export function parseDateTime(text: string): Date | undefined {
  const match = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})$/.exec(text);
  if (!match || dayKey(text) === undefined) return undefined;
  const [day, month, year, hours, minutes] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return new Date(Date.UTC(year, month - 1, day, hours, minutes) - MINSK_OFFSET_MS);
}

/** The sandbox's now (`DD.MM.YYYY HH:MM`, Minsk time) as an instant, for the bot's watchers. */
export function sandboxInstant(text: string): Date {
  return parseDateTime(text) ?? new Date();
}

/**
 * `DD.MM.YYYY` `count` months (or years) after a `DD.MM.YYYY` date; a day the target month does
 * not have becomes that month's last day (31.01 + 1 month = 28.02 or 29.02).
 */
export function addCalendarPeriod(text: string, count: number, unit: 'month' | 'year'): string {
  const [day = 1, month = 1, year = 1970] = text.slice(0, 10).split('.').map(Number);
  const months = year * 12 + (month - 1) + (unit === 'year' ? count * 12 : count);
  const targetYear = Math.floor(months / 12);
  const targetMonth = months % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return `${pad(Math.min(day, lastDay))}.${pad(targetMonth + 1)}.${pad(targetYear, 4)}`;
}
