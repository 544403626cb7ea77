import type { HostingOrderRequest, MailOrderRequest, SslOrderRequest, Tariff } from '../../../api/index.js';
import { STEP } from '../../../core/customer-answers.js';
import { escapeHtml, formatMoney } from '../../../core/format.js';
import { orderMatches } from '../../../core/order-marks.js';
import type { ListTariffs, TariffQuery } from '../../../services/order-kinds.js';
import {
  buildContactsRequest,
  buildCustomerRequest,
  type CustomerRequest,
} from '../../../services/order-requests.js';
import { UserInputError } from '../../errors.js';
import {
  answerOf,
  type OrderDraft,
  type ProductForm,
  readNumber,
  readString,
  type Step,
  type StepEnv,
} from '../../forms/types.js';
import { CURRENCY, PERIOD } from './answers.js';
import { createCurrencyStep } from './currency-step.js';
import { createContactSteps, createCustomerSteps, createSaveProfileStep } from './customer-steps.js';
import { createPeriodStep, offerTariffPeriods } from './period-step.js';
import { displayCurrency, periodUnit, tariffPriceLines } from './pricing.js';
import { requireAnswer } from './requests.js';
import {
  createHostingDomainStep,
  createSslSubjectStep,
  HOSTING_DOMAIN,
  readSslSubject,
  SSL_SUBJECT,
} from './subject-steps.js';

const SERVICE = { id: 'service', read: readNumber };
const TARIFF = { id: 'tariff', read: readNumber };

/** What every tariff order sends, whatever its kind. */
type CommonRequest = {
  period_unit_count: number;
  currency_id: number;
  tariff_id: number;
  phone: string;
  email: string;
} & CustomerRequest;

/** What a tariff kind adds to the shared steps: its steps, its tariff list and its request. */
interface TariffSpec<Req> {
  /** For i18n keys (`order:askTariff.<key>`, `order:summaryTitle.<key>`). */
  key: 'hosting' | 'mail' | 'ssl';
  listTariffs: ListTariffs;
  /** Steps before the tariff (hosting: its service). */
  productSteps?: Step[];
  /** The service the tariffs are listed for (hosting). */
  serviceOf?(draft: OrderDraft): number | undefined;
  /** Steps after the period (hosting: an optional domain; SSL: a domain or a CSR). */
  subjectSteps?: Step[];
  request(common: CommonRequest, draft: OrderDraft): Req;
}

const toCurrencyQuery = (currencyId: number | undefined): TariffQuery =>
  currencyId === undefined ? {} : { currency_id: currencyId };

async function findChosenTariff(env: StepEnv, listTariffs: ListTariffs): Promise<Tariff | undefined> {
  const currency = await displayCurrency(env);
  const tariffs = await listTariffs(env.api, toCurrencyQuery(currency?.id));
  const chosen = answerOf(env.draft, TARIFF);
  return tariffs.find((t) => t.tariff_id === chosen);
}

/** The lowest price per unit of a tariff, for the tariff buttons ("from 8,91 BYN/мес"). */
function describeFromPrice(env: StepEnv, tariff: Tariff, code: string | undefined): string {
  const cheapest = [...tariff.prices].sort((a, b) => a.price / a.period - b.price / b.period)[0];
  if (!cheapest) return tariff.tariff_name;
  const perUnit = formatMoney(cheapest.price / cheapest.period, code, env.ctx.locale);
  return env.ctx.t('order:tariffFrom', {
    name: tariff.tariff_name,
    price: perUnit,
    unit: periodUnit(env, tariff.period_type),
  });
}

function createServiceStep(): Step<number> {
  return {
    id: SERVICE.id,
    section: 'product',
    read: readNumber,
    async auto({ api }) {
      const ids = new Set((await api.listHostingTariffs()).map((t) => t.service_id));
      return ids.size === 1 ? Number([...ids][0]) : undefined;
    },
    async ask({ ctx, api }) {
      const [tariffs, services] = await Promise.all([api.listHostingTariffs(), api.listServices()]);
      const ids = [...new Set(tariffs.map((t) => t.service_id))];
      return {
        text: ctx.t('order:askService'),
        options: ids.map((id) => ({
          label: services.find((s) => s.service_id === id)?.name ?? id,
          value: Number(id),
        })),
        perRow: 1,
      };
    },
    invalidates: () => [TARIFF.id, STEP.period],
    describe: () => undefined,
  };
}

function createTariffStep(spec: TariffSpec<unknown>): Step<number> {
  return {
    id: TARIFF.id,
    section: 'product',
    read: readNumber,
    async ask(env) {
      const currency = await displayCurrency(env);
      const serviceId = spec.serviceOf?.(env.draft);
      const tariffs = await spec.listTariffs(env.api, {
        ...toCurrencyQuery(currency?.id),
        ...(serviceId === undefined ? {} : { service_id: serviceId }),
      });
      if (tariffs.length === 0) throw new UserInputError('order:noTariffs');
      return {
        text: env.ctx.t(`order:askTariff.${spec.key}`),
        options: tariffs.map((t) => ({
          label: describeFromPrice(env, t, currency?.code),
          value: t.tariff_id,
        })),
        perRow: 1,
      };
    },
    invalidates: () => [STEP.period],
    describe: () => undefined,
  };
}

/** Hosting, corporate mail and SSL: a tariff, its period, then the shared steps. */
function createTariffForm<Req>(spec: TariffSpec<Req>): ProductForm<Req> {
  const steps = (draft: OrderDraft): Step[] => [
    ...(spec.productSteps ?? []),
    createTariffStep(spec),
    createPeriodStep(async (env) => {
      const tariff = await findChosenTariff(env, spec.listTariffs);
      if (!tariff) throw new UserInputError('order:tariffGone');
      return offerTariffPeriods(env, tariff, (await displayCurrency(env))?.code);
    }),
    ...(spec.subjectSteps ?? []),
    createCurrencyStep(),
    ...createCustomerSteps(draft),
    ...createContactSteps(),
    createSaveProfileStep(),
  ];

  return {
    kind: spec.key,
    steps,
    async summaryHead(env) {
      const tariff = await findChosenTariff(env, spec.listTariffs);
      const currency = await displayCurrency(env);
      const period = answerOf(env.draft, PERIOD) ?? 0;
      return [
        env.ctx.t(`order:summaryTitle.${spec.key}`),
        env.ctx.t('order:summaryTariff', { tariff: escapeHtml(tariff?.tariff_name ?? '?') }),
        ...(tariff
          ? tariffPriceLines(env, tariff, period, currency?.code)
          : [env.ctx.t('order:priceUnknown')]),
        env.ctx.t('order:summaryCurrency', { currency: currency?.code ?? '?' }),
      ];
    },
    async request({ draft }) {
      const common: CommonRequest = {
        period_unit_count: requireAnswer(draft, PERIOD),
        currency_id: requireAnswer(draft, CURRENCY),
        tariff_id: requireAnswer(draft, TARIFF),
        ...buildContactsRequest(draft.answers),
        ...buildCustomerRequest(draft.answers),
      };
      return spec.request(common, draft);
    },
    matches(draft, order) {
      const tariffId = answerOf(draft, TARIFF);
      return tariffId !== undefined && orderMatches({ tariffId }, order);
    },
  };
}

/** Hosting: service → tariff → period → optional domain → shared steps. */
export function createHostingForm(listTariffs: ListTariffs): ProductForm<HostingOrderRequest> {
  return createTariffForm({
    key: 'hosting',
    listTariffs,
    productSteps: [createServiceStep()],
    serviceOf: (draft) => answerOf(draft, SERVICE),
    subjectSteps: [createHostingDomainStep()],
    request(common, draft): HostingOrderRequest {
      const domain = answerOf(draft, { id: HOSTING_DOMAIN, read: readString });
      return domain === undefined ? common : { ...common, domain };
    },
  });
}

/** Corporate mail: tariff → period → shared steps. */
export function createMailForm(listTariffs: ListTariffs): ProductForm<MailOrderRequest> {
  return createTariffForm({
    key: 'mail',
    listTariffs,
    request: (common): MailOrderRequest => common,
  });
}

/** SSL: tariff → period in years → a domain or a CSR → shared steps. */
export function createSslForm(listTariffs: ListTariffs): ProductForm<SslOrderRequest> {
  return createTariffForm({
    key: 'ssl',
    listTariffs,
    subjectSteps: [createSslSubjectStep()],
    request(common, draft): SslOrderRequest {
      const subject = requireAnswer(draft, { id: SSL_SUBJECT, read: readSslSubject });
      return 'csr' in subject ? { ...common, csr: subject.csr } : { ...common, domain: subject.domain };
    },
  });
}
