import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  formatMoney,
  formatProviderDay,
  isValidDate,
  providerDateToMinutes,
} from '../../src/core/format.js';
import { MESSAGE_LIMIT, paginate } from '../../src/core/paging.js';

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
/** A date as the provider writes it, read in UTC. */
const providerDate = (date: Date, withTime: boolean): string => {
  const day = `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${pad(date.getUTCFullYear(), 4)}`;
  return withTime ? `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}` : day;
};
const dateArb = fc.date({
  min: new Date(Date.UTC(1000, 0, 1)),
  max: new Date(Date.UTC(9999, 11, 31, 23, 59)),
  noInvalidDate: true,
});

describe('formatMoney', () => {
  it('writes ru amounts with a decimal comma and plain spaces between groups', () => {
    expect(formatMoney(1234.5, 'BYN', 'ru')).toBe('1 234,50 BYN');
    expect(formatMoney(1234567.891, 'BYN', 'ru')).toBe('1 234 567,89 BYN');
    expect(formatMoney(12.5, 'USD', 'ru')).toBe('12,50 USD');
    expect(formatMoney(0, 'BYN', 'ru')).toBe('0,00 BYN');
    expect(formatMoney(-1234.5, 'BYN', 'ru')).toBe('-1 234,50 BYN');
  });

  it('writes en amounts with a decimal dot and comma groups', () => {
    expect(formatMoney(1234.5, 'BYN', 'en')).toBe('1,234.50 BYN');
    expect(formatMoney(1234567.891, 'EUR', 'en')).toBe('1,234,567.89 EUR');
    expect(formatMoney(12.5, 'USD', 'en')).toBe('12.50 USD');
    expect(formatMoney(-0.5, 'BYN', 'en')).toBe('-0.50 BYN');
  });

  it('writes the number alone when there is no currency code', () => {
    expect(formatMoney(12.5, undefined, 'ru')).toBe('12,50');
    expect(formatMoney(12.5, undefined, 'en')).toBe('12.50');
    expect(formatMoney(12.5, '', 'en')).toBe('12.50');
  });

  it('gives the same amount, to the cent, in both languages and no non-breaking spaces', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.stringMatching(/^[A-Z]{3}$/),
        (amount, code) => {
          const ru = formatMoney(amount, code, 'ru');
          const en = formatMoney(amount, code, 'en');
          expect(ru).toMatch(/^-?\d{1,3}( \d{3})*,\d{2} [A-Z]{3}$/);
          expect(en).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2} [A-Z]{3}$/);
          expect(ru.endsWith(` ${code}`)).toBe(true);
          const ruNumber = Number(ru.slice(0, -4).replace(/ /g, '').replace(',', '.'));
          const enNumber = Number(en.slice(0, -4).replace(/,/g, ''));
          expect(ruNumber).toBe(enNumber);
          expect(Math.abs(enNumber - amount)).toBeLessThanOrEqual(0.005 + Math.abs(amount) * 1e-15);
        },
      ),
    );
  });
});

describe('escapeHtml', () => {
  it('escapes the three characters Telegram HTML reserves', () => {
    expect(escapeHtml('<b>Tom & Jerry</b>')).toBe('&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;');
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
    expect(escapeHtml('plain text, "quotes" stay')).toBe('plain text, "quotes" stay');
    expect(escapeHtml('')).toBe('');
  });

  it('leaves no tag characters and reads back to the original', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>]/);
        expect(escaped).not.toMatch(/&(?!amp;|lt;|gt;)/);
        const unescaped = escaped.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        expect(unescaped).toBe(text);
      }),
    );
  });
});

describe('isValidDate', () => {
  it('accepts existing dates and refuses impossible ones', () => {
    expect(isValidDate('01.01.2025')).toBe(true);
    expect(isValidDate('31.12.2025')).toBe(true);
    expect(isValidDate('29.02.2024')).toBe(true);
    expect(isValidDate('29.02.2000')).toBe(true);
    expect(isValidDate('29.02.2025')).toBe(false);
    expect(isValidDate('29.02.1900')).toBe(false);
    expect(isValidDate('31.02.2024')).toBe(false);
    expect(isValidDate('31.04.2025')).toBe(false);
    expect(isValidDate('00.01.2025')).toBe(false);
    expect(isValidDate('01.00.2025')).toBe(false);
    expect(isValidDate('01.13.2025')).toBe(false);
    expect(isValidDate('32.01.2025')).toBe(false);
  });

  it('refuses other shapes', () => {
    for (const text of [
      '',
      '1.1.2025',
      '01.1.2025',
      '01.01.25',
      '2025-01-01',
      '01/01/2025',
      '01.01.2025 10:00',
      ' 01.01.2025',
      '01.01.2025 ',
      '01.01.20255',
      'aa.bb.cccc',
    ]) {
      expect(isValidDate(text), text).toBe(false);
    }
  });

  it('agrees with the calendar for every generated day', () => {
    fc.assert(
      fc.property(dateArb, (date) => {
        expect(isValidDate(providerDate(date, false))).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 1000, max: 9999 }),
        (d, m, y) => {
          const exists = m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
          expect(isValidDate(`${pad(d)}.${pad(m)}.${y}`)).toBe(exists);
        },
      ),
    );
  });
});

describe('providerDateToMinutes', () => {
  it('reads a date and time as minutes since the epoch (UTC), and a bare date as midnight', () => {
    expect(providerDateToMinutes('01.01.1970 00:01')).toBe(1);
    expect(providerDateToMinutes('02.01.1970')).toBe(24 * 60);
    expect(providerDateToMinutes('  02.01.1970  ')).toBe(24 * 60);
    expect(providerDateToMinutes('02.01.1970 00:00')).toBe(providerDateToMinutes('02.01.1970'));
  });

  it('returns NaN for anything else', () => {
    for (const text of ['', 'yesterday', '2025-01-01', '1.1.2025', '01.01.2025 1:00', '01.01.2025T10:00']) {
      expect(providerDateToMinutes(text), text).toBeNaN();
    }
  });

  it('orders dates as the calendar does', () => {
    fc.assert(
      fc.property(dateArb, dateArb, fc.boolean(), fc.boolean(), (a, b, timeA, timeB) => {
        const minutes = (date: Date, withTime: boolean): number => {
          const copy = new Date(date);
          if (!withTime) copy.setUTCHours(0, 0, 0, 0);
          return Math.floor(copy.getTime() / 60_000);
        };
        const [textA, textB] = [providerDate(a, timeA), providerDate(b, timeB)];
        expect(providerDateToMinutes(textA)).toBe(minutes(a, timeA));
        expect(Math.sign(providerDateToMinutes(textA) - providerDateToMinutes(textB))).toBe(
          Math.sign(minutes(a, timeA) - minutes(b, timeB)),
        );
      }),
    );
  });

  it('sorts a list of provider dates chronologically', () => {
    const dates = ['02.01.2025', '01.01.2025 23:59', '31.12.2024 10:00', '01.02.2025', '01.01.2025 00:01'];
    const sorted = [...dates].sort((x, y) => providerDateToMinutes(x) - providerDateToMinutes(y));
    expect(sorted).toEqual([
      '31.12.2024 10:00',
      '01.01.2025 00:01',
      '01.01.2025 23:59',
      '02.01.2025',
      '01.02.2025',
    ]);
  });
});

describe('paginate', () => {
  const cut = (item: string, maxChars: number): string =>
    item.length > maxChars ? `${item.slice(0, maxChars - 1)}…` : item;
  const pageSize = (page: readonly string[]): number => page.reduce((sum, item) => sum + item.length + 2, 0);

  it('returns no pages for no items', () => {
    expect(paginate([], { perPage: 10, maxChars: MESSAGE_LIMIT })).toEqual([]);
  });

  it('splits by count and by size', () => {
    expect(paginate(['a', 'b', 'c', 'd', 'e'], { perPage: 2, maxChars: 100 })).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ]);
    // 'aaaa' costs 6, so two fit in 12 and a third starts a new page.
    expect(paginate(['aaaa', 'bbbb', 'cccc'], { perPage: 10, maxChars: 12 })).toEqual([
      ['aaaa', 'bbbb'],
      ['cccc'],
    ]);
  });

  it('cuts an item longer than a page with an ellipsis, on a page of its own', () => {
    expect(paginate(['short', 'x'.repeat(20), 'tail'], { perPage: 10, maxChars: 10 })).toEqual([
      ['short'],
      [`${'x'.repeat(9)}…`],
      ['tail'],
    ]);
  });

  it('keeps the items in order, within the count and size limits, filling each page', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 60 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 120 }),
        (items, perPage, maxChars) => {
          const pages = paginate(items, { perPage, maxChars });
          expect(pages.flat()).toEqual(items.map((item) => cut(item, maxChars)));
          for (const [index, page] of pages.entries()) {
            expect(page.length).toBeGreaterThan(0);
            expect(page.length).toBeLessThanOrEqual(perPage);
            if (page.length > 1) expect(pageSize(page)).toBeLessThanOrEqual(maxChars);
            for (const item of page) expect(item.length).toBeLessThanOrEqual(maxChars);
            // A page ends only when the next item would not fit on it.
            const next = pages[index + 1]?.[0];
            if (next !== undefined) {
              expect(page.length === perPage || pageSize(page) + next.length + 2 > maxChars).toBe(true);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('fits the message limit for realistic lists', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 400 }), { maxLength: 200 }), (items) => {
        for (const page of paginate(items, { perPage: 20, maxChars: MESSAGE_LIMIT - 200 })) {
          expect(pageSize(page)).toBeLessThanOrEqual(MESSAGE_LIMIT);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('formatProviderDay', () => {
  it('writes the month in words in the chat’s language', () => {
    expect(formatProviderDay('27.08.2026', 'ru')).toBe('27 августа 2026 г.');
    expect(formatProviderDay('01.03.2026 10:24', 'ru')).toBe('1 марта 2026 г.');
    expect(formatProviderDay('27.08.2026', 'en')).toBe('August 27, 2026');
  });

  it('gives back what is not a real DD.MM.YYYY day as it came', () => {
    expect(formatProviderDay('31.02.2026', 'ru')).toBe('31.02.2026');
    expect(formatProviderDay('2026-08-27', 'en')).toBe('2026-08-27');
    expect(formatProviderDay('', 'ru')).toBe('');
  });
});
