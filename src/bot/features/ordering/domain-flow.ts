import type { DomainOrderRequest, DomainZone } from '../../../api/index.js';
import { STEP, WHOIS_PREFIX } from '../../../core/customer-answers.js';
import { readTypedDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { orderMatches } from '../../../core/order-marks.js';
import { echoInput } from '../../../core/text.js';
import { findZone, whoisRulesOf } from '../../../core/zones.js';
import {
  buildContactsRequest,
  buildCustomerRequest,
  buildWhoisRequest,
} from '../../../services/order-requests.js';
import { UserInputError } from '../../errors.js';
import { answerOf, type OrderDraft, type ProductForm, type Step, type StepEnv } from '../../forms/types.js';
import { renderCheckedDomain } from '../domains/views.js';
import { CURRENCY, PERIOD } from './answers.js';
import { createCurrencyStep } from './currency-step.js';
import {
  createContactSteps,
  createCustomerSteps,
  createSaveProfileStep,
  createWhoisSteps,
} from './customer-steps.js';
import { createPeriodStep, offerZonePeriods } from './period-step.js';
import { displayCurrency, periodPriceLines } from './pricing.js';
import { rememberWhois } from './profiles.js';
import { requireAnswer } from './requests.js';

/** Step id of the domain name, which the word after `/order domain` answers. */
export const DOMAIN_NAME = 'domainName';

/** The answer of the domain step: the ASCII name, its zone, whether it is premium. */
interface DomainAnswer {
  ascii: string;
  zone: string;
  premium: boolean;
}

function readDomainAnswer(value: unknown): DomainAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!('ascii' in value && 'zone' in value && 'premium' in value)) return undefined;
  const { ascii, zone, premium } = value;
  return typeof ascii === 'string' && typeof zone === 'string' && typeof premium === 'boolean'
    ? { ascii, zone, premium }
    : undefined;
}

function readAnsweredDomain(draft: OrderDraft): DomainAnswer | undefined {
  return answerOf(draft, { id: DOMAIN_NAME, read: readDomainAnswer });
}

async function findAnsweredZone(env: StepEnv, currencyId?: number): Promise<DomainZone | undefined> {
  const answer = readAnsweredDomain(env.draft);
  if (!answer) return undefined;
  const zones = await env.api.listDomainZones(currencyId === undefined ? {} : { currency_id: currencyId });
  return zones.find((z) => z.name === answer.zone);
}

function createDomainStep(): Step<DomainAnswer> {
  return {
    id: DOMAIN_NAME,
    section: 'subject',
    read: readDomainAnswer,
    async ask({ ctx }) {
      return { text: ctx.t('order:askDomain') };
    },
    async parseText({ api, ctx }, text) {
      const typed = text.trim().split(/\s+/)[0] ?? '';
      const ascii = readTypedDomain(typed);
      if (!ascii) throw new UserInputError('order:invalid.domain', { value: escapeHtml(echoInput(typed)) });
      const zones = await api.listDomainZones();
      const zone = findZone(ascii, zones);
      if (!zone) {
        throw new UserInputError('order:zoneNotOffered', {
          domain: escapeHtml(toUnicodeDomain(ascii)),
          zones: zones.map((z) => z.name.toUpperCase()).join(', '),
        });
      }
      const [result] = await api.checkDomains([ascii]);
      if (!result?.is_available) {
        // The same verdict as /check, in words: only a taken name is called taken.
        throw new UserInputError('order:domainNotFree', {
          verdict: renderCheckedDomain(ctx.t, { name: toUnicodeDomain(ascii), result }),
        });
      }
      return { ascii, zone: zone.name, premium: result.is_premium };
    },
    async afterAnswer({ ctx }, answer) {
      if (answer.premium)
        await ctx.reply(ctx.t('order:premiumNote', { domain: escapeHtml(toUnicodeDomain(answer.ascii)) }));
    },
    // Another zone may allow other periods and need other WHOIS data.
    invalidates: (draft) => [
      STEP.period,
      ...Object.keys(draft.answers).filter((k) => k.startsWith(WHOIS_PREFIX)),
    ],
    describe: ({ ctx }, answer) => {
      const premium = answer.premium ? ctx.t('order:premiumMark') : '';
      return ctx.t('order:summaryDomain', {
        domain: `${escapeHtml(toUnicodeDomain(answer.ascii))}${premium}`,
      });
    },
  };
}

/** Domain registration: name (checked), zone by longest suffix, period, WHOIS per zone. */
export function createDomainForm(): ProductForm<DomainOrderRequest> {
  return {
    kind: 'domain',
    steps(draft) {
      const answer = readAnsweredDomain(draft);
      return [
        createDomainStep(),
        createPeriodStep(async (env) => {
          const currency = await displayCurrency(env);
          const zone = await findAnsweredZone(env, currency?.id);
          if (!zone) throw new UserInputError('order:zoneGone');
          return offerZonePeriods(env, zone, currency?.code);
        }),
        createCurrencyStep(),
        ...createCustomerSteps(draft),
        ...(answer ? createWhoisSteps(draft, whoisRulesOf(answer.zone)) : []),
        ...createContactSteps(),
        createSaveProfileStep(),
      ];
    },
    async summaryHead(env) {
      const currency = await displayCurrency(env);
      const zone = await findAnsweredZone(env, currency?.id);
      const period = answerOf(env.draft, PERIOD) ?? 0;
      return [
        env.ctx.t('order:summaryTitle.domain'),
        env.ctx.t('order:summaryZone', { zone: escapeHtml(zone?.name.toUpperCase() ?? '?') }),
        // The zone prices one period unit; the total for the chosen period is that times the count.
        ...(zone
          ? periodPriceLines(env, {
              periodType: zone.period_type,
              period,
              perUnit: zone.registration_price,
              code: currency?.code,
            })
          : [env.ctx.t('order:priceUnknown')]),
        env.ctx.t('order:summaryCurrency', { currency: currency?.code ?? '?' }),
      ];
    },
    async request(env): Promise<DomainOrderRequest> {
      const { draft } = env;
      const answer = readAnsweredDomain(draft);
      const zone = await findAnsweredZone(env);
      if (!answer || !zone) throw new UserInputError('order:zoneGone');
      // The WHOIS data typed for a saved customer is kept with it for the next order.
      await rememberWhois(env);
      return {
        period_unit_count: requireAnswer(draft, PERIOD),
        currency_id: requireAnswer(draft, CURRENCY),
        tariff_id: zone.actual_registration_tariff_id,
        domain: answer.ascii,
        ...buildContactsRequest(draft.answers),
        ...buildCustomerRequest(draft.answers),
        ...buildWhoisRequest(draft.answers, whoisRulesOf(zone.name)),
      };
    },
    matches(draft, order) {
      const answer = readAnsweredDomain(draft);
      return answer !== undefined && orderMatches({ domain: answer.ascii }, order);
    },
  };
}
