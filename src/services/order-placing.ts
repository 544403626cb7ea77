/*
 * The Mini App's order form, confirmed: the order built from the form's choices and a saved
 * customer (order-building.ts: the same request blocks as the chat's, through the same kinds
 * table) and sent by the same exactly-once submit (order-submit.ts). The form has no session:
 * its once-only key and the orders listed before the call are kept with the account's chat
 * (`chatData.putAppOrder`), so a key sent again, or left half-done by a killed process, is
 * answered or settled, never sent twice. While a key is being sent it is claimed in storage
 * (`OnceKeys`: lowdb, or Redis shared by every instance), so two taps reaching two instances at
 * once send it once. The chat the account belongs to gets the invoice link (a port the bot
 * implements).
 */
import type { PartnerApi } from '../api/index.js';
import { readSavedCustomer } from '../core/customer-answers.js';
import { orderMatches } from '../core/order-marks.js';
import type { ProductKind } from '../core/product-kinds.js';
import type { Role } from '../core/team.js';
import { errorForLog, type Logger } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import { createLowdbOnceKeys, type OnceKeys } from '../storage/once-keys.js';
import { runOnce } from './once-only.js';
import {
  type AppOrder,
  type BuildRefusal,
  type BuiltOrder,
  buildOrder,
  type OrderedWhat,
} from './order-building.js';
import { ORDER_CALLS } from './order-kinds.js';
import {
  type CreatedInvoice,
  type CreatedInvoiceNotes,
  type CreatedOrder,
  findCreatedOrder,
  findNewOrder,
  followCreatedOrder,
  type OrderSubmission,
  submitOrderOnce,
} from './order-submit.js';

/** Who confirmed it, for which account, with its once-only key. */
export interface PlaceOrder {
  api: PartnerApi;
  chatId: number;
  /** The chat's account ordered for: its key, its invoice watch, its report's heading. */
  account: number;
  who: { id: number; name: string };
  role: Role;
  key: string;
  order: AppOrder;
}

/** What the chat is told of an order placed in the app. */
export interface OrderReport {
  chatId: number;
  /** That chat's account the order was placed on (the report is headed with it where it has several). */
  account: number;
  who: { id: number; name: string };
  role: Role;
  kind: ProductKind;
  /** The domain the order names (ASCII), if any. */
  domain: string | undefined;
  /** The tariff's name and the term. */
  what: OrderedWhat;
  orderId: number | undefined;
  invoiceId: number | undefined;
  invoice: CreatedInvoice;
}

/** Sends the invoice link to the account's chat (the bot implements it; main hands it over). */
export interface OrderReportPort {
  reportOrder(report: OrderReport): Promise<void>;
}

/** How a confirmed order ended. */
export type PlaceOutcome =
  | {
      kind: 'created';
      orderId: number | undefined;
      invoiceId: number | undefined;
      invoiceNumber: string | undefined;
      /** The order's number as the provider shows it (`orderNumberOf`), when it could be read. */
      orderNumber: string | undefined;
      /** The key was confirmed before: nothing was sent now. */
      again: boolean;
    }
  /** The provider refused (or nothing could be sent): nothing was created. */
  | { kind: 'refused'; error: unknown }
  /** The choices and the customer make no order (nothing was sent). */
  | BuildRefusal
  /** The same key is being sent right now. */
  | { kind: 'submitting' }
  /** No answer; `notFound`: no new order either (nothing was made); `failed`: could not look. */
  | { kind: 'unknown'; lookup: 'notFound' | 'failed' };

export interface OrderPlacingDeps {
  chatData: Pick<
    ChatData,
    | 'getProfiles'
    | 'getAccount'
    | 'getAppOrder'
    | 'putAppOrder'
    | 'forgetAppOrder'
    | 'rememberOrderDomain'
    | 'setLastCurrencyId'
  >;
  watches: CreatedInvoiceNotes | undefined;
  report: OrderReportPort | undefined;
  logger: Logger;
  /** Where a key is claimed while it is sent (storage's); this process's memory when not given. */
  onceKeys?: OnceKeys;
  /** How long a second confirm of a key being sent waits for it before it is told `submitting`. */
  waitMs?: number;
}

export interface OrderPlacing {
  place(input: PlaceOrder): Promise<PlaceOutcome>;
}

export function createOrderPlacing(deps: OrderPlacingDeps): OrderPlacing {
  const onceKeys = deps.onceKeys ?? createLowdbOnceKeys();

  async function reportCreated(input: PlaceOrder, built: BuiltOrder, created: CreatedOrder) {
    const { api, chatId, account } = input;
    await deps.chatData.putAppOrder(chatId, {
      key: input.key,
      account,
      kind: input.order.kind,
      mark: built.mark,
      status: 'created',
      orderId: created.order_id,
      invoiceId: created.invoice_id,
    });
    deps.logger.info(
      { chatId, orderId: created.order_id, kind: input.order.kind },
      'order created in the app',
    );
    // The provider's lists omit the domain of a hosting or SSL order: the bot remembers what it sent.
    if (built.domain !== undefined && created.order_id !== undefined && input.order.kind !== 'domain')
      await deps.chatData.rememberOrderDomain(chatId, created.order_id, built.domain);
    await deps.chatData.setLastCurrencyId(chatId, input.order.currencyId);
    const invoice = await followCreatedOrder(
      api,
      {
        watches: deps.watches,
        token: (await deps.chatData.getAccount(chatId, account))?.token,
        logger: deps.logger,
      },
      created,
      { chatId },
    );
    await deps.report
      ?.reportOrder({
        chatId,
        account,
        who: input.who,
        role: input.role,
        kind: input.order.kind,
        domain: built.domain,
        what: built.what,
        orderId: created.order_id,
        invoiceId: created.invoice_id,
        invoice,
      })
      .catch((error: unknown) => {
        // The order stands; the app still shows it. The chat's message is what failed.
        deps.logger.warn({ chatId, err: errorForLog(error) }, 'could not report an order to the chat');
      });
    return {
      kind: 'created' as const,
      orderId: created.order_id,
      invoiceId: created.invoice_id,
      invoiceNumber: invoice.invoice?.invoice_number,
      orderNumber: invoice.order?.number,
      again: false,
    };
  }

  async function placeOnce(input: PlaceOrder): Promise<PlaceOutcome> {
    const { api, chatId, key, account } = input;
    const stored = await deps.chatData.getAppOrder(chatId, key, account);
    if (stored?.status === 'created') {
      const [[invoice], order] = await Promise.all([
        stored.invoiceId === undefined
          ? []
          : api.listInvoices({ invoice_id: stored.invoiceId }).catch(() => []),
        findCreatedOrder(api, stored.orderId),
      ]);
      return {
        kind: 'created',
        orderId: stored.orderId,
        invoiceId: stored.invoiceId,
        invoiceNumber: invoice?.invoice_number,
        orderNumber: order?.number,
        again: true,
      };
    }
    const profile = (await deps.chatData.getProfiles(chatId)).find((p) => p.id === input.order.customerId);
    const made = await buildOrder(api, profile ? readSavedCustomer(profile.data) : undefined, input.order);
    if ('refusal' in made) return made.refusal;
    const { built } = made;
    const submission: OrderSubmission = {
      listOrders: () => ORDER_CALLS[input.order.kind].listOrders(api, {}),
      create: () => built.create(api),
      matches: (order) => orderMatches(built.mark, order),
    };
    if (stored?.status === 'submitting') {
      // A process died with this key's create call out: the order may exist.
      const found = await findNewOrder(submission, api, stored.knownOrderIds).catch(() => 'failed' as const);
      if (found === 'failed') return { kind: 'unknown', lookup: 'failed' };
      if (found) return reportCreated(input, built, found);
    }
    const outcome = await submitOrderOnce(
      submission,
      api,
      {
        beforeCreate: (known) =>
          deps.chatData.putAppOrder(chatId, {
            key,
            account,
            kind: input.order.kind,
            mark: built.mark,
            status: 'submitting',
            knownOrderIds: known,
          }),
        logFields: { chatId },
      },
      deps.logger,
    );
    switch (outcome.kind) {
      case 'created':
        return reportCreated(input, built, outcome.created);
      case 'refused':
        await deps.chatData.forgetAppOrder(chatId, key, account);
        return outcome;
      case 'unknown':
        // Not found: nothing was made, and the form may be confirmed again. A failed lookup keeps
        // the key: the next confirm looks again before sending anything.
        if (outcome.lookup === 'notFound') await deps.chatData.forgetAppOrder(chatId, key, account);
        return outcome;
    }
  }

  return {
    async place(input) {
      // The claim is the in-flight guard only: the outcome is the key's record with the chat
      // (`putAppOrder`), so a second confirm that waited runs `placeOnce` and is answered from it.
      const once = await runOnce(
        onceKeys,
        `order:${input.chatId}:${input.account}:${input.key}`,
        async () => ({ value: await placeOnce(input), keep: false }),
        deps.waitMs === undefined ? {} : { waitMs: deps.waitMs },
      );
      return once.kind === 'busy' ? { kind: 'submitting' } : once.value;
    },
  };
}
