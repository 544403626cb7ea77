import { countryCodeOf } from './countries.js';
import {
  BANK_REQUISITES_FIELDS,
  type CustomerType,
  customerFields,
  POSTAL_ADDRESS_FIELDS,
  whoisFields,
} from './requisites.js';
import {
  dateIn,
  digitsIn,
  emailIn,
  ibanIn,
  nameParts,
  normalizeLabel,
  parseAddressLine,
  parseCertificate,
  parsePassport,
  phoneIn,
  swiftIn,
} from './requisites-card-values.js';
import { checkField, type FieldCheck, type FieldSpec, REGISTER_NAMES } from './requisites-fields.js';
import { normalizeTyped } from './text.js';

/*
 * Requisites from one paste: the "label: value" cards companies and people send by e-mail
 * ("УНП: 190123455", "Юридический адрес: 220004, г. Минск, ул. Немига, д. 5, пом. 301",
 * "Паспорт: MP 1234567, выдан …"), in Russian or English. Every value the parser fills is the
 * value checkField returns for that field, so a pasted value is held to the same rules as a
 * typed one; a value it recognises but the check refuses is reported, never filled.
 */

/** The contact fields every order sends, checked like the requisites. */
export const CONTACT_FIELDS: readonly FieldSpec[] = [
  { path: 'phone', kind: 'phone' },
  { path: 'email', kind: 'email' },
];

/** A recognised value the field's check refused. */
export interface RefusedValue {
  path: string;
  check: Extract<FieldCheck, { ok: false }>;
}

/** What a pasted card gave. */
export interface PastedCard {
  /** The customer type the card describes; undefined when it is no card at all. */
  type: CustomerType | undefined;
  /**
   * Checked values by request path (`ucn`, `legal_address.city`, `whois_person_requisites.series`,
   * `phone`, …), as checkField returned them.
   */
  fields: Record<string, string>;
  /** Values that were recognised but refused by their field's check (asked again). */
  refused: RefusedValue[];
}

/** Raw things a card can say, before they are placed in the fields of a customer type. */
type Slot =
  | 'ucn'
  | 'inn'
  | 'kpp'
  | 'innKpp'
  | 'ogrn'
  | 'company'
  | 'companyShort'
  | 'fullName'
  | 'lastName'
  | 'firstName'
  | 'middleName'
  | 'executive'
  | 'post'
  | 'postOfLabel'
  | 'legalAddress'
  | 'postalAddress'
  | 'address'
  | 'bank'
  | 'iban'
  | 'swift'
  | 'citizenship'
  | 'passport'
  | 'series'
  | 'number'
  | 'organization'
  | 'dateOfIssue'
  | 'identityNumber'
  | 'dateOfBirth'
  | 'phone'
  | 'email'
  | 'regCertificate'
  | 'regNumber'
  | 'regOrganization'
  | 'regIssueNumber'
  | 'regDate';

/**
 * Labels, most specific first (the first match wins), matched against the label lowercased, `ё`
 * read as `е`, dots dropped and spaces collapsed.
 */
const LABELS: readonly (readonly [Slot, RegExp])[] = [
  ['regDate', /^(дата (гос(ударственной)? )?регистрации|registration date|date of registration)/],
  [
    'regIssueNumber',
    /^(номер (свидетельства|решения)|№ (свидетельства|решения)|certificate (number|no)|registration certificate (number|no))/,
  ],
  ['regCertificate', /^(свидетельство( о (гос(ударственной)? )?регистрации)?|certificate of registration)$/],
  [
    'regOrganization',
    /^(регистрирующий орган|кем зарегистрирован[оа]?|зарегистрирован[оа]?|орган регистрации|registered by|registration (authority|body)|registering authority)/,
  ],
  ['regNumber', /^(регистрационный номер|рег ?номер|рег ?№|registration (number|no)|reg (number|no))/],
  ['dateOfIssue', /^(дата выдачи|когда выдан[оа]?|date of issue|issue date|issued on|date issued)/],
  ['dateOfBirth', /^(дата рождения|date of birth|birth ?date|dob)/],
  [
    'identityNumber',
    /^(идентификационный номер|личный номер|ид номер|identity number|identification number|personal (id |identification )?(number|no)|id (number|no))/,
  ],
  [
    'organization',
    /^(кем выдан[оа]?|выдан[оа]?|орган,? выдавший|орган выдачи|issued by|issuing (authority|body))/,
  ],
  ['citizenship', /^(гражданство|citizenship|nationality)/],
  ['series', /^(серия( паспорта| документа)?|series|passport series)$/],
  ['number', /^(номер( паспорта| документа)?|№ паспорта|passport (number|no)|document (number|no))$/],
  [
    'passport',
    /^(паспорт|паспортные данные|passport|документ|удостоверение личности|вид на жительство|id card|identity document)/,
  ],
  ['innKpp', /^(инн ?\/ ?кпп|inn ?\/ ?kpp)$/],
  ['ucn', /^(унп|ucn|unp|учетный номер плательщика|payer (account )?number|taxpayer number|tax id)/],
  // `\b` knows only Latin letters, so a Cyrillic «ИНН» would never end a word: the name ends
  // where no letter follows.
  ['inn', /^(инн|inn|tin)(?!\p{L})/u],
  ['kpp', /^(кпп|kpp)(?!\p{L})/u],
  ['ogrn', /^(огрн(ип)?|ogrn(ip)?|psrn)(?!\p{L})/u],
  ['swift', /^(бик|bic|swift|код банка|bank code)/],
  [
    'iban',
    /^(iban|р ?\/ ?с|р ?\/ ?сч|р ?с|расч(етный)? ?сч(ет)?|расчетный счет|текущий счет|счет|account( number| no)?|bank account|current account|settlement account)/,
  ],
  [
    'bank',
    /^(банк|наименование банка|название банка|bank( name)?|в банке|обслуживающий банк|name of (the )?bank)/,
  ],
  [
    'postalAddress',
    /^(почтовый адрес|адрес для (корреспонденции|писем|почты)|postal address|mailing address|correspondence address|post address)/,
  ],
  [
    'legalAddress',
    /^(юридический адрес|юр ?адрес|адрес юридический|место ?нахождени[ея]|legal address|registered (office|address)|juridical address)/,
  ],
  [
    'address',
    /^(адрес( регистрации| проживания| места жительства)?|место жительства|(home |residential )?address)$/,
  ],
  ['companyShort', /^(сокращенное наименование|краткое наименование|short name)/],
  [
    'company',
    /^(полное наименование( организации)?|наименование( организации| предприятия| юридического лица)?|название( организации| компании)?|организация|компания|фирма|company( name)?|organi[sz]ation( name)?|legal name|full (legal )?name of (the )?company|name of (the )?company)$/,
  ],
  ['post', /^(должность( руководителя)?|position|post|job title|title)$/],
  [
    'executive',
    /^(руководитель|директор|генеральный директор|гендиректор|управляющий|председатель( правления)?|ceo|director|general director|managing director|head|executive|chief executive)/,
  ],
  ['lastName', /^(фамилия|last name|surname|family name)$/],
  ['firstName', /^(имя|first name|given name)$/],
  ['middleName', /^(отчество|middle name|patronymic)$/],
  ['fullName', /^(фио|ф и о|фамилия,? имя,? отчество|full name|name|имя полностью)$/],
  [
    'phone',
    /^(телефон|тел|моб(ильный)?|контактный телефон|тел ?\/ ?факс|телефон ?\/ ?факс|phone|tel|telephone|mobile|cell)/,
  ],
  ['email', /^(e-?mail|email|эл(ектронная)? ?почта|электронный адрес|адрес электронной почты|почта|mail)/],
];

/**
 * A register's name with its number after a space or none («UNP 190123455», «унп190123455»): the
 * names a typed answer may start with (REGISTER_NAMES), so a card reads what a form step reads.
 */
const NUMBER_AFTER_NAME = new RegExp(
  `^(${Object.values(REGISTER_NAMES).flat().join('|')})(?!\\p{L})\\s*(\\d.*)$`,
  'iu',
);

/** Labels a value may follow with a space only ("УНП 190123455"). */
const BARE_LABEL =
  /^(унп|инн|кпп|огрнип|огрн|бик|bic|swift|iban|р\/с|р\/сч|тел\.?|телефон|e-?mail|фио|паспорт)\s+(.+)$/i;

/** Forms of ownership a company name starts (or ends) with. */
const LEGAL_FORM =
  /^(ооо|оао|зао|одо|чуп|чтуп|уп|руп|куп|ао|пао|нао|ип|частное|общество|открытое|закрытое|акционерное|унитарное|учреждение|индивидуальный предприниматель)\s|(\s|^)(llc|ltd|inc|gmbh|corp|plc|sp\. z o\.o\.)\.?$/i;

const BUSINESSMAN_NAME = /^(ип|индивидуальный предприниматель)\s+(.+)$/i;

function slotOf(label: string): Slot | undefined {
  const key = normalizeLabel(label);
  if (key === '' || key.length > 60) return undefined;
  return LABELS.find(([, pattern]) => pattern.test(key))?.[0];
}

/** Splits a line into its label and value, or gives the line's value with no label. */
function splitLine(line: string): { label?: string; value: string } {
  const colon = /^([^:：]{1,60}?)\s*[:：]\s*(.*)$/.exec(line);
  if (colon?.[1] !== undefined && colon[2] !== undefined && slotOf(colon[1]))
    return { label: colon[1], value: colon[2] };
  const dash = /^(.{1,60}?)\s+[—–-]\s+(.+)$/.exec(line) ?? /^([^\t]{1,60})\t+(.+)$/.exec(line);
  if (dash?.[1] && dash[2] && slotOf(dash[1])) return { label: dash[1], value: dash[2] };
  const number = NUMBER_AFTER_NAME.exec(line);
  if (number?.[1] && number[2]) return { label: number[1], value: number[2] };
  const bare = BARE_LABEL.exec(line);
  if (bare?.[1] && bare[2]) return { label: bare[1], value: bare[2] };
  if (colon?.[1] !== undefined && colon[2] !== undefined) return { label: colon[1], value: colon[2] };
  return { value: line };
}

/** A line with no label known: a company name, an e-mail, a phone or an IBAN on its own. */
function guessSlot(value: string): Slot | undefined {
  if (LEGAL_FORM.test(value)) return 'company';
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return 'email';
  if (/^\+\d[\d\s()-]{6,20}$/.test(value)) return 'phone';
  if (/^[A-Z]{2}\d{2}[A-Z0-9 ]{11,40}$/i.test(value.trim()) && /\d{6}/.test(value)) return 'iban';
  return undefined;
}

/** How many characters of a paste are read at most (a card is far shorter). */
const MAX_PASTE = 20_000;

/** The raw values a card gives, by slot; the first mention of each wins. */
function readSlots(text: string): Map<Slot, string> {
  const slots = new Map<Slot, string>();
  const put = (slot: Slot, value: string | undefined) => {
    const clean = value?.replace(/[\s,;]+$/, '').trim();
    if (clean && !slots.has(slot)) slots.set(slot, clean);
  };
  for (const rawLine of text.slice(0, MAX_PASTE).split(/\r?\n|\r|\u2028|\u2029/)) {
    const line = normalizeTyped(rawLine).replace(/^(?:[-•*·▪]|\d{1,2}[.)])\s+/, '');
    if (line === '' || line.length > 500) continue;
    const { label, value } = splitLine(line);
    const slot = label === undefined ? guessSlot(value) : slotOf(label);
    if (!slot || value.trim() === '') continue;
    switch (slot) {
      case 'innKpp': {
        const [inn, kpp] = value.split('/');
        put('inn', inn);
        put('kpp', kpp);
        break;
      }
      case 'passport':
        for (const [key, part] of Object.entries(parsePassport(value))) put(key as Slot, part);
        break;
      case 'regCertificate':
        for (const [key, part] of Object.entries(parseCertificate(value))) put(key as Slot, part);
        break;
      case 'executive': {
        // "Директор: Петров Пётр Петрович" — the label names the post.
        const post = normalizeLabel(label ?? '');
        if (
          /^(директор|генеральный директор|гендиректор|управляющий|председатель|ceo|director|general director|managing director)/.test(
            post,
          )
        )
          put(
            'postOfLabel',
            (label ?? '').trim().replace(/^\p{Ll}/u, (c) => c.toUpperCase()),
          );
        // "Руководитель: директор Петров П.П." — a post before the name.
        const withPost =
          /^(директор|генеральный директор|управляющий|председатель|director|ceo)\s+(.+)$/i.exec(value);
        if (withPost?.[1] && withPost[2]) {
          put(
            'postOfLabel',
            withPost[1].replace(/^\p{Ll}/u, (c) => c.toUpperCase()),
          );
          put('executive', withPost[2]);
        } else put('executive', value);
        break;
      }
      case 'bank': {
        // "Банк: ОАО «Беларусбанк», БИК AKBBBY2X"
        const [name] = value.split(/,\s*(?:бик|bic|swift)/i);
        put('bank', name);
        if (/(бик|bic|swift)/i.test(value)) put('swift', swiftIn(value.replace(/^.*?(бик|bic|swift)/i, '')));
        break;
      }
      case 'iban': {
        // "р/с BY15AKBB… в ОАО «Беларусбанк»"
        put('iban', ibanIn(value));
        const bank = /\s(?:в|in)\s+(.+)$/i.exec(value);
        if (bank?.[1]) put('bank', bank[1]);
        break;
      }
      default:
        put(slot, value);
    }
  }
  return slots;
}

function typeOf(slots: Map<Slot, string>): CustomerType | undefined {
  const company = slots.get('company') ?? slots.get('companyShort');
  if (company && BUSINESSMAN_NAME.test(company)) return 'businessman';
  if (company || slots.has('executive') || slots.has('post')) return 'juridical';
  const person = slots.has('fullName') || slots.has('lastName');
  const ucn = slots.get('ucn') ?? '';
  const inn = (slots.get('inn') ?? '').replace(/\D/g, '');
  if (person && (/\d{9}/.test(ucn.replace(/\s/g, '')) || inn.length === 12 || slots.has('ogrn')))
    return 'businessman';
  if (person || slots.has('series') || slots.has('number')) return 'natural';
  return undefined;
}

/** The raw values placed at the request paths of a customer type. */
function placeSlots(type: CustomerType, slots: Map<Slot, string>): Map<string, string> {
  const out = new Map<string, string>();
  const put = (path: string, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') out.set(path, value.trim());
  };
  const company = slots.get('company') ?? slots.get('companyShort');
  let person = slots.get('fullName');
  if (type === 'businessman' && company) person ??= BUSINESSMAN_NAME.exec(company)?.[2];
  const parts = nameParts(type === 'juridical' ? (slots.get('executive') ?? '') : (person ?? ''));
  const last = type === 'juridical' ? parts.last : (slots.get('lastName') ?? parts.last);
  const first = type === 'juridical' ? parts.first : (slots.get('firstName') ?? parts.first);
  const middle = type === 'juridical' ? parts.middle : (slots.get('middleName') ?? parts.middle);
  const name = type === 'juridical' ? 'executive_' : '';
  put(`${name}last_name`, last);
  put(`${name}first_name`, first);
  put(`${name}middle_name`, middle);
  // A card may call a УНП «ИНН» (9 digits); a Russian ИНН (10 or 12) is no УНП and is not refused as one.
  const innAsUcn = slots.get('inn');
  const ucn = slots.get('ucn') ?? (digitsIn(innAsUcn ?? '')?.length === 9 ? innAsUcn : undefined);
  if (type !== 'natural') put('ucn', ucn === undefined ? undefined : digitsIn(ucn));
  if (type === 'juridical') {
    put('company_name', company);
    put('post_of_executive', slots.get('post') ?? slots.get('postOfLabel'));
  }
  const home = type === 'natural' ? 'address' : 'legal_address';
  const legal =
    slots.get(type === 'natural' ? 'address' : 'legalAddress') ??
    slots.get(type === 'natural' ? 'legalAddress' : 'address');
  for (const [key, value] of Object.entries(legal ? parseAddressLine(legal) : {}))
    put(`${home}.${key}`, value);
  if (type !== 'natural') {
    const postal = slots.get('postalAddress');
    for (const [key, value] of Object.entries(postal ? parseAddressLine(postal) : {}))
      put(`postal_address.${key}`, value);
    put('bank_requisites.bank_name', slots.get('bank'));
    const swift = slots.get('swift');
    put('bank_requisites.swift', swift === undefined ? undefined : swiftIn(swift));
    const iban = slots.get('iban');
    put('bank_requisites.iban', iban === undefined ? undefined : ibanIn(iban));
  }
  if (type !== 'juridical') {
    const person = 'whois_person_requisites';
    const citizenship = slots.get('citizenship');
    put(
      `${person}.citizenship`,
      citizenship === undefined ? undefined : (countryCodeOf(citizenship) ?? citizenship),
    );
    put(`${person}.series`, slots.get('series'));
    put(`${person}.number`, slots.get('number'));
    put(`${person}.organization`, slots.get('organization'));
    put(`${person}.identity_number`, slots.get('identityNumber'));
    const issued = slots.get('dateOfIssue');
    put(`${person}.date_of_issue`, issued === undefined ? undefined : (dateIn(issued) ?? issued));
    const born = slots.get('dateOfBirth');
    put(`${person}.date_of_birth`, born === undefined ? undefined : (dateIn(born) ?? born));
  }
  if (type !== 'natural') {
    const company = 'whois_company_requisites';
    put(`${company}.registration_number`, slots.get('regNumber'));
    put(`${company}.registration_organization`, slots.get('regOrganization'));
    put(`${company}.registration_issue_number`, slots.get('regIssueNumber'));
    const registered = slots.get('regDate');
    put(
      `${company}.registration_issue_date`,
      registered === undefined ? undefined : (dateIn(registered) ?? registered),
    );
    const inn = slots.get('inn');
    put(`${company}.inn`, inn === undefined ? undefined : digitsIn(inn));
    const kpp = slots.get('kpp');
    put(`${company}.kpp`, kpp === undefined ? undefined : digitsIn(kpp));
    const ogrn = slots.get('ogrn');
    put(`${company}.ogrn`, ogrn === undefined ? undefined : digitsIn(ogrn));
  }
  const phone = slots.get('phone');
  put('phone', phone === undefined ? undefined : phoneIn(phone));
  const email = slots.get('email');
  put('email', email === undefined ? undefined : emailIn(email));
  return out;
}

/**
 * Every field a card of a customer type may fill, in the order the form asks them: the customer,
 * the postal address, the bank, the WHOIS blocks of both zone families, the contacts. A path the
 * two zone families share (`whois_person_requisites.series`) appears once.
 */
export function cardFields(type: CustomerType): FieldSpec[] {
  const all = [
    ...customerFields(type),
    ...(type === 'natural' ? [] : [...POSTAL_ADDRESS_FIELDS, ...BANK_REQUISITES_FIELDS]),
    ...whoisFields('by', type),
    ...whoisFields('ru', type),
    ...CONTACT_FIELDS,
  ];
  const seen = new Set<string>();
  return all.filter((field) => field.kind !== 'boolean' && !seen.has(field.path) && seen.add(field.path));
}

/** The country code field of the address a field belongs to. */
function countryPathOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? 'country_code' : `${path.slice(0, dot)}.country_code`;
}

/**
 * Reads a pasted requisites card. Never throws: text that is no card gives `type: undefined` and
 * no fields. Every filled field holds the value checkField gives for it (the postal code in the
 * form of its address's country as filled); recognised values it refuses are listed apart.
 */
export function parseRequisitesCard(text: string, context: { now?: Date } = {}): PastedCard {
  const slots = readSlots(typeof text === 'string' ? text : '');
  const type = typeOf(slots);
  if (!type) return { type: undefined, fields: {}, refused: [] };
  const raw = placeSlots(type, slots);
  const fields: Record<string, string> = {};
  const refused: RefusedValue[] = [];
  // Country codes come before postal codes in the form, so a postal code meets its country.
  for (const spec of cardFields(type)) {
    const value = raw.get(spec.path);
    if (value === undefined) continue;
    const country = fields[countryPathOf(spec.path)];
    const check = checkField(spec, value, {
      ...(spec.kind === 'postalCode' ? { country } : {}),
      ...(context.now ? { now: context.now } : {}),
    });
    if (check.ok && typeof check.value === 'string') fields[spec.path] = check.value;
    else if (!check.ok) refused.push({ path: spec.path, check });
  }
  return { type, fields, refused };
}
