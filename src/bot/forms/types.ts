import { z } from 'zod';
import type { PartnerApi } from '../../api/index.js';
import type { ProductKind } from '../../core/product-kinds.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { BotContext } from '../context.js';

/** The one scene every guided form runs in (the engine's). */
export const ORDER_SCENE = 'order';

/** Guided forms that end in another action than an order: a saved customer, a DNS record. */
export const FORM_KINDS = ['profile', 'dnsAdd', 'dnsChange', 'keyNew'] as const;
/** One of the forms that order nothing. */
export type FormKind = (typeof FORM_KINDS)[number];

/** What the engine runs: an order of a product kind (`features/ordering/kinds.ts`) or a form. */
export type FlowKind = ProductKind | FormKind;

/** Sections of the summary's Edit menu; each step belongs to one. */
export type Section =
  | 'product'
  | 'period'
  | 'subject'
  | 'currency'
  | 'customer'
  | 'whois'
  | 'contacts'
  | 'recordType'
  | 'record'
  /** A robot's key: what it may change, then its name and networks. */
  | 'keyScope'
  | 'keyDetails'
  /** Given by where the form started (the DNS add's domain): never asked, never offered to edit. */
  | 'given';

/**
 * Version of the stored draft's shape. A draft stored by a bot with another version (steps or
 * answers shaped differently) is dropped with a message, never read as this version.
 */
export const DRAFT_VERSION = 2;

const FLOW_KINDS = ['domain', 'hosting', 'mail', 'ssl', ...FORM_KINDS] as const satisfies readonly FlowKind[];

/**
 * A guided order in progress, kept in the scene state (so in the session, which survives a
 * restart). Answers are keyed by step id; `previous` keeps the values an Edit or Back took away,
 * offered again as "Keep".
 */
const orderDraft = z.object({
  version: z.literal(DRAFT_VERSION),
  kind: z.enum(FLOW_KINDS),
  /**
   * The draft's own id, made once at the start. A step's side effect is keyed by it (the customer
   * profile "Сохранить? Да" saves has this id), so a step repeated after a kill repeats nothing.
   */
  id: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
  answers: z.record(z.string(), z.unknown()),
  previous: z.record(z.string(), z.unknown()),
  /** The step being asked. */
  current: z.string().optional(),
  /** Grows with every screen; buttons carry it, so a button of an older screen is stale. */
  screen: z.int(),
  /** Values behind the option buttons of the current screen. */
  options: z.array(z.unknown()),
  status: z.enum(['editing', 'submitting', 'done']),
  /** Single-use token of the Confirm button of the summary shown last. */
  nonce: z.string().optional(),
  /**
   * Order ids of this kind that existed before submitting: a timeout looks for a new one. Stored
   * before the create call, so a draft left 'submitting' without them never reached the provider.
   */
  knownOrderIds: z.array(z.int()).optional(),
  /**
   * Set while screen `screen` is stored but its message is not yet known to be sent. A kill in
   * between leaves it set: the partner may still be looking at the screen before, so a typed
   * answer is not trusted and the screen is shown again.
   */
  unsent: z.boolean().optional(),
  /** Message id of the last screen sent (the last part of a long summary); 0 when ephemeral. */
  messageId: z.int().optional(),
  /** In a group, the ephemeral id of the last screen when only the member was sent it. */
  ephemeralId: z.int().optional(),
  /**
   * A requisites card pasted where the customer is asked, between reading it (the step's answer is
   * the customer type it describes) and filling its fields once that answer is filed.
   */
  pastedCard: z.string().max(20_000).optional(),
  /**
   * An order of a team group filled in a member's private chat (`features/team/orders.ts`): the
   * group's chat id (its token and saved customers are used; the member's seat is checked on every
   * update) and the forum topic the order was asked for in, where it is announced.
   */
  team: z.object({ chat: z.int(), thread: z.int().optional() }).optional(),
});

/** A guided form in progress, as the scene state holds it (see `orderDraft`). */
export type OrderDraft = z.output<typeof orderDraft>;

/**
 * What a scene state holds for the order scene: this version's draft (the same object, so the
 * engine's changes land in the session), `'outdated'` for a draft of another version, or
 * `undefined` when it is no draft at all.
 */
export function readDraft(state: object): OrderDraft | 'outdated' | undefined {
  if (isDraft(state)) return state;
  return 'answers' in state || 'kind' in state || 'version' in state ? 'outdated' : undefined;
}

function isDraft(state: object): state is OrderDraft {
  return orderDraft.safeParse(state).success;
}

/** Where a step's question and answers come from. */
export interface StepEnv {
  ctx: BotContext;
  draft: OrderDraft;
  /** The partner API of `account`. */
  api: PartnerApi;
  chatData: ChatData;
  /**
   * The chat whose token, saved customers and last currency the form uses: the chat it is filled
   * in, or the team group a member orders for from their private chat (`draft.team`).
   */
  account: number;
}

/** One option button of a question. */
export interface Option<T = unknown> {
  label: string;
  value: T;
}

/** The question a step puts: HTML text, option buttons, and whether it may be skipped. */
export interface Question<T = unknown> {
  text: string;
  options?: Option<T>[];
  /** Options per keyboard row (default 2). */
  perRow?: number;
  skippable?: boolean;
}

/**
 * One step of a guided order, answering a `T`. A step is answered by an option button, typed text
 * or a file; a wrong answer throws `UserInputError` and the step is asked again. Every answer —
 * a button's value, a parsed text, an automatic or kept one, the stored one (the draft is JSON in
 * the session) — goes through `read` before the step or a flow sees it, so they get a `T` or
 * nothing. A step that may be skipped has `null` in its `T`: Skip answers `null`.
 *
 * The engine holds the steps of a flow as `Step[]` (answers of different types side by side);
 * what keeps that honest is that it hands `afterAnswer` and `describe` only what `read` returned.
 */
export interface Step<T = unknown> {
  id: string;
  section: Section;
  /** The answer as a `T`, or `undefined` when it is not one (unanswered, or of another shape). */
  read(value: unknown): T | undefined;
  /** When it returns a value, the step is answered without asking (e.g. the only currency). */
  auto?(env: StepEnv): Promise<T | undefined>;
  ask(env: StepEnv): Promise<Question<T>>;
  /** Reads a typed answer; absent → only buttons answer this step. */
  parseText?(env: StepEnv, text: string): Promise<T>;
  /** Reads a sent file (e.g. a CSR); absent → files are refused. */
  parseFile?(env: StepEnv, content: string, fileName: string): Promise<T>;
  /** Runs once the step is answered (e.g. a chosen profile fills the customer steps). */
  afterAnswer?(env: StepEnv, value: T): Promise<void>;
  /** Ids of answers that no longer hold when this answer changes. */
  invalidates?: (draft: OrderDraft) => string[];
  /** How the answer reads in the summary; omitted from the summary when absent. */
  describe?(env: StepEnv, value: T): string | undefined;
  /** The answer itself as plain text, for the Keep button (else read from `describe`). */
  keepText?(env: StepEnv, value: T): string | undefined;
}

/** A step's answer in the draft, as its type (`undefined` when unanswered or skipped). */
export function answerOf<T>(
  draft: OrderDraft,
  step: { id: string; read(value: unknown): T | undefined },
): T | undefined {
  return step.read(draft.answers[step.id]);
}

/** Readers for `Step.read`. */
export const readNumber = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : undefined;
export const readString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
export const readBoolean = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined;

/** The reader of a step that may be skipped: `null` (Skip) is an answer too. */
export const orSkipped =
  <T>(read: (value: unknown) => T | undefined) =>
  (value: unknown): T | null | undefined =>
    value === null ? null : read(value);

/** What a kind of order contributes: its steps (given the answers so far) and its request. */
export interface OrderFlow {
  kind: FlowKind;
  /** i18n keys of the summary's Confirm button and of the message on Cancel. */
  confirmKey?: string;
  cancelKey?: string;
  /**
   * i18n keys of the toast on Confirm (default "sending the order") and of the words after /help
   * mid-form (the form is still open, and how to leave it).
   */
  submittingKey?: string;
  midFlowKey?: string;
  steps(draft: OrderDraft): Step[];
  /** The summary's heading lines (product, price). */
  summaryHead(env: StepEnv): Promise<string[]>;
  /** Sends the order; `undefined` for a profile (saved instead). */
  submit?(env: StepEnv): Promise<{
    order_id?: number | undefined;
    invoice_id?: number | undefined;
    invoice_url?: string | undefined;
  }>;
  /** Lists this kind's orders (to find an order after a timeout). */
  listOrders?(api: PartnerApi): Promise<
    {
      order_id: number;
      advanced?: { domain?: string | undefined; tariff_id?: number | undefined } | undefined;
    }[]
  >;
  /** Whether a listed order is the one this draft would create. */
  matches?(
    draft: OrderDraft,
    order: { advanced?: { domain?: string | undefined; tariff_id?: number | undefined } | undefined },
  ): boolean;
  /** The last action of a form that orders nothing (runs once, after Confirm). */
  finish?(env: StepEnv): Promise<void>;
}

/**
 * A product's form: its steps, and the API request `Req` its answers make. The registry
 * (`features/ordering/kinds.ts`) pairs it with the kind's create call, so `Req` is checked by `tsc` against
 * the API's request type: a renamed field fails the build, not the partner's order.
 */
export interface ProductForm<Req> extends Omit<OrderFlow, 'submit' | 'listOrders' | 'finish'> {
  request(env: StepEnv): Promise<Req>;
}
