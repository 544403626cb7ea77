/**
 * Saved customer requisites, sealed for the chat as one JSON list. A list that no longer opens
 * reads as `[]` (reported); the next save starts a new one.
 */
import { isPlainObject, toJsonObject } from '../chat-doc.js';
import type { ChatDoc } from '../chat-store.js';
import { type ChatDocAccess, type Opened, toError, withField } from './doc-access.js';

/** A saved set of customer requisites, offered again in later orders. */
export interface Profile {
  id: string;
  label: string;
  /** The requisites themselves; validated by the scene that uses them. */
  data: unknown;
}

/** The saved profiles of a chat. */
export interface ChatProfiles {
  /** Saved profiles in saving order; `[]` when none or when they no longer open. */
  getProfiles(chatId: number): Promise<Profile[]>;
  /** Adds the profile, or replaces the one with the same id in place. */
  saveProfile(chatId: number, profile: Profile): Promise<void>;
  /** Whether a profile with that id was there to delete. */
  deleteProfile(chatId: number, profileId: string): Promise<boolean>;
}

/** The profiles part of `ChatData` over the shared document. */
export function createChatProfiles(access: ChatDocAccess): ChatProfiles {
  function openProfiles(chatId: number, doc: ChatDoc): Opened<Profile[]> {
    if (doc.profiles === undefined) return { ok: true, value: [] };
    try {
      const parsed: unknown = JSON.parse(access.open(doc.profiles, chatId));
      if (!Array.isArray(parsed) || !parsed.every(isProfile)) {
        return { ok: false, error: new TypeError('stored profiles are not a profile list') };
      }
      return { ok: true, value: parsed };
    } catch (error) {
      return { ok: false, error: toError(error) };
    }
  }

  function sealProfiles(chatId: number, profiles: Profile[]): string | undefined {
    return profiles.length === 0 ? undefined : access.seal(JSON.stringify(profiles), chatId);
  }

  return {
    async getProfiles(chatId) {
      const doc = await access.read(chatId);
      if (doc === undefined) return [];
      const opened = openProfiles(chatId, doc);
      if (opened.ok) return opened.value;
      access.report(chatId, 'profiles', opened.error);
      return [];
    },

    async saveProfile(chatId, profile) {
      const copy = toProfile(profile);
      await access.updateReporting(chatId, (doc, meet) => {
        const opened = openProfiles(chatId, doc);
        // Profiles that no longer open are lost to the user already; the new list starts over.
        if (!opened.ok) meet('profiles', opened.error);
        const profiles = opened.ok ? opened.value : [];
        const index = profiles.findIndex((existing) => existing.id === copy.id);
        if (index === -1) profiles.push(copy);
        else profiles[index] = copy;
        return withField(doc, 'profiles', sealProfiles(chatId, profiles));
      });
    },

    async deleteProfile(chatId, profileId) {
      let deleted = false;
      await access.updateReporting(chatId, (doc, meet) => {
        deleted = false;
        const opened = openProfiles(chatId, doc);
        if (!opened.ok) {
          meet('profiles', opened.error);
          return doc;
        }
        const profiles = opened.value.filter((existing) => existing.id !== profileId);
        if (profiles.length === opened.value.length) return doc;
        deleted = true;
        return withField(doc, 'profiles', sealProfiles(chatId, profiles));
      });
      return deleted;
    },
  };
}

function isProfile(value: unknown): value is Profile {
  return isPlainObject(value) && typeof value.id === 'string' && typeof value.label === 'string';
}

/** A JSON copy of the profile, so later mutation by the caller does not reach the store. */
function toProfile(profile: Profile): Profile {
  if (profile.id === '') throw new TypeError('a profile needs a non-empty id');
  const copy = toJsonObject(profile);
  if (copy === undefined || !isProfile(copy)) throw new TypeError('a profile must be plain JSON');
  return copy;
}
