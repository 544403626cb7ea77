import {
  CUSTOMER_PREFIX,
  type FieldAnswer,
  isCustomerAnswer,
  readSavedCustomer,
  STEP,
  WHOIS_PREFIX,
} from '../../../core/customer-answers.js';
import {
  BANK_REQUISITES_FIELDS,
  CUSTOMER_TYPES,
  type CustomerType,
  customerFields,
  hasPostalAndBank,
  POSTAL_ADDRESS_FIELDS,
  whoisFields,
} from '../../../core/requisites.js';
import type { WhoisRules } from '../../../core/zones.js';
import { answerOf, type OrderDraft, readBoolean, type Step } from '../../forms/types.js';
import { BANK_WANTED, CUSTOMER_SOURCE, CUSTOMER_TYPE, POSTAL_SAME } from './answers.js';
import { createFieldStep, createYesNoStep } from './field-step.js';
import { applyPastedCard, readPastedCard } from './pasted-card.js';
import { saveCustomerProfile } from './profiles.js';
import { describeAnswer } from './requisites-views.js';

/** Every customer step: saved profile or new, type, fields, postal address, bank. */
export function createCustomerSteps(draft: OrderDraft): Step[] {
  const source: Step<string> = {
    ...CUSTOMER_SOURCE,
    section: 'customer',
    // A card pasted instead of choosing is a new customer with its fields filled.
    async parseText({ draft: d }, text) {
      readPastedCard(d, text);
      return 'new';
    },
    async parseFile({ draft: d }, content) {
      readPastedCard(d, content);
      return 'new';
    },
    async auto({ chatData, account }) {
      return (await chatData.getProfiles(account)).length === 0 ? 'new' : undefined;
    },
    async ask({ ctx, chatData, account }) {
      const profiles = await chatData.getProfiles(account);
      return {
        text: `${ctx.t('order:askCustomer')}\n<i>${ctx.t('order:pasteHint')}</i>`,
        options: [
          ...profiles.map((p) => ({ label: p.label, value: p.id })),
          { label: ctx.t('order:newCustomer'), value: 'new' },
        ],
        perRow: 1,
      };
    },
    afterAnswer: async (env, value) => {
      const { chatData, account, draft: d } = env;
      if (value === 'new') return applyPastedCard(env);
      const profile = (await chatData.getProfiles(account)).find((p) => p.id === value);
      // A saved profile answers the customer and contact steps; Edit can still change them. A
      // profile that no longer reads as one answers nothing: the customer is asked for.
      const saved = profile ? readSavedCustomer(profile.data) : undefined;
      for (const [key, answer] of Object.entries(saved ?? {})) d.answers[key] = answer;
      d.answers[STEP.saveProfile] = false;
    },
    invalidates: (d) => Object.keys(d.answers).filter(isCustomerAnswer),
    describe: () => undefined,
  };
  const typeStep: Step<CustomerType> = {
    ...CUSTOMER_TYPE,
    section: 'customer',
    async ask({ ctx }) {
      return {
        text: `${ctx.t('order:askCustomerType')}\n<i>${ctx.t('order:pasteHint')}</i>`,
        options: CUSTOMER_TYPES.map((type) => ({
          label: ctx.t(`order:customerType.${type}`),
          value: type,
        })),
        perRow: 1,
      };
    },
    async parseText({ draft: d }, text) {
      return readPastedCard(d, text);
    },
    async parseFile({ draft: d }, content) {
      return readPastedCard(d, content);
    },
    afterAnswer: applyPastedCard,
    invalidates: (d) =>
      Object.keys(d.answers).filter((k) => k.startsWith(CUSTOMER_PREFIX) || k.startsWith(WHOIS_PREFIX)),
    describe: ({ ctx }, value) =>
      ctx.t('order:summaryCustomerType', { type: ctx.t(`order:customerType.${value}`) }),
  };
  const steps: Step[] = [source, typeStep];
  const type = answerOf(draft, CUSTOMER_TYPE);
  if (!type) return steps;
  steps.push(...customerFields(type).map((f) => createFieldStep(CUSTOMER_PREFIX, 'customer', f)));
  if (hasPostalAndBank(type)) {
    steps.push(
      createYesNoStep(POSTAL_SAME, 'order:askPostalSame', {
        describe: ({ ctx }, value) =>
          ctx.t('order:summaryPostalSame', { answer: describeAnswer(ctx.t, value) }),
      }),
    );
    if (answerOf(draft, POSTAL_SAME) === false) {
      steps.push(...POSTAL_ADDRESS_FIELDS.map((f) => createFieldStep(CUSTOMER_PREFIX, 'customer', f)));
    }
    steps.push(createYesNoStep(BANK_WANTED, 'order:askBank'));
    if (answerOf(draft, BANK_WANTED) === true) {
      steps.push(...BANK_REQUISITES_FIELDS.map((f) => createFieldStep(CUSTOMER_PREFIX, 'customer', f)));
    }
  }
  return steps;
}

/**
 * After the contacts, the offer to save a newly entered customer (with its contacts) for next
 * time. A customer taken from a saved profile is not offered again.
 */
export function createSaveProfileStep(): Step<boolean> {
  return createYesNoStep({ id: STEP.saveProfile, read: readBoolean }, 'order:askSaveProfile', {
    async auto({ draft }) {
      return answerOf(draft, CUSTOMER_SOURCE) === 'new' ? undefined : false;
    },
    afterAnswer: async (env, value) => {
      if (value) await saveCustomerProfile(env);
    },
  });
}

/** WHOIS fields for the zone's rules and the customer type (none outside BY/БЕЛ/RU/SU/РФ). */
export function createWhoisSteps(draft: OrderDraft, rules: WhoisRules): Step<FieldAnswer>[] {
  const type = answerOf(draft, CUSTOMER_TYPE);
  if (!type) return [];
  return whoisFields(rules, type).map((f) => createFieldStep(WHOIS_PREFIX, 'whois', f));
}

/** Contact phone and e-mail. */
export function createContactSteps(): Step<FieldAnswer>[] {
  return [
    createFieldStep('', 'contacts', { path: STEP.phone, kind: 'phone' }),
    createFieldStep('', 'contacts', { path: STEP.email, kind: 'email' }),
  ];
}
