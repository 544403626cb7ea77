/*
 * The app's words, in the launch language (Telegram's `language_code`): ru, else en. A small
 * table of its own: the bot's locale files are i18next namespaces for the chat, and the app must
 * not carry i18next for a dozen strings.
 */

export type Lang = 'ru' | 'en';

const WORDS = {
  ru: {
    title: 'DNS-зона',
    pickDomain: 'Домен',
    pickPlaceholder: 'mysite.by',
    show: 'Показать',
    loading: 'Загрузка…',
    role: 'Роль',
    account: 'Аккаунт',
    accountPrivate: 'личный',
    accountGroup: 'группа',
    type: 'Тип',
    host: 'Хост',
    value: 'Значение',
    ttl: 'TTL, с',
    noRecords: 'В зоне нет записей.',
    readOnly:
      'Пока только просмотр: правка записей появится в следующей версии. Менять записи можно в чате: /dns.',
    noDnsRole: 'Ваша роль не позволяет смотреть DNS.',
    notInTelegram: 'Откройте приложение из Telegram: кнопкой бота или ссылкой t.me.',
    failed: 'Не удалось загрузить',
    noAnswer: 'сервер не отвечает, проверьте связь',
    badAnswer: 'сервер ответил ошибкой',
    roles: {
      owner: 'владелец',
      admin: 'админ',
      accountant: 'бухгалтер',
      tech: 'техник',
      viewer: 'наблюдатель',
    },
  },
  en: {
    title: 'DNS zone',
    pickDomain: 'Domain',
    pickPlaceholder: 'mysite.by',
    show: 'Show',
    loading: 'Loading…',
    role: 'Role',
    account: 'Account',
    accountPrivate: 'personal',
    accountGroup: 'group',
    type: 'Type',
    host: 'Host',
    value: 'Value',
    ttl: 'TTL, s',
    noRecords: 'The zone has no records.',
    readOnly:
      'Read-only for now: editing records comes in the next version. You can change records in the chat: /dns.',
    noDnsRole: 'Your role does not allow viewing DNS.',
    notInTelegram: 'Open the app from Telegram: with the bot’s button or a t.me link.',
    failed: 'Could not load',
    noAnswer: 'the server does not answer, check the connection',
    badAnswer: 'the server answered with an error',
    roles: { owner: 'owner', admin: 'admin', accountant: 'accountant', tech: 'tech', viewer: 'viewer' },
  },
} as const;

export type Words = (typeof WORDS)[Lang];

/** The language for a Telegram `language_code` (`ru`, `ru-RU`, `en`, none). */
export function langOf(code: string | undefined): Lang {
  return code?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

export function wordsFor(lang: Lang): Words {
  return WORDS[lang];
}

/** A role's word; a role this version does not know is shown as the server named it. */
export function roleWord(words: Words, role: string): string {
  return Object.hasOwn(words.roles, role) ? words.roles[role as keyof Words['roles']] : role;
}
