/*
 * The money endpoints of the Mini App's contract (contract.ts spreads them into CONTRACT): «Счета»,
 * statements and their files, and the home's three blocks — their shapes and their entries. One
 * contract still: the server parses and types by it, the app reads the types, the tests hold the
 * answers to it.
 */
import { z } from 'zod';
import { INVOICE_STATUSES } from '../core/invoice-search.js';

const int = z.int();
/** A GET's query: every parameter optional text (an endpoint words what it lacks itself). */
const query = <T extends Record<string, z.ZodOptional<z.ZodString>>>(shape: T) => z.object(shape);

/** A provider day as the app filters by it (`YYYY-MM-DD`), and as the user reads it. */
export const day = z.iso.date();

/** A sum in a currency: the number, the currency's code (null when the list lacks it), in words. */
export const money = z.strictObject({
  amount: z.number(),
  currency: z.string().nullable(),
  text: z.string(),
});

/** A payment of an invoice, as the chat's /payments lists it. */
export const paymentEntry = z.strictObject({
  id: int,
  date: day.nullable(),
  dateText: z.string(),
  amount: money,
});

/**
 * An invoice as «Счета» lists it: what the chat's /invoices says of it (number, days, sum, state in
 * the chat's words, core's `invoiceStatus`), its payments, and what the lists tell of its order —
 * the domain, the order's number, the product and whom it was ordered for — where they tell.
 */
export const invoiceEntry = z.strictObject({
  id: int,
  number: z.string(),
  orderId: int,
  created: day.nullable(),
  createdText: z.string(),
  expires: day.nullable(),
  expiresText: z.string(),
  amount: money,
  status: z.enum(INVOICE_STATUSES),
  statusText: z.string(),
  payments: z.array(paymentEntry),
  /** The order's domain (as shown: Unicode), its number, its product in words, its customer. */
  domain: z.string().optional(),
  orderNumber: z.string().optional(),
  what: z.string().optional(),
  customer: z.string().optional(),
});

/** A statement as the chat's /statements lists it; `period` in words. */
export const statementEntry = z.strictObject({
  id: int,
  number: z.string(),
  orderId: int,
  from: day.nullable(),
  to: day.nullable(),
  periodText: z.string(),
  amount: money,
  domain: z.string().optional(),
});

/** A domain of the account whose registration ends within 30 days (or has ended). */
export const expiringDomain = z.strictObject({
  domain: z.string(),
  domainUnicode: z.string(),
  orderId: int,
  expires: day,
  /** «через 5 дней», «сегодня», «истёк 2 дня назад»: the chat's words. */
  whenText: z.string(),
  daysLeft: int,
});

/** A DNS change of the account, as `/dns <domain> history` tells it. */
export const dnsChangeEntry = z.strictObject({
  domain: z.string(),
  domainUnicode: z.string(),
  at: z.iso.datetime(),
  atText: z.string(),
  /** Who made it, in the history's words (a member, a robot's key, the Mini App). */
  by: z.string(),
  /** The change in the chat's words, one line. */
  text: z.string(),
});

/** The money endpoints, by path below `<app path>api/`. */
export const MONEY_ENDPOINTS = {
  /**
   * «Счета»: every invoice of the account with its payments, newest first. Filters (status, period)
   * and the search (core's `searchInvoices`) run in the app, as the partner types.
   */
  'billing/invoices': {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({ invoices: z.array(invoiceEntry) }),
  },
  /** The invoice's public payment link (the chat's /invoice), asked when the partner opens or copies it. */
  'billing/link': {
    method: 'POST',
    request: z.strictObject({ invoiceId: z.int().positive() }),
    answer: z.strictObject({ url: z.string() }),
  },
  /**
   * The invoice's card prepared for this user (`savePreparedInlineMessage`): the card inline mode
   * sends, with its Pay button; the app opens Telegram's chat picker with `shareMessage(id)`.
   */
  'billing/share': {
    method: 'POST',
    request: z.strictObject({ invoiceId: z.int().positive() }),
    answer: z.strictObject({ id: z.string(), expiresAt: z.iso.datetime() }),
  },
  /** The account's statements (the chat's /statements), newest first. */
  'billing/statements': {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({ statements: z.array(statementEntry) }),
  },
  /**
   * A statement's file for `downloadFile`: an address on this server, signed, tied to the user and
   * short-lived (`expiresAt`), and the file's name. The address needs no initData (Telegram's
   * client fetches it); anything but a fresh signature is refused there.
   */
  'billing/statement-file': {
    method: 'POST',
    request: z.strictObject({ statementId: z.int().positive() }),
    answer: z.strictObject({ url: z.string(), fileName: z.string(), expiresAt: z.iso.datetime() }),
  },
  /** The home's first block: what is owed now — the unpaid invoices and a total per currency. */
  'home/owed': {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({
      totals: z.array(z.strictObject({ amount: money, count: int })),
      invoices: z.array(invoiceEntry),
    }),
  },
  /** The home's domains whose registration ends within 30 days, soonest first. */
  'home/expiring': {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({ domains: z.array(expiringDomain) }),
  },
  /** The home's latest DNS changes of the account, newest first. */
  'home/changes': {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({ changes: z.array(dnsChangeEntry) }),
  },
} as const;
