/*
 * The countries a form offers and reads: each one's ISO 3166-1 code, its name in Russian and in
 * English, and the other names people type for it. A typed country is read by any of them, so
 * «Беларусь», «РБ» and «Belarus» are all BY; the choice lists Belarus and Russia first, the
 * partners' own countries, then the rest by name.
 */

export interface Country {
  code: string;
  ru: string;
  en: string;
  aliases: readonly string[];
}

/** One country a line: code | Russian name | English name | other names, comma-separated. */
const TABLE = `
BY|Беларусь|Belarus|Белоруссия,Республика Беларусь,РБ,Republic of Belarus,Byelorussia,BLR
RU|Россия|Russia|Российская Федерация,РФ,Russian Federation,RUS
UA|Украина|Ukraine|UKR
KZ|Казахстан|Kazakhstan|Республика Казахстан,KAZ
UZ|Узбекистан|Uzbekistan|
KG|Киргизия|Kyrgyzstan|Кыргызстан,Киргизстан
TJ|Таджикистан|Tajikistan|
TM|Туркменистан|Turkmenistan|Туркмения
AM|Армения|Armenia|
AZ|Азербайджан|Azerbaijan|
GE|Грузия|Georgia|
MD|Молдова|Moldova|Молдавия
AT|Австрия|Austria|
BE|Бельгия|Belgium|
BG|Болгария|Bulgaria|
HR|Хорватия|Croatia|
CY|Кипр|Cyprus|
CZ|Чехия|Czechia|Czech Republic,Чешская Республика
DK|Дания|Denmark|
EE|Эстония|Estonia|
FI|Финляндия|Finland|
FR|Франция|France|
DE|Германия|Germany|ФРГ,Deutschland
GR|Греция|Greece|
HU|Венгрия|Hungary|
IE|Ирландия|Ireland|
IT|Италия|Italy|
LV|Латвия|Latvia|
LT|Литва|Lithuania|
LU|Люксембург|Luxembourg|
MT|Мальта|Malta|
NL|Нидерланды|Netherlands|Голландия,Holland
PL|Польша|Poland|
PT|Португалия|Portugal|
RO|Румыния|Romania|
SK|Словакия|Slovakia|
SI|Словения|Slovenia|
ES|Испания|Spain|
SE|Швеция|Sweden|
GB|Великобритания|United Kingdom|Соединённое Королевство,Англия,UK,Great Britain,Britain,England
NO|Норвегия|Norway|
CH|Швейцария|Switzerland|
IS|Исландия|Iceland|
LI|Лихтенштейн|Liechtenstein|
MC|Монако|Monaco|
AD|Андорра|Andorra|
SM|Сан-Марино|San Marino|
VA|Ватикан|Vatican City|Holy See
RS|Сербия|Serbia|
ME|Черногория|Montenegro|
MK|Северная Македония|North Macedonia|Македония,Macedonia
AL|Албания|Albania|
BA|Босния и Герцеговина|Bosnia and Herzegovina|
TR|Турция|Turkey|Türkiye,Turkiye
US|США|United States|Соединённые Штаты Америки,Соединённые Штаты,Америка,USA,United States of America
CA|Канада|Canada|
MX|Мексика|Mexico|
BR|Бразилия|Brazil|
AR|Аргентина|Argentina|
CL|Чили|Chile|
CO|Колумбия|Colombia|
PE|Перу|Peru|
VE|Венесуэла|Venezuela|
CU|Куба|Cuba|
CN|Китай|China|КНР,Китайская Народная Республика,People's Republic of China
HK|Гонконг|Hong Kong|Сянган
TW|Тайвань|Taiwan|
JP|Япония|Japan|
KR|Южная Корея|South Korea|Республика Корея,Корея,Korea,Republic of Korea
MN|Монголия|Mongolia|
IN|Индия|India|
PK|Пакистан|Pakistan|
BD|Бангладеш|Bangladesh|
LK|Шри-Ланка|Sri Lanka|
NP|Непал|Nepal|
AF|Афганистан|Afghanistan|
IR|Иран|Iran|
IQ|Ирак|Iraq|
SY|Сирия|Syria|
LB|Ливан|Lebanon|
JO|Иордания|Jordan|
IL|Израиль|Israel|
AE|ОАЭ|United Arab Emirates|Объединённые Арабские Эмираты,Эмираты,UAE
SA|Саудовская Аравия|Saudi Arabia|
QA|Катар|Qatar|
VN|Вьетнам|Vietnam|Viet Nam
TH|Таиланд|Thailand|Тайланд
MY|Малайзия|Malaysia|
SG|Сингапур|Singapore|
ID|Индонезия|Indonesia|
PH|Филиппины|Philippines|
EG|Египет|Egypt|
MA|Марокко|Morocco|
TN|Тунис|Tunisia|
DZ|Алжир|Algeria|
NG|Нигерия|Nigeria|
KE|Кения|Kenya|
ET|Эфиопия|Ethiopia|
ZA|ЮАР|South Africa|Южно-Африканская Республика,Южная Африка
AU|Австралия|Australia|
NZ|Новая Зеландия|New Zealand|
`;

export const COUNTRIES: readonly Country[] = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [code = '', ru = '', en = '', aliases = ''] = line.split('|');
    return { code, ru, en, aliases: aliases === '' ? [] : aliases.split(',') };
  });

/** The partners' own countries, listed first. */
const FIRST = ['BY', 'RU'];

/** A name as typed, compared: lower case, ё as е, no dots or quotes, single spaces. */
const keyOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[.«»"“”()]/g, '')
    .replace(/[\s\u00A0]+/g, ' ')
    .trim();

const BY_KEY = new Map<string, string>();
for (const { code, ru, en, aliases } of COUNTRIES)
  for (const name of [code, ru, en, ...aliases]) BY_KEY.set(keyOf(name), code);

/**
 * The code of a country typed by its code, its name in Russian or English or another name it goes
 * by; any other two Latin letters are taken as a code too (the table is not every country).
 */
export function countryCodeOf(text: string): string | undefined {
  const key = keyOf(text);
  const known = BY_KEY.get(key);
  if (known !== undefined) return known;
  return /^[a-z]{2}$/.test(key) ? key.toUpperCase() : undefined;
}

/** The languages the table names countries in; any other reads English. */
const nameIn = (country: Country, language: string) => (language === 'ru' ? country.ru : country.en);

/** A country's name in a language, or undefined for a code the table does not have. */
export function countryName(code: string, language: string): string | undefined {
  const country = COUNTRIES.find((c) => c.code === code.toUpperCase());
  return country === undefined ? undefined : nameIn(country, language);
}

/** The countries to choose from, by code with their names: Belarus and Russia first, then by name. */
export function countryOptions(language: string): { value: string; label: string }[] {
  const options = COUNTRIES.map((c) => ({ value: c.code, label: nameIn(c, language) }));
  const first = FIRST.flatMap((code) => options.filter((o) => o.value === code));
  const rest = options.filter((o) => !FIRST.includes(o.value));
  rest.sort((a, b) => a.label.localeCompare(b.label, language));
  return [...first, ...rest];
}
