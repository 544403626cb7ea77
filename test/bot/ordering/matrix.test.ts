import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, buttons, texts } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * Every kind × every customer type, alternating Russian and English: the bot walks each form and
 * the sandbox must receive exactly the request the answers describe.
 */

const { h } = useBot();

type Lang = 'ru' | 'en';
type Kind = 'domain' | 'hosting' | 'mail' | 'ssl';
type Customer = 'natural' | 'businessman' | 'juridical';

const L = {
  ru: {
    year: /^1 год/,
    month: /^1 мес/,
    skip: 'Пропустить',
    yes: 'Да',
    no: 'Нет',
    confirm: 'Подтвердить',
    created: 'Заказ создан',
    type: {
      natural: 'Физическое лицо',
      businessman: 'Индивидуальный предприниматель',
      juridical: 'Юридическое лицо',
    },
  },
  en: {
    year: /^1 year/,
    month: /^1 month/,
    skip: 'Skip',
    yes: 'Yes',
    no: 'No',
    confirm: 'Confirm',
    created: 'Order created',
    type: { natural: 'Natural person', businessman: 'Individual businessman', juridical: 'Juridical person' },
  },
} as const;

const ADDRESS = ['BY', '220030', 'Минская', 'Минск', 'ул. Ленина', '10', '5'];
const ADDRESS_BODY = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская',
  city: 'Минск',
  street: 'ул. Ленина',
  building: '10',
  room: '5',
};

/** Answers of the customer steps, and the requisites block they make. */
function customer(
  type: Customer,
  lang: Lang,
): { answers: (string | RegExp | { tap: string })[]; block: Record<string, unknown> } {
  const t = L[lang];
  if (type === 'natural') {
    return {
      answers: ['Петров', 'Пётр', 'Петрович', ...ADDRESS],
      block: {
        natural_person_requisites: {
          last_name: 'Петров',
          first_name: 'Пётр',
          middle_name: 'Петрович',
          address: ADDRESS_BODY,
        },
      },
    };
  }
  if (type === 'businessman') {
    return {
      answers: ['191111113', 'Петров', 'Пётр', 'Петрович', ...ADDRESS, { tap: t.yes }, { tap: t.no }],
      block: {
        individual_businessman_requisites: {
          ucn: '191111113',
          last_name: 'Петров',
          first_name: 'Пётр',
          middle_name: 'Петрович',
          legal_address: ADDRESS_BODY,
        },
      },
    };
  }
  return {
    answers: [
      '192222221',
      'ООО «Ромашка»',
      'Сидоров',
      'Сидор',
      'Сидорович',
      'Директор',
      ...ADDRESS,
      { tap: t.yes },
      { tap: t.no },
    ],
    block: {
      juridical_person_requisites: {
        ucn: '192222221',
        company_name: 'ООО «Ромашка»',
        executive_last_name: 'Сидоров',
        executive_first_name: 'Сидор',
        executive_middle_name: 'Сидорович',
        post_of_executive: 'Директор',
        legal_address: ADDRESS_BODY,
      },
    },
  };
}

/** WHOIS answers for a .by domain, and the blocks they make. */
function whoisBy(
  type: Customer,
  lang: Lang,
): { answers: (string | { tap: string })[]; blocks: Record<string, unknown> } {
  const t = L[lang];
  const person = ['BY', 'MP', '7654321', 'Ленинский РУВД', { tap: t.skip }, '02.03.2019'];
  const company = ['190000005', 'Мингорисполком', { tap: t.skip }, '01.01.2015', { tap: t.no }];
  const personBody = {
    citizenship: 'BY',
    series: 'MP',
    number: '7654321',
    organization: 'Ленинский РУВД',
    date_of_issue: '02.03.2019',
  };
  const companyBody = {
    registration_number: '190000005',
    registration_organization: 'Мингорисполком',
    registration_issue_date: '01.01.2015',
    is_government_company: false,
  };
  if (type === 'natural') return { answers: person, blocks: { whois_person_requisites: personBody } };
  if (type === 'juridical') return { answers: company, blocks: { whois_company_requisites: companyBody } };
  return {
    answers: [...person, ...company],
    blocks: { whois_person_requisites: personBody, whois_company_requisites: companyBody },
  };
}

const PATHS: Record<Kind, string> = {
  domain: '/v1/orders/domains',
  hosting: '/v1/orders/hostings',
  mail: '/v1/orders/corporate-mails',
  ssl: '/v1/orders/ssl-certificates',
};

const cases = (['domain', 'hosting', 'mail', 'ssl'] as const).flatMap((kind, k) =>
  (['natural', 'businessman', 'juridical'] as const).map(
    (type, c) => [kind, type, (k + c) % 2 === 0 ? 'ru' : 'en'] as const,
  ),
);

let nextUser = 40_000;

describe('kind × customer type', () => {
  it.each(cases)('%s for a %s customer (%s)', async (kind, type, lang) => {
    nextUser += 1;
    const user = { userId: nextUser, chatId: nextUser, languageCode: lang };
    await h.send('/token', user);
    await h.send(h.sandbox.token, user);
    const t = L[lang];
    let last: BotCall[] = [];
    const answer = async (a: string | RegExp | { tap: string }) => {
      if (typeof a === 'string') last = await h.send(a, user);
      else last = await h.press(buttonData(last, a instanceof RegExp ? a : a.tap), user);
    };
    const api = h.api();
    const domain = `matrix-${kind}-${type}-${Date.now()}.by`;
    let expected: Record<string, unknown> = {};
    if (kind === 'domain') {
      last = await h.send(`/order domain ${domain}`, user);
      await answer(t.year);
      expected = { period_unit_count: 1, tariff_id: 401, domain };
    } else {
      const tariff =
        kind === 'hosting'
          ? (await api.listHostingTariffs({ service_id: 10 }))[0]
          : kind === 'mail'
            ? (await api.listMailTariffs())[0]
            : (await api.listSslTariffs())[0];
      if (!tariff) throw new Error('no tariff');
      last = await h.send(`/order ${kind}`, user);
      if (kind === 'hosting') await answer({ tap: 'Linux' });
      await answer({ tap: tariff.tariff_name });
      await answer(kind === 'ssl' ? t.year : t.month);
      if (kind === 'hosting') await answer('site.example.by');
      if (kind === 'ssl') await answer('shop.example.by');
      expected = {
        period_unit_count: 1,
        tariff_id: tariff.tariff_id,
        ...(kind === 'ssl' ? { domain: 'shop.example.by' } : {}),
        ...(kind === 'hosting' ? { domain: 'site.example.by' } : {}),
      };
    }
    await answer({ tap: 'BYN' });
    await answer({ tap: t.type[type] });
    const c = customer(type, lang);
    for (const a of c.answers) await answer(a);
    let whoisBlocks = {};
    if (kind === 'domain') {
      const w = whoisBy(type, lang);
      for (const a of w.answers) await answer(a);
      whoisBlocks = w.blocks;
    }
    await answer('+375 44 111-22-33');
    await answer('client@example.by');
    await answer({ tap: t.no });
    const before = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === PATHS[kind]).length;
    await answer({ tap: t.confirm });
    expect(texts(last).join('\n')).toContain(t.created);
    const posts = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === PATHS[kind]);
    expect(posts.length - before).toBe(1);
    expect(posts.at(-1)?.body).toEqual({
      ...expected,
      currency_id: 1,
      phone: '+375441112233',
      email: 'client@example.by',
      ...c.block,
      ...whoisBlocks,
    });
    if (kind === 'hosting') {
      // The provider's hosting list carries no domain: the details show the one the bot sent.
      last = await h.send('/orders hosting', user);
      const [newest] = buttons(last);
      if (!newest?.callback_data) throw new Error('no order button');
      last = await h.press(newest.callback_data, user);
      expect(texts(last).join('\n')).toMatch(/(Домен|Domain): site\.example\.by/);
    }
  });
});
