import { type ApiFactory, ApiHttpError, type DomainOrder } from '../../../api/index.js';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import { type Account, MAX_ACCOUNTS } from '../../../storage/chat-data/accounts.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { WatchPort } from '../../context.js';
import { rebindOwnerGroups } from '../team/binding.js';

/*
 * Where a token the provider just accepted goes in a chat of several accounts (docs/accounts.md):
 *   - a token the chat already holds: nothing is stored, the partner is told which account it is
 *     (its watch resumes, as re-sending a token always did);
 *   - no account yet: the chat's first account;
 *   - the same partner as the active account (both tokens list the same non-empty set of order
 *     ids): the active account's token is replaced (a token renewed in the panel); so it is when
 *     the provider refuses the active account's token (revoked: nothing else can be compared, and
 *     a dead account next to the new one would help nobody);
 *   - else a new account, which becomes the active one; the 11th is refused.
 * The provider is asked little: the check itself lists the domain orders (the new account's name
 * is the domain of its first one); only when there is an active account to compare with, both
 * tokens list their orders once.
 */

/** What connecting a token did. */
export type PlacedToken =
  | { kind: 'first'; account: Account }
  | { kind: 'known'; account: Account }
  | { kind: 'replaced' | 'revived'; account: Account; movedGroups: number }
  | { kind: 'added'; account: Account }
  | { kind: 'full' };

export interface PlaceTokenDeps {
  chatData: ChatData;
  apiFor: ApiFactory;
  logger: Logger;
  watches?: WatchPort | undefined;
}

/** How the bot names a partner: the domain of its first domain order (the lowest id), if any. */
export function partnerNameOf(domainOrders: readonly DomainOrder[]): string | undefined {
  const named = domainOrders
    .filter((order) => typeof order.advanced?.domain === 'string' && order.advanced.domain !== '')
    .sort((a, b) => a.order_id - b.order_id);
  return named[0]?.advanced?.domain ?? undefined;
}

/** The ids of a token's orders; `rejected` when the provider refuses the token; undefined when it did not answer. */
async function orderIds(
  deps: PlaceTokenDeps,
  token: string,
  chatId: number,
): Promise<Set<number> | 'rejected' | undefined> {
  try {
    return new Set((await deps.apiFor.uncached(token).listOrders()).map((order) => order.order_id));
  } catch (error) {
    if (error instanceof ApiHttpError && error.isAuthError) return 'rejected';
    deps.logger.info({ chatId, err: errorForLog(error) }, 'orders not listed for the same-partner check');
    return undefined;
  }
}

/**
 * Whether a new token is the same partner as the active one: the same non-empty set of order
 * ids (`same`); `revoked` when the provider no longer takes the active one's token (a partner
 * sending a new token after revoking the old one); else `other`.
 */
async function comparePartners(
  deps: PlaceTokenDeps,
  chatId: number,
  active: string,
  token: string,
): Promise<'same' | 'revoked' | 'other'> {
  const [left, right] = await Promise.all([orderIds(deps, active, chatId), orderIds(deps, token, chatId)]);
  if (left === 'rejected') return 'revoked';
  if (left === undefined || right === undefined || right === 'rejected') return 'other';
  if (left.size === 0 || left.size !== right.size) return 'other';
  return [...left].every((id) => right.has(id)) ? 'same' : 'other';
}

/**
 * Stores a token the provider accepted (`domainOrders`: what the check listed with it) in a
 * private chat, as an account or in place of the active one's token, and starts watching it.
 */
export async function placeToken(
  deps: PlaceTokenDeps,
  chatId: number,
  token: string,
  domainOrders: readonly DomainOrder[],
): Promise<PlacedToken> {
  const { chatData } = deps;
  const partner = partnerNameOf(domainOrders);
  const known = await chatData.findAccountByToken(chatId, token);
  if (known !== undefined) {
    if (known.partner === undefined && partner !== undefined)
      await chatData.setPartnerName(chatId, known.n, partner);
    // Sent again after the provider refused it for a while: its watch resumes.
    await deps.watches?.connect(chatId, token);
    return { kind: 'known', account: { ...known, partner: known.partner ?? partner } };
  }
  const accounts = await chatData.listAccounts(chatId);
  const active = accounts.find((account) => account.active);
  const compared = active === undefined ? 'other' : await comparePartners(deps, chatId, active.token, token);
  if (active !== undefined && compared !== 'other') {
    // The same partner (a token renewed in the panel), or a token the provider refuses now: the new
    // one replaces it, and the groups bound with it move with it.
    chatData.useAccount(chatId, active.n);
    await chatData.setToken(chatId, token, active.partner === undefined ? partner : undefined);
    await deps.watches?.disconnect(chatId, active.token);
    await deps.watches?.connect(chatId, token);
    const moved = await rebindOwnerGroups(deps, chatId, active.token, token);
    const account = (await chatData.getAccount(chatId, active.n)) ?? { ...active, token };
    return { kind: compared === 'same' ? 'replaced' : 'revived', account, movedGroups: moved.length };
  }
  if (accounts.length >= MAX_ACCOUNTS) return { kind: 'full' };
  const added = await chatData.addAccount(chatId, token, partner);
  if (!added.ok) {
    if (added.reason === 'full') return { kind: 'full' };
    const account = await chatData.getAccount(chatId, added.n);
    return account === undefined ? { kind: 'full' } : { kind: 'known', account };
  }
  // The update goes on with the new account (the screens after it, their buttons).
  chatData.useAccount(chatId, added.n);
  await deps.watches?.connect(chatId, token);
  const account = (await chatData.getAccount(chatId, added.n)) ?? {
    n: added.n,
    token,
    partner,
    active: true,
  };
  return { kind: accounts.length === 0 ? 'first' : 'added', account };
}
