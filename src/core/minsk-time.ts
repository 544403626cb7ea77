import { providerDateToMinutes } from './format.js';

/*
 * Minsk time for what the bot tells on its own: "today" and "tomorrow" are Minsk days (UTC+3, no
 * DST), quiet hours are hours on a Minsk clock, and the provider's `DD.MM.YYYY` dates are days.
 */

const MINSK_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The Minsk calendar day of an instant, as days since 1970-01-01. */
export function minskDay(now: Date): number {
  return Math.floor((now.getTime() + MINSK_OFFSET_MS) / DAY_MS);
}

/** The hour (0-23) on a Minsk clock. */
export function minskHour(now: Date): number {
  return new Date(now.getTime() + MINSK_OFFSET_MS).getUTCHours();
}

/** A provider `DD.MM.YYYY` date as days since 1970-01-01, or undefined. */
export function providerDay(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const minutes = providerDateToMinutes(text);
  return Number.isNaN(minutes) ? undefined : Math.floor(minutes / 1440);
}

/**
 * Whole Minsk days from `now` until a provider date (0 = today, negative = passed), or undefined
 * for a date that does not parse. A message told later than it was found (held by quiet hours)
 * says "tomorrow" or "in 7 days" as of when it is read.
 */
export function daysUntil(date: string, now: Date): number | undefined {
  const day = providerDay(date);
  return day === undefined ? undefined : day - minskDay(now);
}

/** A day number (days since 1970-01-01) as its ISO date, `YYYY-MM-DD`. */
export function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
