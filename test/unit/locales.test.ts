import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MENU_COMMANDS } from '../../src/bot/index.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';

type Lang = 'ru' | 'en';

const LOCALES_DIR = fileURLToPath(new URL('../../locales/', import.meta.url));
const PLURALS: Record<Lang, readonly string[]> = {
  ru: ['one', 'few', 'many', 'other'],
  en: ['one', 'other'],
};

const namespaces = (lang: Lang): string[] =>
  readdirSync(`${LOCALES_DIR}${lang}`)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();

/** Every leaf of a namespace as a dotted path and its value. */
function leaves(lang: Lang, ns: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (node: unknown, prefix: string): void => {
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      for (const [key, value] of Object.entries(node)) walk(value, prefix ? `${prefix}.${key}` : key);
    } else {
      out.set(prefix, node);
    }
  };
  walk(JSON.parse(readFileSync(`${LOCALES_DIR}${lang}/${ns}.json`, 'utf8')), '');
  return out;
}

/** A key without its plural suffix, and the suffix (if it is one of the language's forms). */
function splitPlural(lang: Lang, key: string): { base: string; form: string | undefined } {
  const match = /^(.*)_([a-z]+)$/.exec(key);
  if (match?.[1] !== undefined && match[2] !== undefined && PLURALS[lang].includes(match[2])) {
    return { base: match[1], form: match[2] };
  }
  return { base: key, form: undefined };
}

/** Base key → the texts of its forms (one text for a key without plurals). */
function byBase(lang: Lang, ns: string): Map<string, { forms: Set<string>; texts: string[] }> {
  const out = new Map<string, { forms: Set<string>; texts: string[] }>();
  for (const [key, value] of leaves(lang, ns)) {
    const { base, form } = splitPlural(lang, key);
    const entry = out.get(base) ?? { forms: new Set<string>(), texts: [] };
    entry.forms.add(form ?? '');
    entry.texts.push(String(value));
    out.set(base, entry);
  }
  return out;
}

const placeholders = (texts: readonly string[]): string[] =>
  [
    ...new Set(
      texts.flatMap((text) => [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((m) => m[1] ?? '')),
    ),
  ].sort();

const NAMESPACES = namespaces('ru');
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
/**
 * Maps looked up by a value from outside rather than by a name we chose: command descriptions by
 * the command itself (Telegram spells commands in snake_case), order states by the provider's own
 * state value (PascalCase). Their keys follow that spelling instead of camelCase.
 */
const LOOKUP_MAPS: Record<string, RegExp> = {
  'common:commands': /^[a-z0-9_]{1,32}$/,
  'words:state': /^[A-Za-z][A-Za-z0-9]*$/,
};

describe('locale files', () => {
  it('exist with the same namespaces in both languages', () => {
    expect(NAMESPACES.length).toBeGreaterThan(0);
    expect(namespaces('en')).toEqual(NAMESPACES);
  });

  describe.each(NAMESPACES)('%s', (ns) => {
    const ru = byBase('ru', ns);
    const en = byBase('en', ns);

    it('has the same keys in ru and en (plural forms counted as their base key)', () => {
      expect([...en.keys()].sort()).toEqual([...ru.keys()].sort());
    });

    it('holds only strings, none empty', () => {
      for (const lang of ['ru', 'en'] as const) {
        for (const [key, value] of leaves(lang, ns)) {
          expect(typeof value, `${lang}/${ns}:${key}`).toBe('string');
          expect(String(value).trim(), `${lang}/${ns}:${key}`).not.toBe('');
        }
      }
    });

    it('names keys in camelCase, with `_` only before a plural form', () => {
      for (const lang of ['ru', 'en'] as const) {
        for (const key of leaves(lang, ns).keys()) {
          const { base, form } = splitPlural(lang, key);
          const map = LOOKUP_MAPS[`${ns}:${base.split('.').slice(0, -1).join('.')}`];
          const segments = base.split('.');
          const last = segments.pop() ?? '';
          for (const segment of segments) expect(segment, `${lang}/${ns}:${key}`).toMatch(CAMEL);
          if (map) {
            // Never a plural form by accident: `foo_other` would be read as the plural of `foo`.
            expect(form, `${lang}/${ns}:${key}`).toBeUndefined();
            expect(last, `${lang}/${ns}:${key}`).toMatch(map);
          } else {
            expect(last, `${lang}/${ns}:${key}`).toMatch(CAMEL);
          }
        }
      }
    });

    it('gives every plural key all the forms of its language, or none', () => {
      for (const [lang, keys] of [
        ['ru', ru],
        ['en', en],
      ] as const) {
        for (const [base, { forms }] of keys) {
          const expected = forms.has('') && forms.size === 1 ? [''] : [...PLURALS[lang]].sort();
          expect([...forms].sort(), `${lang}/${ns}:${base}`).toEqual(expected);
        }
      }
    });

    it('uses the same {{placeholders}} in both languages', () => {
      for (const [base, { texts }] of ru) {
        expect(placeholders(en.get(base)?.texts ?? []), `${ns}:${base}`).toEqual(placeholders(texts));
      }
    });
  });

  it('keeps a description under common:commands for exactly the menu commands', () => {
    for (const lang of ['ru', 'en'] as const) {
      const commands = [...leaves(lang, 'common').keys()]
        .filter((key) => key.startsWith('commands.'))
        .map((key) => key.slice('commands.'.length))
        .sort();
      expect(commands, lang).toEqual([...MENU_COMMANDS].sort());
    }
  });
});

describe('loadTranslations', () => {
  const translations = loadTranslations();

  it.each(['ru', 'en'] as const)('describes every menu command in %s within Telegram limits', (lang) => {
    for (const command of MENU_COMMANDS) {
      const key = `common:commands.${command}`;
      expect(translations.has(lang, key), `${lang} ${key}`).toBe(true);
      const description = translations.t(lang, key);
      expect(description, `${lang} ${key}`).not.toBe(key);
      expect(description.length, `${lang} ${key}`).toBeGreaterThanOrEqual(3);
      expect(description.length, `${lang} ${key}`).toBeLessThanOrEqual(256);
      expect(command).toMatch(/^[a-z0-9_]{1,32}$/);
    }
  });

  it('gives different texts in the two languages', () => {
    const ru = MENU_COMMANDS.map((command) => translations.t('ru', `common:commands.${command}`));
    const en = MENU_COMMANDS.map((command) => translations.t('en', `common:commands.${command}`));
    expect(ru).not.toEqual(en);
    expect(ru.some((text) => /[а-яё]/i.test(text))).toBe(true);
  });

  it('picks the plural form by count, by the rules of each language', () => {
    const pluralKeys = NAMESPACES.flatMap((ns) =>
      [...byBase('ru', ns)].filter(([, { forms }]) => forms.has('one')).map(([base]) => `${ns}:${base}`),
    );
    expect(pluralKeys.length).toBeGreaterThan(0);
    const expected: Record<Lang, [number, string][]> = {
      ru: [
        [1, 'one'],
        [21, 'one'],
        [2, 'few'],
        [4, 'few'],
        [22, 'few'],
        [0, 'many'],
        [5, 'many'],
        [11, 'many'],
        [12, 'many'],
        [25, 'many'],
      ],
      en: [
        [1, 'one'],
        [0, 'other'],
        [2, 'other'],
        [21, 'other'],
      ],
    };
    for (const key of pluralKeys) {
      for (const lang of ['ru', 'en'] as const) {
        for (const [count, form] of expected[lang]) {
          const text = translations.t(lang, key, { count });
          expect(text, `${lang} ${key} ${count}`).toBe(translations.t(lang, `${key}_${form}`, { count }));
          expect(text, `${lang} ${key} ${count}`).not.toBe(key);
        }
      }
    }
  });
});
