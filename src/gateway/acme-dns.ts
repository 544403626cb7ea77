/*
 * acme-dns's protocol, for cert-manager, lego's `acme-dns` and acme.sh's `dns_acmedns`, at
 * `https://<bot>/acme-dns` (their ACME_DNS_API_BASE / `host` / ACMEDNS_BASE_URL):
 * - `POST /update`, `X-Api-User` the key id and `X-Api-Key` its secret, JSON `{subdomain, txt}`:
 *   the value goes to the key's registered name in the partner's own zone, where the
 *   `_acme-challenge` CNAME points; the latest two values stand (an update replaces the older).
 *   Answers as acme-dns's: 200 `{"txt": …}`; 401 `{"error":"forbidden"}` for a wrong key, a
 *   source outside its networks, or a subdomain not the key's; 400 `{"error":"bad_txt"}` and
 *   `{"error":"malformed_json_payload"}`. Ours beside them: 429 abuse, 403 the account's token
 *   gone or refused, 502 the provider failed, 504 not served by the name servers within the wait.
 * - `POST /register`: registering happens in the chat (/keys makes a certificate key and gives the
 *   account JSON). A client that calls it anyway with a certificate key in the two headers gets
 *   that key's account (201, made if need be); without one, 401 `{"error":"register_in_chat"}`
 *   saying where to get it. acme-dns's anonymous registration is not offered: an account here is
 *   a key someone allowed in the chat.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../http-server.js';
import type { ChallengeRefusal } from '../services/robot-challenges.js';
import { type KeyRefusal, type RobotCredentials, sourceAddress } from './credentials.js';
import type { ProtocolDeps } from './deps.js';
import { readJson, sendJson, stringFields } from './json-io.js';

/** Where the protocol is served: clients append `/update` (and `/register`) to GATEWAY_URL. */
export const ACME_DNS_PATH = '';

const REFUSALS = {
  badauth: [401, 'forbidden'],
  network: [401, 'forbidden'],
  notRegistered: [401, 'forbidden'],
  scope: [401, 'forbidden'],
  abuse: [429, 'too_many_requests'],
  value: [400, 'bad_txt'],
  tooMany: [409, 'too_many_values'],
  occupied: [409, 'name_occupied'],
  delegated: [409, 'name_delegated'],
  disconnected: [403, 'account_disconnected'],
  refused: [403, 'account_refused'],
  provider: [502, 'provider_unavailable'],
} as const satisfies Record<KeyRefusal | ChallengeRefusal, readonly [number, string]>;

/** The two headers acme-dns reads the account from. */
function headerCredentials(req: IncomingMessage): RobotCredentials | undefined {
  const id = req.headers['x-api-user'];
  const secret = req.headers['x-api-key'];
  return typeof id === 'string' && typeof secret === 'string' ? { id, secret } : undefined;
}

export function acmeDnsRoutes(deps: ProtocolDeps): HttpRoute[] {
  const { keys, challenges } = deps;

  const refuse = (res: ServerResponse, refusal: KeyRefusal | ChallengeRefusal, extra: object = {}) => {
    const [status, error] = REFUSALS[refusal];
    deps.countUpdate('acme-dns', error);
    sendJson(res, status, { error, ...extra });
  };

  const checkKey = async (req: IncomingMessage) => {
    const source = sourceAddress(req, deps.trustedProxies) ?? '';
    const credentials = headerCredentials(req);
    return { source, credentials, checked: await keys.check(credentials, source, 'certificate') };
  };

  async function update(req: IncomingMessage, res: ServerResponse) {
    const { source, checked } = await checkKey(req);
    if (!checked.ok) {
      req.resume();
      return refuse(res, checked.refusal);
    }
    const body = stringFields(await readJson(req), ['subdomain', 'txt'] as const);
    if (!body) {
      deps.countUpdate('acme-dns', 'malformed_json_payload');
      return sendJson(res, 400, { error: 'malformed_json_payload' });
    }
    const result = await challenges.updateAcmeDns(checked.key, body.subdomain, body.txt);
    if (!result.ok) return refuse(res, result.refusal);
    await deps.robotKeys
      .noteUse(checked.key.id, { at: new Date().toISOString(), from: source, action: 'update', detail: '' })
      .catch(() => undefined);
    if (!result.served) {
      deps.countUpdate('acme-dns', 'not_served');
      return sendJson(res, 504, { error: 'not_served_yet' });
    }
    deps.countUpdate('acme-dns', 'updated');
    sendJson(res, 200, { txt: body.txt });
  }

  async function register(req: IncomingMessage, res: ServerResponse) {
    req.resume();
    const { credentials, checked } = await checkKey(req);
    if (!checked.ok || !credentials) {
      if (!credentials) {
        deps.countUpdate('acme-dns', 'register_in_chat');
        return sendJson(res, 401, {
          error: 'register_in_chat',
          detail:
            'Accounts are made in the Telegram bot: /keys, a certificate key for the domain, then its acme-dns account.',
        });
      }
      return refuse(res, checked.ok ? 'badauth' : checked.refusal);
    }
    const result = await challenges.registerAcmeDns(checked.key, credentials.secret);
    if (!result.ok) return refuse(res, result.refusal, result.standing ? { standing: result.standing } : {});
    deps.countUpdate('acme-dns', 'registered');
    sendJson(res, 201, result.account);
  }

  return [
    { method: 'POST', path: `${ACME_DNS_PATH}/update`, handle: update },
    { method: 'POST', path: `${ACME_DNS_PATH}/register`, handle: register },
  ];
}
