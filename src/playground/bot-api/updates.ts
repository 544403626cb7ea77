/**
 * The methods of how updates reach the bot: setWebhook (a secret token of unallowed characters and
 * a URL that is not http(s) refused; a waiting getUpdates ends with 409), deleteWebhook,
 * getWebhookInfo, and logOut and close, which only say yes here. getUpdates over HTTP is the long
 * poll (long-poll.ts); the POSTs to a webhook are webhook-delivery.ts.
 */
import { badRequest } from './failures.js';
import type { BotApiState } from './state.js';
import { type Json, stringOrUndefined, toInteger } from './wire.js';

/**
 * getUpdates in a webhook's reply, where no connection is held open: an empty batch. Over HTTP
 * the long poll answers it, never this.
 */
export function getUpdatesInReply(): unknown[] {
  return [];
}

export function setWebhook(state: BotApiState, p: Json): true {
  const updates = state.updates;
  const url = typeof p.url === 'string' ? p.url : '';
  const secretToken = stringOrUndefined(p.secret_token);
  if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken)) {
    throw badRequest('secret token contains unallowed characters');
  }
  if (p.drop_pending_updates === true) updates.dropPending();
  if (Array.isArray(p.allowed_updates)) updates.allowedUpdates = p.allowed_updates.map(String);
  if (url === '') {
    updates.webhook = undefined;
    return true;
  }
  if (!/^https?:\/\//i.test(url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
  updates.transport.endPoll('Conflict: terminated by setWebhook request');
  updates.webhook = {
    url,
    secretToken,
    maxConnections: toInteger(p.max_connections) ?? 40,
    ipAddress: stringOrUndefined(p.ip_address),
    lastErrorDate: undefined,
    lastErrorMessage: undefined,
  };
  updates.transport.deliver();
  return true;
}

export function deleteWebhook(state: BotApiState, p: Json): true {
  state.updates.webhook = undefined;
  if (p.drop_pending_updates === true) state.updates.dropPending();
  return true;
}

export function getWebhookInfo(state: BotApiState): Json {
  const { webhook: hook, queued, allowedUpdates } = state.updates;
  const info: Json = {
    url: hook?.url ?? '',
    has_custom_certificate: false,
    pending_update_count: queued.length,
  };
  if (!hook) return info;
  info.max_connections = hook.maxConnections;
  if (hook.ipAddress !== undefined) info.ip_address = hook.ipAddress;
  if (hook.lastErrorDate !== undefined) info.last_error_date = hook.lastErrorDate;
  if (hook.lastErrorMessage !== undefined) info.last_error_message = hook.lastErrorMessage;
  if (allowedUpdates.length > 0) info.allowed_updates = [...allowedUpdates];
  return info;
}

export function logOut(): true {
  return true;
}

/** Telegram's `close` (closing the bot instance before a move), not the server's. */
export function closeInstance(): true {
  return true;
}
