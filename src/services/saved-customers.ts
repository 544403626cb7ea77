/*
 * An account's saved customers (profiles, kept sealed per chat: the private chat's own, or a bound
 * group's), as the Mini App's customer screen reads and writes them. A customer saved again keeps
 * the WHOIS answers an earlier order stored with it (the chat's `rememberWhois`), as long as it is
 * still a customer of the same type; what the form answered anew wins.
 */
import { randomBytes } from 'node:crypto';
import { type FieldAnswer, readSavedCustomer, type SavedCustomer } from '../core/customer-answers.js';
import { type CustomerChoice, savedCustomerOf } from '../core/customer-form.js';
import type { ChatProfiles } from '../storage/chat-data/profiles.js';

/** One saved customer: its id, its label, and its answers (undefined when they no longer read). */
export interface SavedCustomerEntry {
  id: string;
  label: string;
  customer: SavedCustomer | undefined;
}

/** A profile's id: 8 hex digits, as the chat's own (4 random bytes). */
const newId = () => randomBytes(4).toString('hex');

export function createSavedCustomers(store: ChatProfiles) {
  const entryOf = (profile: { id: string; label: string; data: unknown }): SavedCustomerEntry => ({
    id: profile.id,
    label: profile.label,
    customer: readSavedCustomer(profile.data),
  });
  const find = async (chatId: number, id: string) =>
    (await store.getProfiles(chatId)).find((profile) => profile.id === id);

  return {
    /** The account's saved customers, in saving order. */
    async list(chatId: number): Promise<SavedCustomerEntry[]> {
      return (await store.getProfiles(chatId)).map(entryOf);
    },

    /** One saved customer; undefined when there is none by that id. */
    async find(chatId: number, id: string): Promise<SavedCustomerEntry | undefined> {
      const profile = await find(chatId, id);
      return profile === undefined ? undefined : entryOf(profile);
    },

    /**
     * Saves a checked form as a customer: a new one (a fresh id) without `id`, else the one of that
     * id, replaced in place with the WHOIS answers it kept. `label` is the face's (its unnamed word).
     */
    async save(
      chatId: number,
      form: { id?: string | undefined; choice: CustomerChoice; answers: Record<string, FieldAnswer> },
      labelOf: (data: SavedCustomer) => string,
    ): Promise<{ id: string; label: string }> {
      const before = form.id === undefined ? undefined : await find(chatId, form.id);
      const kept = before === undefined ? {} : (readSavedCustomer(before.data) ?? {});
      const data = savedCustomerOf(form.choice, form.answers, kept);
      const saved = { id: form.id ?? newId(), label: labelOf(data), data };
      await store.saveProfile(chatId, saved);
      return { id: saved.id, label: saved.label };
    },

    /** Whether there was a customer of that id to delete. */
    async remove(chatId: number, id: string): Promise<boolean> {
      return store.deleteProfile(chatId, id);
    },
  };
}

/** The account's saved customers (main builds it over ChatData). */
export type SavedCustomers = ReturnType<typeof createSavedCustomers>;
