/*
 * The app's words, in the launch language (Telegram's `language_code`): ru, else en. A small
 * table of its own: the bot's locale files are i18next namespaces for the chat, and the app must
 * not carry i18next for a few dozen strings. The server's own texts (refusals, the plan's lines,
 * Apply's report) come in the same language and are shown as they are.
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
    ttlField: 'TTL',
    actions: 'Действия',
    noRecords: 'В зоне нет записей.',
    readOnly: 'Только просмотр: ваша роль не позволяет менять записи.',
    noDnsRole: 'Ваша роль не позволяет смотреть DNS.',
    notInTelegram: 'Откройте приложение из Telegram: кнопкой бота или ссылкой t.me.',
    failed: 'Не удалось загрузить',
    noAnswer: 'сервер не отвечает, проверьте связь',
    badAnswer: 'сервер ответил ошибкой',
    filterType: 'Фильтр по типу',
    allTypes: 'Все типы',
    filterHost: 'Фильтр по хосту',
    nothingFound: 'Под фильтр ничего не подходит.',
    unreadable: 'Бот не читает эту запись',
    changed: 'изменено',
    toDelete: 'будет удалена',
    added: 'новая',
    remove: 'Удалить',
    restore: 'Вернуть',
    drop: 'Убрать',
    badTtl: 'TTL — целое число секунд.',
    badHost: 'Нужен хост: @ или имя.',
    addTitle: 'Новая запись',
    add: 'Добавить запись',
    pasteTitle: 'Вставить зону',
    pasteLabel: 'BIND-файл или строки из чата, по одной в строке',
    paste: 'Вставить',
    pasted: 'Добавлено записей',
    pastedChanged: 'Изменено записей',
    skipped: 'Пропущены строки',
    line: 'Строка',
    planTitle: 'Изменения',
    planning: 'Считаю изменения…',
    planFailed: 'Не удалось посчитать изменения',
    ops: { add: 'Добавить', change: 'Изменить', delete: 'Удалить' },
    hasProblems: 'Исправьте отмеченные строки: пока в них ошибки, применить нельзя.',
    apply: 'Применить',
    applying: 'Применяю…',
    forceQuestion: 'Правка удалит большую часть записей зоны. Применить всё равно?',
    discardQuestion: 'Изменения не применены. Отменить их?',
    discard: 'Отменить изменения',
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
    ttlField: 'TTL',
    actions: 'Actions',
    noRecords: 'The zone has no records.',
    readOnly: 'View only: your role does not allow changing records.',
    noDnsRole: 'Your role does not allow viewing DNS.',
    notInTelegram: 'Open the app from Telegram: with the bot’s button or a t.me link.',
    failed: 'Could not load',
    noAnswer: 'the server does not answer, check the connection',
    badAnswer: 'the server answered with an error',
    filterType: 'Filter by type',
    allTypes: 'All types',
    filterHost: 'Filter by host',
    nothingFound: 'Nothing matches the filter.',
    unreadable: 'The bot cannot read it',
    changed: 'changed',
    toDelete: 'to be deleted',
    added: 'new',
    remove: 'Delete',
    restore: 'Restore',
    drop: 'Remove',
    badTtl: 'TTL is a whole number of seconds.',
    badHost: 'A host is needed: @ or a name.',
    addTitle: 'New record',
    add: 'Add record',
    pasteTitle: 'Paste a zone',
    pasteLabel: 'A BIND file or the chat’s lines, one per line',
    paste: 'Paste',
    pasted: 'Records added',
    pastedChanged: 'Records changed',
    skipped: 'Lines skipped',
    line: 'Line',
    planTitle: 'Changes',
    planning: 'Working out the changes…',
    planFailed: 'Could not work out the changes',
    ops: { add: 'Add', change: 'Change', delete: 'Delete' },
    hasProblems: 'Fix the marked rows: while they have errors, nothing can be applied.',
    apply: 'Apply',
    applying: 'Applying…',
    forceQuestion: 'This deletes most of the zone’s records. Apply anyway?',
    discardQuestion: 'The changes are not applied. Discard them?',
    discard: 'Discard changes',
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
