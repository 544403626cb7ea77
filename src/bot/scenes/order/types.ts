import type { PartnerApi } from '../../../api/index.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';

/**
 * What can be ordered, plus two guided forms that end in another action: `profile` (a customer
 * saved for later) and `dnsAdd` (a DNS record added by buttons).
 */
export type OrderKind = 'domain' | 'hosting' | 'mail' | 'ssl' | 'profile' | 'dnsAdd';

/** Sections of the summary's Edit menu; each step belongs to one. */
export type Section = 'product' | 'period' | 'subject' | 'currency' | 'customer' | 'whois' | 'contacts';

/**
 * A guided order in progress, kept in the scene state (so in the session, which survives a
 * restart). Answers are keyed by step id; `previous` keeps the values an Edit or Back took away,
 * offered again as "Keep".
 */
export interface OrderDraft {
  kind: OrderKind;
  answers: Record<string, unknown>;
  previous: Record<string, unknown>;
  /** The step being asked. */
  current?: string | undefined;
  /** Grows with every screen; buttons carry it, so a button of an older screen is stale. */
  screen: number;
  /** Values behind the option buttons of the current screen. */
  options: unknown[];
  status: 'editing' | 'submitting' | 'done';
  /** Single-use token of the Confirm button of the summary shown last. */
  nonce?: string | undefined;
  /**
   * Order ids of this kind that existed before submitting: a timeout looks for a new one. Stored
   * before the create call, so a draft left 'submitting' without them never reached the provider.
   */
  knownOrderIds?: number[] | undefined;
  /**
   * Set while screen `screen` is stored but its message is not yet known to be sent. A kill in
   * between leaves it set: the partner may still be looking at the screen before, so a typed
   * answer is not trusted and the screen is shown again.
   */
  unsent?: boolean | undefined;
  /** Message id of the last screen sent (the last part of a long summary). */
  messageId?: number | undefined;
}

/** Where a step's question and answers come from. */
export interface StepEnv {
  ctx: BotContext;
  draft: OrderDraft;
  api: PartnerApi;
  chatData: ChatData;
}

/** One option button of a question. */
export interface Option {
  label: string;
  value: unknown;
}

/** The question a step puts: HTML text, option buttons, and whether it may be skipped. */
export interface Question {
  text: string;
  options?: Option[];
  /** Options per keyboard row (default 2). */
  perRow?: number;
  skippable?: boolean;
}

/**
 * One step of a guided order. A step is answered by an option button, typed text or a file;
 * a wrong answer throws `UserInputError` and the step is asked again.
 */
export interface Step {
  id: string;
  section: Section;
  /** When it returns a value, the step is answered without asking (e.g. the only currency). */
  auto?(env: StepEnv): Promise<unknown>;
  ask(env: StepEnv): Promise<Question>;
  /** Reads a typed answer; absent → only buttons answer this step. */
  parseText?(env: StepEnv, text: string): Promise<unknown>;
  /** Reads a sent file (e.g. a CSR); absent → files are refused. */
  parseFile?(env: StepEnv, content: string, fileName: string): Promise<unknown>;
  /** Runs once the step is answered (e.g. a chosen profile fills the customer steps). */
  afterAnswer?(env: StepEnv, value: unknown): Promise<void>;
  /** Ids of answers that no longer hold when this answer changes. */
  invalidates?: (draft: OrderDraft) => string[];
  /** How the answer reads in the summary; omitted from the summary when absent. */
  describe?(env: StepEnv, value: unknown): string | undefined;
}

/** What a kind of order contributes: its steps (given the answers so far) and its request. */
export interface OrderFlow {
  kind: OrderKind;
  /** i18n keys of the summary's Confirm button and of the message on Cancel. */
  confirmKey?: string;
  cancelKey?: string;
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
