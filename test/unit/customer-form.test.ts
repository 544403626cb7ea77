/*
 * A customer as one form (core/customer-form.ts): the fields in the chat's asking order, every
 * answer held to checkField with the chat's context, the saved data, and a pasted card's answers;
 * and the words of a field (core/requisites-words.ts) in both languages, as the chat says them.
 */
import { describe, expect, it } from 'vitest';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import {
  answersOfCard,
  checkCustomerAnswers,
  choiceOf,
  customerFormFields,
  missingForOrder,
  savedCustomerOf,
} from '../../src/core/customer-form.js';
import { parseRequisitesCard } from '../../src/core/requisites-paste.js';
import { describeFieldForm, describeRefusal, lineLabel } from '../../src/core/requisites-words.js';
import { SAVED_PERSON } from '../helpers/fixtures.js';

const BUSINESSMAN = {
  'c:ucn': '190123455',
  'c:last_name': 'Сидоров',
  'c:first_name': 'Сидор',
  'c:legal_address.country_code': 'by',
  'c:legal_address.postal_code': '220030',
  'c:legal_address.region': 'Минская',
  'c:legal_address.city': 'Минск',
  'c:legal_address.street': 'ул. Ленина',
  'c:legal_address.building': '1',
  phone: '+375 29 123-45-67',
  email: 'sidorov@example.by',
};

describe('the form’s fields', () => {
  it('are the chat’s steps in its order: customer, postal address, bank, WHOIS, contacts', () => {
    const ids = (choice: Parameters<typeof customerFormFields>[0]) =>
      customerFormFields(choice).map((f) => f.id);
    const plain = ids({ type: 'businessman', postalSame: true, bankWanted: false });
    expect(plain.slice(0, 4)).toEqual(['c:ucn', 'c:last_name', 'c:first_name', 'c:middle_name']);
    expect(plain.at(4)).toBe('c:legal_address.country_code');
    expect(plain.slice(-2)).toEqual(['phone', 'email']);
    expect(plain.some((id) => id.startsWith('c:postal_address.'))).toBe(false);

    const all = ids({ type: 'businessman', postalSame: false, bankWanted: true, whois: 'ru' });
    const at = (id: string) => all.indexOf(id);
    expect(at('c:legal_address.room')).toBeLessThan(at('c:postal_address.country_code'));
    expect(at('c:postal_address.room')).toBeLessThan(at('c:bank_requisites.bank_name'));
    expect(at('c:bank_requisites.iban')).toBeLessThan(at('w:whois_person_requisites.citizenship'));
    expect(at('w:whois_company_requisites.ogrn')).toBeLessThan(at('phone'));
    // A natural person has neither a postal address apart nor a bank.
    expect(ids({ type: 'natural', postalSame: false, bankWanted: true })).not.toContain(
      'c:bank_requisites.bank_name',
    );
  });

  it('take the postal address and bank choices from a customer’s answers (same address, no bank unless said)', () => {
    expect(choiceOf('juridical', {})).toEqual({
      type: 'juridical',
      postalSame: true,
      bankWanted: false,
      whois: undefined,
    });
    expect(choiceOf('juridical', { postalSame: false, bankWanted: true }, 'by')).toMatchObject({
      postalSame: false,
      bankWanted: true,
      whois: 'by',
    });
  });
});

describe('the answers checked', () => {
  const fields = customerFormFields({ type: 'businessman', postalSame: true, bankWanted: false });

  it('normalised as checkField returns them; an optional field left empty is null', () => {
    const { answers, problems } = checkCustomerAnswers(fields, BUSINESSMAN);
    expect(problems).toEqual([]);
    expect(answers).toMatchObject({
      'c:legal_address.country_code': 'BY',
      phone: '+375291234567',
      'c:middle_name': null,
      'c:legal_address.room': null,
    });
  });

  it('a УНП whose control digit is wrong is refused; a needed field left empty is missing, unless as you type', () => {
    const typed = { ...BUSINESSMAN, 'c:ucn': '190123456', 'c:last_name': '  ' };
    const whole = checkCustomerAnswers(fields, typed);
    expect(whole.problems).toEqual([
      expect.objectContaining({ id: 'c:ucn', check: expect.objectContaining({ reason: 'checksum' }) }),
      expect.objectContaining({ id: 'c:last_name', missing: true }),
    ]);
    const asYouType = checkCustomerAnswers(fields, typed, { partial: true });
    expect(asYouType.problems.map((p) => p.id)).toEqual(['c:ucn']);
  });

  it('a postal code is checked by the country of its own address, as the chat checks it', () => {
    const de = {
      ...BUSINESSMAN,
      'c:legal_address.country_code': 'DE',
      'c:legal_address.postal_code': '220030',
    };
    const { problems } = checkCustomerAnswers(fields, de);
    expect(problems).toEqual([
      expect.objectContaining({
        id: 'c:legal_address.postal_code',
        check: expect.objectContaining({
          reason: 'postalCode',
          params: expect.objectContaining({ country: 'DE' }),
        }),
      }),
    ]);
  });

  it('saved with the type, the choices, and the WHOIS answers kept from before for the same type only', () => {
    const choice = choiceOf('businessman', {});
    const { answers } = checkCustomerAnswers(fields, BUSINESSMAN);
    const kept = { customerType: 'businessman', 'w:whois_person_requisites.series': 'MP', 'c:ucn': 'old' };
    expect(savedCustomerOf(choice, answers, kept)).toMatchObject({
      customerType: 'businessman',
      postalSame: true,
      bankWanted: false,
      'c:ucn': '190123455',
      'w:whois_person_requisites.series': 'MP',
    });
    const other = savedCustomerOf(choice, answers, { ...kept, customerType: 'natural' });
    expect(other['w:whois_person_requisites.series']).toBeUndefined();
  });
});

describe('a pasted card’s answers', () => {
  it('its fields by answer id, the postal address the legal one when the card gives none, refused values left out', () => {
    const card = parseRequisitesCard(`ИП Сидоров Сидор Сидорович
УНП: 190123456
Юридический адрес: 220030, Беларусь, г. Минск, ул. Ленина, д. 1
Тел.: +375 29 123-45-67`);
    expect(card.type).toBe('businessman');
    const answers = answersOfCard(card);
    expect(answers).toMatchObject({
      customerType: 'businessman',
      'c:last_name': 'Сидоров',
      'c:legal_address.city': 'Минск',
      phone: '+375291234567',
      postalSame: true,
      bankWanted: false,
      // Left out in a block the card fills: skipped.
      'c:legal_address.room': null,
    });
    expect(answers['c:ucn']).toBeUndefined();
    expect(card.refused.map((r) => r.path)).toEqual(['ucn']);
  });
});

describe('a field in words', () => {
  const translations = loadTranslations();
  const ucn = customerFormFields({ type: 'juridical', postalSame: true, bankWanted: false })[0];

  it('its label, hint and refusal, in ru and en', () => {
    if (ucn === undefined) throw new Error('no field');
    const ru = translations.forLocale('ru');
    expect(lineLabel(ru, 'legal_address.city')).toBe('Юридический адрес — город');
    expect(describeFieldForm(ru, ucn.spec, undefined)).toBe('9 цифр, например 190123455');
    const checked = checkCustomerAnswers([ucn], { 'c:ucn': '190123456' });
    const problem = checked.problems[0];
    if (problem === undefined || problem.missing) throw new Error('no refusal');
    expect(describeRefusal(ru, ucn.spec.path, problem.check)).toMatch(
      /^Поле «УНП»: последняя цифра номера — контрольная, и она не сходится/,
    );
    const en = translations.forLocale('en');
    expect(describeRefusal(en, ucn.spec.path, problem.check)).not.toMatch(/[а-яё]/i);
  });
});

describe('what a saved customer lacks for an order', () => {
  const person = SAVED_PERSON;

  it('nothing for a zone without WHOIS; the passport, by answer id, for a .by domain', () => {
    expect(missingForOrder(person, 'none')).toEqual([]);
    expect(missingForOrder(person, 'by')).toEqual([
      'w:whois_person_requisites.citizenship',
      'w:whois_person_requisites.series',
      'w:whois_person_requisites.number',
      'w:whois_person_requisites.organization',
      'w:whois_person_requisites.date_of_issue',
    ]);
  });

  it('a blank or wrongly typed answer is missing; a customer without a type lacks the type', () => {
    expect(missingForOrder({ ...person, phone: '  ', email: true }, 'none')).toEqual(['phone', 'email']);
    expect(missingForOrder({ 'c:last_name': 'Иванов' }, 'none')).toEqual(['customerType']);
  });

  it('a company whose postal address differs lacks that address until it is given', () => {
    const missing = missingForOrder({ customerType: 'juridical', postalSame: false }, 'none');
    expect(missing).toContain('c:postal_address.city');
    expect(missing).not.toContain('c:bank_requisites.iban');
  });
});
