/*
 * An order's submit, exactly once, whichever face confirmed it (the chat's Confirm, the Mini App's
 * order form): the kind's order list taken and stored before the one create call, so that a call
 * whose outcome is unknown (a timeout, a dropped connection, a process killed while it was out)
 * is settled by looking for the new order rather than by creating a second one.
 */
import { ApiInterruptedError, ApiNetworkError, ApiTimeoutError, type PartnerApi } from '../api/index.js';
import { errorForLog, type Logger } from '../logger.js';

/** What a create call did, as far as it can be known. */
export interface CreatedOrder {
  order_id?: number | undefined;
  invoice_id?: number | undefined;
  invoice_url?: string | undefined;
}

/** An order as a kind's list gives it: what a new one is recognised by. */
export interface ListedOrder {
  order_id: number;
  advanced?: { domain?: string | undefined; tariff_id?: number | undefined } | undefined;
}

/** One order to submit: its kind's list, its create call, how its order is recognised. */
export interface OrderSubmission {
  listOrders(): Promise<ListedOrder[]>;
  create(): Promise<CreatedOrder>;
  /** Whether a listed order is the one `create` would make (same domain, or same tariff). */
  matches(order: ListedOrder): boolean;
}

/** How a submit ended. */
export type SubmitOutcome =
  | { kind: 'created'; created: CreatedOrder; afterUnknown: boolean }
  /** Nothing was created: the list failed (nothing sent) or the provider refused the order. */
  | { kind: 'refused'; error: unknown }
  /** The call's outcome is unknown and no new order was found (`failed`: the lookup failed too). */
  | { kind: 'unknown'; lookup: 'notFound' | 'failed' };

/** What the face does around the call. */
export interface SubmitHooks {
  /**
   * Stores the ids listed before the call, durably, before it is made: a process killed while
   * the call is out leaves them, and the next one knows an order may exist and which were there.
   */
  beforeCreate(knownOrderIds: number[]): Promise<void>;
  /** Told once the outcome is unknown, before the new order is looked for. */
  outcomeUnknown?(): Promise<void>;
  /** Fields for the log lines (a chat id, never a token). */
  logFields?: Record<string, unknown>;
}

/** Errors after which the create call may have reached the provider. */
export function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof ApiTimeoutError || error instanceof ApiNetworkError;
}

/**
 * Lists, stores the list, creates once. A stopping process (`ApiInterruptedError`) is thrown on:
 * the call may be out, and the stored list lets the next process settle it.
 */
export async function submitOrderOnce(
  submission: OrderSubmission,
  api: Pick<PartnerApi, 'listInvoices'>,
  hooks: SubmitHooks,
  logger: Logger,
): Promise<SubmitOutcome> {
  let known: number[];
  try {
    known = (await submission.listOrders()).map((order) => order.order_id);
  } catch (error) {
    if (error instanceof ApiInterruptedError) throw error;
    // Nothing was sent yet: the user may simply confirm again.
    return { kind: 'refused', error };
  }
  await hooks.beforeCreate(known);
  try {
    return { kind: 'created', created: await submission.create(), afterUnknown: false };
  } catch (error) {
    if (error instanceof ApiInterruptedError) throw error;
    if (!isOutcomeUnknown(error)) {
      logger.info({ ...hooks.logFields, err: errorForLog(error) }, 'order refused');
      return { kind: 'refused', error };
    }
    logger.warn({ ...hooks.logFields, err: errorForLog(error) }, 'order outcome unknown');
  }
  await hooks.outcomeUnknown?.();
  try {
    const found = await findNewOrder(submission, api, known);
    return found
      ? { kind: 'created', created: found, afterUnknown: true }
      : { kind: 'unknown', lookup: 'notFound' };
  } catch (error) {
    if (error instanceof ApiInterruptedError) throw error;
    logger.warn({ ...hooks.logFields, err: errorForLog(error) }, 'order lookup failed');
    return { kind: 'unknown', lookup: 'failed' };
  }
}

/** The new order of this submission (one not among `known`), with its invoice; none when absent. */
export async function findNewOrder(
  submission: Pick<OrderSubmission, 'listOrders' | 'matches'>,
  api: Pick<PartnerApi, 'listInvoices'>,
  known: readonly number[],
): Promise<CreatedOrder | undefined> {
  const before = new Set(known);
  const orders = await submission.listOrders();
  const found = orders.find((order) => !before.has(order.order_id) && submission.matches(order));
  if (!found) return undefined;
  const [invoice] = await api.listInvoices({ order_id: found.order_id });
  return { order_id: found.order_id, invoice_id: invoice?.invoice_id };
}

/** What a created order's report shows: the invoice's link and, when listed, the invoice and the order. */
export interface CreatedInvoice {
  url: string | undefined;
  invoice: { invoice_number: string; state: string } | undefined;
  /** The order as listed: its number (`orderNumberOf`), which the create call does not return. */
  order?: { number: string } | undefined;
}

/** The order's listing (its number), or nothing when it cannot be read: never stops a report. */
export async function findCreatedOrder(
  api: Pick<PartnerApi, 'listOrders'>,
  orderId: number | undefined,
): Promise<{ number: string } | undefined> {
  if (orderId === undefined) return undefined;
  return api.listOrders({ order_id: orderId }).then(
    (orders) => orders.find((o) => o.order_id === orderId),
    () => undefined,
  );
}

/** The one call the watchers offer here: an invoice noted as the bot's own (not "a new invoice"). */
export interface CreatedInvoiceNotes {
  noteCreatedInvoice(token: string, invoiceId: number): Promise<void>;
}

/**
 * After a create: the invoice noted as the bot's own — before anything else, so the next poll
 * already knows it — then its link and its listing (the number the client sees) asked side by
 * side. Neither failing keeps the order from being reported.
 */
export async function followCreatedOrder(
  api: Pick<PartnerApi, 'getInvoiceUrl' | 'listInvoices' | 'listOrders'>,
  notes: { watches: CreatedInvoiceNotes | undefined; token: string | undefined; logger: Logger },
  created: CreatedOrder,
  logFields: Record<string, unknown> = {},
): Promise<CreatedInvoice> {
  const invoiceId = created.invoice_id;
  if (invoiceId !== undefined && notes.watches && notes.token !== undefined) {
    await notes.watches.noteCreatedInvoice(notes.token, invoiceId).catch((error: unknown) => {
      notes.logger.warn({ ...logFields, err: errorForLog(error) }, 'could not note a created invoice');
    });
  }
  // The create call returns neither number: the invoice's and the order's are asked beside the link.
  const [url, invoice, order] = await Promise.all([
    created.invoice_url ||
      (invoiceId === undefined ? undefined : api.getInvoiceUrl(invoiceId).catch(() => undefined)),
    invoiceId === undefined
      ? undefined
      : api.listInvoices({ invoice_id: invoiceId }).then(
          ([found]) => found,
          () => undefined,
        ),
    findCreatedOrder(api, created.order_id),
  ]);
  return { url, invoice, order };
}
