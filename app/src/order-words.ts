/*
 * The order form's own words, ru and en, beside the editor's table (words.ts). Prices, periods,
 * verdicts and refusals come from the server in the user's language and are shown as they are.
 */
import type { Lang } from './words.js';

const WORDS = {
  ru: {
    title: 'Новый заказ',
    kind: 'Что заказать',
    currency: 'Валюта',
    domain: 'Домен',
    domainPlaceholder: 'mysite.by',
    hostingDomain: 'Домен сайта (необязательно)',
    sslDomain: 'Домен сертификата',
    checking: 'Проверяю…',
    tariff: 'Тариф',
    pickTariff: 'Выберите тариф',
    period: 'Срок',
    pickPeriod: 'Выберите срок',
    periodAfterDomain: 'Сначала введите свободный домен',
    customer: 'Заказчик',
    pickCustomer: 'Выберите заказчика',
    noCustomers: 'Сохранённых заказчиков нет — добавьте нового.',
    newCustomer: 'Новый заказчик',
    fillCustomer: 'Дополнить карточку заказчика',
    total: 'Итого',
    confirm: 'Оформить заказ',
    sending: 'Оформляю…',
    doneTitle: 'Заказ оформлен',
    premiumNote: 'премиум-домен: регистратор может выставить цену выше',
    stillNeeded: 'Осталось выбрать',
    needs: {
      tariff: 'тариф',
      domain: 'свободный домен',
      sslDomain: 'домен сертификата',
      period: 'срок',
      customer: 'заказчика',
    },
    another: 'Ещё заказ',
    close: 'Закрыть',
    noRole: 'Ваша роль не позволяет оформлять заказы.',
    backToOrder: '← К заказу',
  },
  en: {
    title: 'New order',
    kind: 'What to order',
    currency: 'Currency',
    domain: 'Domain',
    domainPlaceholder: 'mysite.by',
    hostingDomain: 'Site domain (optional)',
    sslDomain: 'Certificate domain',
    checking: 'Checking…',
    tariff: 'Tariff',
    pickTariff: 'Choose a tariff',
    period: 'Term',
    pickPeriod: 'Choose a term',
    periodAfterDomain: 'Type a free domain first',
    customer: 'Customer',
    pickCustomer: 'Choose a customer',
    noCustomers: 'No saved customers yet — add one.',
    newCustomer: 'New customer',
    fillCustomer: 'Complete the customer’s card',
    total: 'Total',
    confirm: 'Place the order',
    sending: 'Placing…',
    doneTitle: 'Order placed',
    premiumNote: 'a premium domain: the registry may charge more',
    stillNeeded: 'Still to choose',
    needs: {
      tariff: 'a tariff',
      domain: 'a free domain',
      sslDomain: 'the certificate’s domain',
      period: 'a term',
      customer: 'a customer',
    },
    another: 'Another order',
    close: 'Close',
    noRole: 'Your role does not allow placing orders.',
    backToOrder: '← Back to the order',
  },
} as const;

export type OrderWords = (typeof WORDS)[Lang];

export function orderWordsFor(lang: Lang): OrderWords {
  return WORDS[lang];
}
