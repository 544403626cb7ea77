/**
 * A named domain, order or invoice that the account in use does not have may belong to another
 * account of the chat (docs/accounts.md): commands act on the active account, with that one
 * exception. The chat's other accounts are asked in their order; the first that has it is the
 * one the rest of the update acts on (`ctx.actOnAccount`), and the partner is told which.
 */
import type { PartnerApi } from '../../api/index.js';
import type { BotContext } from '../context.js';
import { UserInputError } from '../errors.js';

/**
 * Runs `find` on the account in use; when it finds nothing (undefined, or a `UserInputError`
 * that says so), on each other account of the chat. Where it is found elsewhere, the update moves
 * to that account and `found` is told (its label, and what was found) before it is returned. Nothing found
 * anywhere: the account in use's own answer (its error) stands.
 */
export async function findInAccounts<T>(
  ctx: BotContext,
  find: (api: PartnerApi) => Promise<T | undefined>,
  found: (ctx: BotContext, label: string, value: T) => Promise<unknown>,
): Promise<T | undefined> {
  let own: { value: T | undefined } | { error: UserInputError };
  try {
    own = { value: await find(await ctx.partnerApi()) };
  } catch (error) {
    if (!(error instanceof UserInputError)) throw error;
    own = { error };
  }
  if ('value' in own && own.value !== undefined) return own.value;
  const home = ctx.account;
  if (home?.many) {
    const start = home.n;
    for (const n of home.numbers) {
      if (n === start) continue;
      ctx.actOnAccount(n);
      try {
        const value = await find(await ctx.partnerApi());
        if (value !== undefined) {
          await found(ctx, await home.label(), value);
          return value;
        }
      } catch {
        // Another account that cannot answer (its token refused, the provider down) is not where
        // it is: the account in use's own answer stands.
      }
    }
    ctx.actOnAccount(start);
  }
  if ('error' in own) throw own.error;
  return undefined;
}

/**
 * Which of the chat's accounts hold each of `names` (ASCII domains) as a domain order: name →
 * the account's label. Empty in a chat of one account (nothing to tell apart). The update stays
 * on its own account.
 */
export async function accountsHoldingDomains(
  ctx: BotContext,
  names: readonly string[],
): Promise<Map<string, string>> {
  const holders = new Map<string, string>();
  const home = ctx.account;
  if (!home?.many || names.length === 0) return holders;
  const start = home.n;
  try {
    for (const n of home.numbers) {
      ctx.actOnAccount(n);
      try {
        const index = await (await ctx.partnerApi()).domainOrderIndex();
        const label = await home.label();
        for (const name of names)
          if (!holders.has(name) && index.byDomain.has(name)) holders.set(name, label);
      } catch {
        // An account that cannot answer holds nothing we can name.
      }
    }
  } finally {
    ctx.actOnAccount(start);
  }
  return holders;
}
