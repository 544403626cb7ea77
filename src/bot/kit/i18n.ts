import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type i18n, type Resource, type ResourceLanguage, type TOptions } from 'i18next';
import type { Locale } from '../../storage/chat-store.js';

export const LOCALES: readonly Locale[] = ['ru', 'en'];

/** `locales/` at the project root, from both `src/bot/kit` and `dist/bot/kit`. */
const LOCALES_DIR = fileURLToPath(new URL('../../../locales', import.meta.url));

/** Translates a namespaced key (`billing:invoicesTitle`) in one language. */
export type Translate = (key: string, options?: TOptions) => string;

/** The bot's translations: every namespace of `locales/<lng>/*.json`, loaded once. */
export interface Translations {
  t(locale: Locale, key: string, options?: TOptions): string;
  /** A translate function bound to one language. */
  forLocale(locale: Locale): Translate;
  /** Whether a key exists in the language (tests use it to compare the two). */
  has(locale: Locale, key: string): boolean;
}

/** Reads every locale file; throws when one is missing or not JSON, at start, not mid-update. */
export function loadTranslations(dir: string = LOCALES_DIR): Translations {
  const resources: Resource = {};
  const namespaces = new Set<string>();
  for (const locale of LOCALES) {
    const language: ResourceLanguage = {};
    for (const file of readdirSync(join(dir, locale)).filter((f) => f.endsWith('.json'))) {
      const ns = file.slice(0, -'.json'.length);
      namespaces.add(ns);
      language[ns] = JSON.parse(readFileSync(join(dir, locale, file), 'utf8'));
    }
    resources[locale] = language;
  }
  const instance: i18n = i18next.createInstance();
  void instance.init({
    resources,
    lng: 'ru',
    fallbackLng: 'ru',
    ns: [...namespaces],
    defaultNS: 'common',
    // Views escape what they interpolate into HTML; i18next must not escape twice.
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  const fixed = new Map(LOCALES.map((locale) => [locale, instance.getFixedT(locale)] as const));
  // A key asked without options always reads the same (its `$t(...)` nesting resolved once): it is
  // kept per locale, so the help and every fixed line cost a map look-up, not i18next's regexes.
  const resolved = new Map(LOCALES.map((locale) => [locale, new Map<string, string>()] as const));
  const translate = (locale: Locale, key: string, options?: TOptions): string => {
    const t = fixed.get(locale) ?? instance.t;
    if (options !== undefined) return t(key, options) as string;
    const cache = resolved.get(locale);
    const hit = cache?.get(key);
    if (hit !== undefined) return hit;
    const text = t(key, {}) as string;
    cache?.set(key, text);
    return text;
  };
  return {
    t: translate,
    forLocale: (locale) => (key, options) => translate(locale, key, options),
    has: (locale, key) => instance.exists(key, { lng: locale, fallbackLng: false }),
  };
}

/** The chat's first language: Telegram's `language_code` when the bot speaks it. */
export function pickLocale(languageCode: string | undefined, fallback: Locale): Locale {
  const base = languageCode?.toLowerCase().split('-')[0];
  return LOCALES.find((l) => l === base) ?? fallback;
}
