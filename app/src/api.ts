/*
 * The app's calls to its server (`api/…` next to the page). Every call carries the launch's raw
 * initData as `Authorization: tma <initData>`; the server checks its signature and answers for
 * the account and role the launch names. What the browser reads as unsafe init data is never sent.
 * Once the session is known, every call names its partner account (`X-Account`): the session's,
 * or the one chosen in the header's switcher.
 */
import type {
  AccountHeader,
  AnswerOf,
  EditProblem,
  FieldProblem,
  GetEndpoint,
  PostEndpoint,
  Refusal,
  RequestOf,
} from '../../src/mini-app/contract.js';
import type { Words } from './words.js';

/**
 * A refusal or failure: the HTTP status (0: no answer), the server's code, and its words (in the
 * user's language) when it gave them, else ''. `problems` come with a 400 `badEdits` (by edit),
 * `fieldProblems` with a 400 `badFields` (by a customer's field).
 */
export class ApiCallError extends Error {
  readonly problems: EditProblem[];
  readonly fieldProblems: FieldProblem[];
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The whole refusal as the server sent it (what a screen reads besides its words). */
    readonly details: Partial<Refusal> = {},
  ) {
    super(message);
    const problems = details.problems ?? [];
    this.problems = problems.filter((p): p is EditProblem => 'edit' in p);
    this.fieldProblems = problems.filter((p): p is FieldProblem => 'id' in p);
  }
}

/** A failure in the user's words: the server's when it gave them, never a code or a stack. */
export function failureText(words: Words, error: unknown): string {
  if (error instanceof ApiCallError && error.message !== '') return error.message;
  return error instanceof ApiCallError && error.status === 0 ? words.noAnswer : words.badAnswer;
}

/**
 * A body the server sent, as the contract says it answers: the API tests hold every answer to the
 * contract's schemas, strictly, so the app reads it without checking it again (and ships no zod).
 */
const readAnswer = <N extends GetEndpoint | PostEndpoint>(response: Response): Promise<AnswerOf<N>> =>
  response.json();

/** A refusal's body, when it is one (a proxy's page is not). */
const readRefusal = async (response: Response): Promise<Partial<Refusal>> => {
  const body: unknown = await response.json().catch(() => undefined);
  return typeof body === 'object' && body !== null ? body : {};
};

const ACCOUNT: AccountHeader = 'X-Account';

export function createApi(initData: string, lang: string) {
  /** The partner account every call names; none before the session is known (the chat's active one). */
  let account: number | undefined;
  const call = async <N extends GetEndpoint | PostEndpoint>(path: string, body?: unknown) => {
    const headers: Record<string, string> = { Authorization: `tma ${initData}`, 'Accept-Language': lang };
    if (account !== undefined) headers[ACCOUNT] = String(account);
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
    if (!response.ok) {
      const refusal = await readRefusal(response);
      throw new ApiCallError(
        response.status,
        typeof refusal.error === 'string' ? refusal.error : 'http',
        typeof refusal.message === 'string' ? refusal.message : '',
        refusal,
      );
    }
    return readAnswer<N>(response);
  };
  /** `GET api/<name>?<query>`: the parameters given, in the contract's names. */
  const get = <N extends GetEndpoint>(name: N, query: RequestOf<N>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    return call<N>(search === '' ? `api/${name}` : `api/${name}?${search}`);
  };
  /** `POST api/<name>` with the contract's body. */
  const post = <N extends PostEndpoint>(name: N, body: RequestOf<N>) => call<N>(`api/${name}`, body);
  /** From now on every call acts on account `n` (the app's own choice: the chat's active one stays). */
  const useAccount = (n: number) => {
    account = n;
  };
  return { get, post, useAccount };
}

export type AppApi = ReturnType<typeof createApi>;
