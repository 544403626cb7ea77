/**
 * The typed view of a chat's stored document that the bot uses. Secrets — the token, profiles
 * and the session (order drafts hold passport numbers, names, addresses) — are sealed here, with
 * the chat id bound, before the document reaches a `ChatStore`, and opened here on the way out.
 *
 * Unreadable secrets: a token, profile list or session that no longer opens (its key was removed
 * from `ENCRYPTION_KEYS`, or the value was damaged) reads as absent — `undefined` / `[]` — and is
 * reported through `onUnreadable`, so the bot asks for a new token instead of crashing and the
 * composition root can log the event. The sealed value is left in place: restoring the key makes
 * it readable again. Only writing a new value replaces it (for the session, the next write of the
 * session, which telegraf makes after every update: a draft that does not open is lost anyway).
 *
 * Each data area lives in `chat-data/` as a small factory over one shared document access
 * (`chat-data/doc-access.ts`); this module composes them into the one `ChatData` the bot is given.
 */
import { type ChatAccounts, createChatAccounts } from './chat-data/accounts.js';
import { type ChatAppOrders, createChatAppOrders } from './chat-data/app-orders.js';
import { type ChatDocAccessOptions, createChatDocAccess } from './chat-data/doc-access.js';
import { type ChatLifecycle, createChatLifecycle } from './chat-data/lifecycle.js';
import { type ChatMarks, createChatMarks } from './chat-data/marks.js';
import { type ChatPreferences, createChatPreferences } from './chat-data/preferences.js';
import { type ChatProfiles, createChatProfiles } from './chat-data/profiles.js';
import { type ChatSessions, createChatSessions } from './chat-data/sessions.js';
import { type ChatSharedCards, createChatSharedCards } from './chat-data/shared-cards.js';
import { type ChatTeams, createChatTeams } from './chat-data/team.js';

export type { Account, AddAccountResult } from './chat-data/accounts.js';
export { MAX_ACCOUNTS } from './chat-data/accounts.js';
export type { AppOrderRecord } from './chat-data/app-orders.js';
export type { SealedField, UnreadableSecret } from './chat-data/doc-access.js';
export type { Profile } from './chat-data/profiles.js';
export type { ChatSessionStore } from './chat-data/sessions.js';
export type { TeamRecord } from './chat-data/team.js';

/** Options of `createChatData`. */
export interface ChatDataOptions extends ChatDocAccessOptions {}

/** What the bot reads and writes per chat: every area's part over the one chat document. */
export interface ChatData
  extends ChatPreferences,
    ChatAccounts,
    ChatProfiles,
    ChatMarks,
    ChatTeams,
    ChatLifecycle,
    ChatSessions,
    ChatSharedCards,
    ChatAppOrders {}

/** Builds the typed layer over a store and a keyring (both built by the caller). */
export function createChatData(options: ChatDataOptions): ChatData {
  // One access for all areas: they share the chat's scope, so a task reads the document once.
  const access = createChatDocAccess(options);
  return {
    ...createChatPreferences(access),
    ...createChatAccounts(access),
    ...createChatProfiles(access),
    ...createChatMarks(access),
    ...createChatTeams(access),
    ...createChatLifecycle(access),
    ...createChatSessions(access),
    ...createChatSharedCards(access),
    ...createChatAppOrders(access),
  };
}
