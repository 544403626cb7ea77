/*
 * The app's calls to its server (`api/…` next to the page). Every call carries the launch's raw
 * initData as `Authorization: tma <initData>`; the server checks its signature and answers for
 * the account and role the launch names. What the browser reads as unsafe init data is never sent.
 */
import type { Applied, Edit, Pasted, Plan, Problem, Row } from './contract.js';
import {
  type Answers,
  type CustomerEntry,
  type CustomerForm,
  type CustomerType,
  type FieldProblem,
  isFieldProblem,
  type PastedCustomer,
  type Saved,
  type SavedCustomer,
  type Whois,
} from './customer-contract.js';
import type { Words } from './words.js';

/** `GET api/session`: who the server takes the launch for, and what it may do with DNS. */
export interface Session {
  user: { id: number; firstName: string };
  /** `roleName`: the role in the user's language, the chat's own word for it. */
  account: { kind: 'private' | 'group'; chatId: number; role: string; roleName: string };
  capabilities: string[];
  dns: 'edit' | 'read' | 'none';
  /** With `dns: 'read'`: the server's words on which roles may edit. */
  readOnlyReason?: string;
  authDate: string | number;
  /** The screen a group's button opened (its signed start parameter); a private button's is in the address. */
  screen?: 'dns' | 'order' | 'customers';
  /** Saved customers: the chat's /requisites; `none` comes with the server's words on who may. */
  customers?: 'edit' | 'none';
  customersRefusal?: string;
  /** With `customers: 'none'`: the server's words on who may place orders (the same capability). */
  orderRefusal?: string;
}

/** One record of `GET api/zone`; `row` is null for a record the bot cannot read (not editable). */
export interface ZoneRecord {
  id: number;
  type: string;
  ttl: number;
  value: string;
  record: { host?: string } | null;
  line: string | null;
  row: Row | null;
}

export interface Zone {
  domain: string;
  domainUnicode: string;
  orderId: number;
  records: ZoneRecord[];
}

/**
 * A refusal or failure: the HTTP status (0: no answer), the server's code, and its words (in the
 * user's language) when it gave them, else ''. `problems` come with a 400 `badEdits` (by edit),
 * `fieldProblems` with a 400 `badFields` (by a customer's field).
 */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly problems: Problem[] = [],
    readonly fieldProblems: FieldProblem[] = [],
    /** The whole refusal as the server sent it (what a screen reads besides its words). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A failure in the user's words: the server's when it gave them, never a code or a stack. */
export function failureText(words: Words, error: unknown): string {
  if (error instanceof ApiCallError && error.message !== '') return error.message;
  return error instanceof ApiCallError && error.status === 0 ? words.noAnswer : words.badAnswer;
}

export function createApi(initData: string, lang: string) {
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { Authorization: `tma ${initData}`, 'Accept-Language': lang };
    const init: RequestInit = { headers };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.method = 'POST';
      init.body = JSON.stringify(body);
    }
    let response: Response;
    try {
      // Relative to the page: the app lives under the operator's path (MINI_APP_URL).
      response = await fetch(new URL(path, document.baseURI), init);
    } catch {
      throw new ApiCallError(0, 'network', '');
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const refusal = (answer ?? {}) as { error?: unknown; message?: unknown; problems?: unknown };
      const problems: unknown[] = Array.isArray(refusal.problems) ? refusal.problems : [];
      throw new ApiCallError(
        response.status,
        typeof refusal.error === 'string' ? refusal.error : 'http',
        typeof refusal.message === 'string' ? refusal.message : '',
        problems.filter(
          (p): p is Problem => typeof p === 'object' && p !== null && typeof (p as Problem).edit === 'number',
        ),
        problems.filter(isFieldProblem),
        typeof answer === 'object' && answer !== null ? { ...answer } : {},
      );
    }
    return answer as T;
  };
  return {
    /** A call of another screen's endpoint (`api/…`): a GET, or a POST of `body`. */
    request: call,
    session: () => call<Session>('api/session'),
    zone: (domain: string) => call<Zone>(`api/zone?domain=${encodeURIComponent(domain)}`),
    plan: (domain: string, edits: Edit[]) => call<Plan>('api/zone/plan', { domain, edits }),
    paste: (domain: string, text: string) => call<Pasted>('api/zone/paste', { domain, text }),
    apply: (domain: string, edits: Edit[], key: string, force: boolean) =>
      call<Applied>('api/zone/apply', force ? { domain, edits, force, key } : { domain, edits, key }),
    customers: () => call<{ customers: CustomerEntry[] }>('api/customers'),
    customer: (id: string) => call<SavedCustomer>(`api/customer?id=${encodeURIComponent(id)}`),
    customerForm: (body: {
      type: CustomerType;
      postalSame: boolean;
      bankWanted: boolean;
      whois?: Whois;
      answers?: Answers;
    }) => call<CustomerForm>('api/customer/form', body),
    customerCheck: (body: { type: CustomerType; answers: Answers; whois?: Whois }) =>
      call<{ problems: FieldProblem[] }>('api/customer/check', body),
    customerSave: (body: { id?: string; type: CustomerType; answers: Answers; whois?: Whois }) =>
      call<Saved>('api/customer/save', body),
    customerDelete: (id: string) => call<{ deleted: true }>('api/customer/delete', { id }),
    customerPaste: (text: string) => call<PastedCustomer>('api/customer/paste', { text }),
  };
}

export type AppApi = ReturnType<typeof createApi>;
