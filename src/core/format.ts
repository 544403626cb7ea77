/** Locales the formatting follows; the bot's own languages. */
export type FormatLocale = 'ru' | 'en';

const money = new Map<FormatLocale, Intl.NumberFormat>();

/** `12,50 BYN` (ru) or `12.50 BYN` (en): amounts as the provider gives them, with the code. */
export function formatMoney(amount: number, currencyCode: string | undefined, locale: FormatLocale): string {
  let format = money.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-US', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    money.set(locale, format);
  }
  // ru-RU groups with a narrow no-break space; a plain space reads the same and copies cleanly.
  const number = format.format(amount).replace(/\u202f|\u00a0/g, ' ');
  return currencyCode ? `${number} ${currencyCode}` : number;
}

/** Escapes text for Telegram's HTML parse mode. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Checks a `DD.MM.YYYY` date for existence (31.02 is refused), as the provider writes dates. */
export function isValidDate(text: string): boolean {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (!match) return false;
  const [, d, m, y] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Parses `DD.MM.YYYY HH:MM` or `DD.MM.YYYY` into a sortable number (minutes); NaN if neither. */
export function providerDateToMinutes(text: string): number {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})(?:\s+(\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!match) return Number.NaN;
  const [, d, m, y, hh, mm] = match;
  return Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh ?? 0), Number(mm ?? 0)) / 60_000;
}

const days = new Map<FormatLocale, Intl.DateTimeFormat>();

/**
 * `27 августа 2026 г.` (ru) or `August 27, 2026` (en): a provider's `DD.MM.YYYY` day with the month
 * in words, for a text a client reads (a bare `08.09` is read as 9 August in one country and
 * 8 September in another). Anything that is not such a date comes back as it was.
 */
export function formatProviderDay(text: string, locale: FormatLocale): string {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})(?:\s+\d{2}:\d{2})?$/.exec(text.trim());
  if (!match || !isValidDate(`${match[1]}.${match[2]}.${match[3]}`)) return text;
  let format = days.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-US', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    days.set(locale, format);
  }
  const date = new Date(Date.UTC(Number(match[3]), Number(match[2]) - 1, Number(match[1])));
  return format.format(date).replace(/\u202f|\u00a0/g, ' ');
}

const instants = new Map<FormatLocale, Intl.DateTimeFormat>();

/**
 * An instant (ISO 8601) as `12.05.2026, 14:03` in Minsk time, the provider's, as the partner reads
 * a clock; a text that is no instant comes back escaped.
 */
export function formatInstant(at: string, locale: FormatLocale): string {
  let format = instants.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', {
      timeZone: 'Europe/Minsk',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    instants.set(locale, format);
  }
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? escapeHtml(at) : format.format(date);
}
