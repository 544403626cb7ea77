import type { PartnerApi, Tariff } from '../../../api/index.js';
import { toAsciiDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml, formatMoney } from '../../../core/format.js';
import { looksLikeCsr } from '../../../core/requisites.js';
import { echoInput } from '../../../core/text.js';
import { UserInputError } from '../../context.js';
import { formatPeriod } from '../../views/catalog.js';
import {
  contactSteps,
  contactsRequest,
  currencyStep,
  customerRequest,
  customerSteps,
  STEP,
  saveProfileStep,
  tariffPeriodStep,
} from './common-steps.js';
import { displayCurrency, tariffPriceLine } from './pricing.js';
import type { OrderDraft, OrderFlow, Step, StepEnv } from './types.js';

type TariffKind = 'hosting' | 'mail' | 'ssl';

function listTariffs(api: PartnerApi, kind: TariffKind, currencyId: number | undefined, serviceId?: number) {
  const query = {
    ...(currencyId === undefined ? {} : { currency_id: currencyId }),
    ...(serviceId === undefined ? {} : { service_id: serviceId }),
  };
  if (kind === 'hosting') return api.listHostingTariffs(query);
  if (kind === 'mail') return api.listMailTariffs(query);
  return api.listSslTariffs(query);
}

const SERVICE = 'service';
const TARIFF = 'tariff';
const DOMAIN = 'orderDomain';
const SUBJECT = 'sslSubject';

async function currentTariff(env: StepEnv, kind: TariffKind): Promise<Tariff | undefined> {
  const currency = await displayCurrency(env);
  const tariffs = await listTariffs(env.api, kind, currency?.id);
  return tariffs.find((t) => t.tariff_id === env.draft.answers[TARIFF]);
}

/** The lowest price per unit of a tariff, for the tariff buttons ("from 8,91 BYN/мес"). */
function fromPrice(env: StepEnv, tariff: Tariff, code: string | undefined): string {
  const cheapest = [...tariff.prices].sort((a, b) => a.price / a.period - b.price / b.period)[0];
  if (!cheapest) return tariff.tariff_name;
  const perUnit = formatMoney(cheapest.price / cheapest.period, code, env.ctx.locale);
  return env.ctx.t('order:tariffFrom', {
    name: tariff.tariff_name,
    price: perUnit,
    unit: formatPeriod(env.ctx.t, tariff.period_type, 1).replace(/^1\s*/, ''),
  });
}

function serviceStep(): Step {
  return {
    id: SERVICE,
    section: 'product',
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
    invalidates: () => [TARIFF, STEP.period],
    describe: () => undefined,
  };
}

function tariffStep(kind: TariffKind): Step {
  return {
    id: TARIFF,
    section: 'product',
    async ask(env) {
      const currency = await displayCurrency(env);
      const serviceId = kind === 'hosting' ? (env.draft.answers[SERVICE] as number | undefined) : undefined;
      const tariffs = await listTariffs(env.api, kind, currency?.id, serviceId);
      if (tariffs.length === 0) throw new UserInputError('order:noTariffs');
      return {
        text: env.ctx.t(`order:askTariff.${kind}`),
        options: tariffs.map((t) => ({ label: fromPrice(env, t, currency?.code), value: t.tariff_id })),
        perRow: 1,
      };
    },
    invalidates: () => [STEP.period],
    describe: () => undefined,
  };
}

function hostingDomainStep(): Step {
  return {
    id: DOMAIN,
    section: 'subject',
    async ask({ ctx }) {
      return { text: ctx.t('order:askHostingDomain'), skippable: true };
    },
    async parseText(_env, text) {
      const ascii = toAsciiDomain(text.trim());
      if (!ascii) throw new UserInputError('order:invalid.domain', { value: escapeHtml(echoInput(text)) });
      return ascii;
    },
    describe: ({ ctx }, value) =>
      ctx.t('order:summaryDomain', { domain: value ? escapeHtml(toUnicodeDomain(String(value))) : '—' }),
  };
}

function sslSubjectStep(): Step {
  const readCsr = (text: string) => {
    if (!looksLikeCsr(text)) throw new UserInputError('order:invalid.csr');
    return { csr: text.trim() };
  };
  return {
    id: SUBJECT,
    section: 'subject',
    async ask({ ctx }) {
      return { text: ctx.t('order:askSslSubject') };
    },
    async parseText(_env, text) {
      if (text.includes('-----BEGIN')) return readCsr(text);
      const ascii = toAsciiDomain(text.trim().replace(/^\*\./, 'wildcard.'));
      if (!ascii) throw new UserInputError('order:invalid.domainOrCsr');
      return { domain: text.trim().startsWith('*.') ? `*.${ascii.slice('wildcard.'.length)}` : ascii };
    },
    async parseFile(_env, content, fileName) {
      if (!/\.(csr|pem|txt)$/i.test(fileName)) throw new UserInputError('order:invalid.csrFile');
      return readCsr(content);
    },
    describe: ({ ctx }, value) => {
      const subject = value as { domain?: string; csr?: string };
      return subject.csr
        ? ctx.t('order:summaryCsr', { length: subject.csr.length })
        : ctx.t('order:summaryDomain', { domain: escapeHtml(toUnicodeDomain(subject.domain ?? '')) });
    },
  };
}

/** Hosting, corporate mail and SSL: a tariff, its period, then the shared steps. */
export function createTariffFlow(kind: TariffKind): OrderFlow {
  const steps = (draft: OrderDraft): Step[] => [
    ...(kind === 'hosting' ? [serviceStep()] : []),
    tariffStep(kind),
    tariffPeriodStep(
      (env) => currentTariff(env, kind),
      async (env) => (await displayCurrency(env))?.code,
    ),
    ...(kind === 'hosting' ? [hostingDomainStep()] : []),
    ...(kind === 'ssl' ? [sslSubjectStep()] : []),
    currencyStep(),
    ...customerSteps(draft),
    ...contactSteps(),
    saveProfileStep(),
  ];

  return {
    kind,
    steps,
    async summaryHead(env) {
      const tariff = await currentTariff(env, kind);
      const currency = await displayCurrency(env);
      const period = Number(env.draft.answers[STEP.period]);
      return [
        env.ctx.t(`order:summaryTitle.${kind}`),
        env.ctx.t('order:summaryTariff', {
          tariff: escapeHtml(tariff?.tariff_name ?? '?'),
          id: tariff?.tariff_id ?? '?',
        }),
        tariff ? tariffPriceLine(env, tariff, period, currency?.code) : env.ctx.t('order:priceUnknown'),
        env.ctx.t('order:summaryCurrency', { currency: currency?.code ?? '?' }),
      ];
    },
    async submit(env) {
      const { draft, api } = env;
      const common = {
        period_unit_count: Number(draft.answers[STEP.period]),
        currency_id: Number(draft.answers[STEP.currency]),
        tariff_id: Number(draft.answers[TARIFF]),
        ...contactsRequest(draft),
        ...customerRequest(draft),
      };
      if (kind === 'hosting') {
        const domain = draft.answers[DOMAIN];
        return api.createHostingOrder({
          ...common,
          ...(typeof domain === 'string' ? { domain } : {}),
        } as never);
      }
      if (kind === 'mail') return api.createMailOrder(common as never);
      return api.createSslOrder({ ...common, ...(draft.answers[SUBJECT] as object) } as never);
    },
    listOrders(api) {
      if (kind === 'hosting') return api.listHostingOrders();
      if (kind === 'mail') return api.listMailOrders();
      return api.listSslOrders();
    },
    matches(draft, order) {
      return order.advanced?.tariff_id === draft.answers[TARIFF];
    },
  };
}
