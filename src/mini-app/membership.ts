/*
 * Whether a recorded member of a bound group is still in it, as Telegram says (`getChatMember`).
 * The chat needs no such check (Telegram delivers only members' messages); the app does, since
 * the team keeps whoever once spoke there. Answers are kept briefly so that an app making a few
 * calls a second costs one Bot API call a minute per member.
 */
import type { MembershipCheck } from './access.js';

/** What `getChatMember` answers, as far as membership goes. */
export interface ChatMemberStatus {
  status: string;
  /** Set for `restricted` members: whether they are in the chat. */
  is_member?: boolean;
}

/** The check over the Bot API's `getChatMember` (main passes `bot.telegram`'s). */
export function createMembershipCheck(
  getChatMember: (chatId: number, userId: number) => Promise<ChatMemberStatus>,
  options: { ttlMs?: number; now?: () => number; onError?: (error: unknown) => void } = {},
): MembershipCheck {
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const kept = new Map<string, { member: boolean; until: number }>();
  return async (chatId, userId) => {
    const key = `${chatId}:${userId}`;
    const hit = kept.get(key);
    if (hit !== undefined && hit.until > now()) return hit.member;
    let member: boolean;
    try {
      const answer = await getChatMember(chatId, userId);
      member =
        answer.status === 'creator' ||
        answer.status === 'administrator' ||
        answer.status === 'member' ||
        (answer.status === 'restricted' && answer.is_member === true);
    } catch (error) {
      // The bot was removed from the group, Telegram does not know the user there, or it did not
      // answer: refused now, and asked again at the next call (a passing outage is not kept).
      options.onError?.(error);
      return false;
    }
    if (kept.size >= 10_000) kept.clear();
    kept.set(key, { member, until: now() + ttlMs });
    return member;
  };
}
