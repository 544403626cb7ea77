/*
 * lego's `httpreq` protocol, which acme.sh's `dns_acmeproxy` speaks too: `POST <endpoint>/present`
 * and `POST <endpoint>/cleanup`, HTTP Basic with a certificate key, JSON `{fqdn, value}`. The
 * endpoint is `https://<bot>/httpreq` (lego: HTTPREQ_ENDPOINT, acme.sh: ACMEPROXY_ENDPOINT).
 *
 * Answers (docs/automation.md): 200 with the request's `{fqdn, value}` echoed — lego takes any
 * status below 400 and reads no body, acme.sh looks for the quoted value in the body, so the
 * value appears in no refusal; 401 a wrong or revoked key (with a Basic challenge); 403 a name
 * outside the key's domain, a source outside its networks, or its account's token gone or
 * refused; 400 not `{fqdn, value}` JSON, or not a DNS-01 value; 409 the name holds
 * KEY_LIMITS.challengeValues values, a record other than TXT, or is in a subdomain delegated
 * to other name servers; 429 abuse; 502 the provider
 * failed; 504 the value was added but the name servers did not serve it within the wait (a
 * retry adds nothing and waits again; the value is swept after an hour if no cleanup comes).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../http-server.js';
import type { ChallengeRefusal } from '../services/robot-challenges.js';
import { basicCredentials, type KeyRefusal, sourceAddress } from './credentials.js';
import type { ProtocolDeps } from './deps.js';
import { readJson, sendJson, stringFields } from './json-io.js';

/**
 * Where the protocol is served: lego and acme.sh append `/present` and `/cleanup` to the endpoint
 * they are given, the gateway's own address (GATEWAY_URL), as the chat's ready setups say.
 */
export const HTTPREQ_PATH = '';

/** A refusal's status and the word in `{"error": …}` (also the metrics' outcome). */
const REFUSALS = {
  badauth: [401, 'unauthorized'],
  network: [403, 'forbidden_network'],
  abuse: [429, 'too_many_requests'],
  scope: [403, 'outside_scope'],
  value: [400, 'bad_value'],
  tooMany: [409, 'too_many_values'],
  occupied: [409, 'name_occupied'],
  delegated: [409, 'name_delegated'],
  notRegistered: [403, 'outside_scope'],
  disconnected: [403, 'account_disconnected'],
  refused: [403, 'account_refused'],
  provider: [502, 'provider_unavailable'],
} as const satisfies Record<KeyRefusal | ChallengeRefusal, readonly [number, string]>;

type Action = 'present' | 'cleanup';

export function httpreqRoutes(deps: ProtocolDeps): HttpRoute[] {
  const { keys, challenges, robotKeys } = deps;

  const refuse = (res: ServerResponse, refusal: KeyRefusal | ChallengeRefusal) => {
    const [status, error] = REFUSALS[refusal];
    deps.countUpdate('httpreq', error);
    sendJson(
      res,
      status,
      { error },
      status === 401 ? { 'www-authenticate': 'Basic realm="partner-bot"' } : {},
    );
  };

  const handle = (action: Action) => async (req: IncomingMessage, res: ServerResponse) => {
    const source = sourceAddress(req, deps.trustedProxies) ?? '';
    const checked = await keys.check(basicCredentials(req.headers.authorization), source, 'certificate');
    if (!checked.ok) {
      req.resume();
      return refuse(res, checked.refusal);
    }
    const { key } = checked;
    const body = stringFields(await readJson(req), ['fqdn', 'value'] as const);
    if (!body) {
      deps.countUpdate('httpreq', 'bad_request');
      return sendJson(res, 400, { error: 'bad_request' });
    }
    const result =
      action === 'present'
        ? await challenges.present(key, body.fqdn, body.value)
        : await challenges.cleanup(key, body.fqdn, body.value);
    if (!result.ok) return refuse(res, result.refusal);
    await robotKeys
      .noteUse(key.id, {
        at: new Date().toISOString(),
        from: source,
        action,
        detail: body.fqdn.replace(/\.$/, ''),
      })
      .catch(() => undefined);
    if ('served' in result && !result.served) {
      deps.countUpdate('httpreq', 'not_served');
      return sendJson(res, 504, { error: 'not_served_yet' });
    }
    deps.countUpdate('httpreq', action === 'present' ? 'presented' : 'cleaned');
    sendJson(res, 200, { fqdn: body.fqdn, value: body.value });
  };

  return [
    { method: 'POST', path: `${HTTPREQ_PATH}/present`, handle: handle('present') },
    { method: 'POST', path: `${HTTPREQ_PATH}/cleanup`, handle: handle('cleanup') },
  ];
}
