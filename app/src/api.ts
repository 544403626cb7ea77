/*
 * The app's calls to its server (`api/…` next to the page). Every call carries the launch's raw
 * initData as `Authorization: tma <initData>`; the server checks its signature and answers for
 * the account and role the launch names. What the browser reads as unsafe init data is never sent.
 */

/** `GET api/session`: who the server takes the launch for. */
export interface Session {
  account: { kind: 'private' | 'group'; chatId: number; role: string };
  dns: 'edit' | 'none';
}

/** One record of `GET api/zone`. */
export interface ZoneRecord {
  id: number;
  type: string;
  ttl: number;
  value: string;
  record: { host?: string } | null;
  line: string | null;
}

export interface Zone {
  domain: string;
  domainUnicode: string;
  orderId: number;
  records: ZoneRecord[];
}

/** A refusal or failure, with the server's own words (in the user's language) when it gave them. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function createApi(initData: string, lang: string) {
  const call = async <T>(path: string): Promise<T> => {
    // Relative to the page: the app lives under the operator's path (MINI_APP_URL).
    const response = await fetch(new URL(path, document.baseURI), {
      headers: { Authorization: `tma ${initData}`, 'Accept-Language': lang },
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const refusal = (body ?? {}) as { error?: unknown; message?: unknown };
      throw new ApiCallError(
        response.status,
        typeof refusal.error === 'string' ? refusal.error : 'http',
        typeof refusal.message === 'string' ? refusal.message : `HTTP ${response.status}`,
      );
    }
    return body as T;
  };
  return {
    session: () => call<Session>('api/session'),
    zone: (domain: string) => call<Zone>(`api/zone?domain=${encodeURIComponent(domain)}`),
  };
}

export type AppApi = ReturnType<typeof createApi>;
