/** The sandbox seed's orders: the partner's (and another partner's) orders, their name servers and DNS records. */
import type { CustomerType, DnsRecord, NameServer, Order, OrderDetails, Owner, Zone } from './state.js';

export const HOSTING_SERVERS: readonly NameServer[] = [
  { ns: 'ns1.sandbox-host.by', ip: null },
  { ns: 'ns2.sandbox-host.by', ip: null },
];

export const EDITOR_SERVERS: readonly NameServer[] = [
  { ns: 'dns1.sandbox-host.by', ip: null },
  { ns: 'dns2.sandbox-host.by', ip: null },
];

interface OrderSeed {
  id: number;
  owner?: Owner;
  service: number;
  datetime: string;
  period: number;
  customer: CustomerType;
  /** Paid, completed and active, with these completion and expiry dates. */
  active?: { complete: string; expires: string };
  details: OrderDetails;
}

function order(seed: OrderSeed, periodType: string): Order {
  const year = seed.datetime.slice(6, 10);
  return {
    order_id: seed.id,
    owner: seed.owner ?? 'self',
    service_id: seed.service,
    number: `ЗК-${year}-${String(seed.id).padStart(6, '0')}`,
    state: seed.active ? 'Active' : 'NewOrder',
    order_datetime: seed.datetime,
    complete_date: seed.active?.complete ?? null,
    expiration_date: seed.active?.expires ?? null,
    currency_id: 1,
    period_unit_type: periodType,
    period_unit_count: seed.period,
    paid: seed.active !== undefined,
    completed: seed.active !== undefined,
    business_entity_type: seed.customer,
    details: seed.details,
  };
}

function domainDetails(
  domain: string,
  zone: Zone,
  registered: boolean,
  servers: readonly NameServer[],
  records: DnsRecord[],
): OrderDetails {
  return {
    kind: 'domain',
    domain,
    registered,
    renewed: false,
    registration_tariff_id: zone.actual_registration_tariff_id,
    renew_tariff_id: zone.actual_renew_tariff_id,
    servers: servers.map((s) => ({ ...s })),
    records,
  };
}

function zoneNamed(zoneList: Zone[], name: string): Zone {
  const zone = zoneList.find((z) => z.name === name);
  if (!zone) throw new Error(`seed: no zone ${name}`);
  return zone;
}

export function orders(zoneList: Zone[], nextRecord: () => number): Order[] {
  const r = (type: DnsRecord['type'], ttl: number, value: string): DnsRecord => ({
    record_id: nextRecord(),
    type,
    ttl,
    value,
  });
  const by = zoneNamed(zoneList, 'by');
  const seeds: Array<[OrderSeed, string]> = [
    [
      {
        id: 1001,
        service: 10,
        datetime: '15.01.2026 10:24',
        period: 12,
        customer: 'NaturalPerson',
        active: { complete: '16.01.2026', expires: '16.01.2027' },
        details: { kind: 'hosting', tariff_id: 102, domain: 'mysite.by' },
      },
      'month',
    ],
    [
      {
        id: 1002,
        service: 11,
        datetime: '03.03.2026 14:05',
        period: 6,
        customer: 'JuridicalPerson',
        details: { kind: 'hosting', tariff_id: 111, domain: null },
      },
      'month',
    ],
    [
      {
        id: 1003,
        service: 20,
        datetime: '20.02.2026 09:30',
        period: 12,
        customer: 'JuridicalPerson',
        active: { complete: '20.02.2026', expires: '20.02.2027' },
        details: { kind: 'mail', tariff_id: 202 },
      },
      'month',
    ],
    [
      {
        id: 1004,
        service: 30,
        datetime: '16.01.2026 11:00',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '17.01.2026', expires: '17.01.2027' },
        details: {
          kind: 'ssl',
          tariff_id: 301,
          domain: 'mysite.by',
          use_csr: false,
          valid_from_date: '17.01.2026',
          valid_till_date: '17.01.2027',
        },
      },
      'year',
    ],
    [
      {
        id: 1005,
        service: 30,
        datetime: '10.11.2026 16:45',
        period: 2,
        customer: 'IndividualBusinessman',
        details: {
          kind: 'ssl',
          tariff_id: 302,
          domain: '*.bakery.by',
          use_csr: true,
          valid_from_date: null,
          valid_till_date: null,
        },
      },
      'year',
    ],
    [
      {
        id: 1006,
        service: 40,
        datetime: '14.01.2026 18:12',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '15.01.2026', expires: '15.01.2027' },
        details: domainDetails('mysite.by', by, true, EDITOR_SERVERS, [
          r('A', 3600, '@ 93.125.99.10'),
          r('A', 3600, 'www 93.125.99.10'),
          r('AAAA', 3600, '@ 2a00:1760:1:1::10'),
          r('CNAME', 3600, 'ftp mysite.by'),
          r('MX', 3600, '@ 10 mx1.sandbox-host.by'),
          r('MX', 3600, '@ 20 mx2.sandbox-host.by'),
          r('TXT', 3600, '@ v=spf1 include:_spf.sandbox-host.by ~all'),
          r('TXT', 3600, '_dmarc v=DMARC1; p=none; rua=mailto:dmarc@mysite.by'),
          r('SRV', 3600, '@ _sip _tcp 10 60 5060 sip.mysite.by'),
          r('NS', 86400, 'shop ns1.other-dns.by'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1007,
        service: 40,
        datetime: '05.06.2026 12:00',
        period: 2,
        customer: 'NaturalPerson',
        active: { complete: '06.06.2026', expires: '06.06.2028' },
        details: domainDetails('пример.бел', zoneNamed(zoneList, 'бел'), true, HOSTING_SERVERS, [
          r('A', 3600, '@ 93.125.99.20'),
          r('A', 3600, 'www 93.125.99.20'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1008,
        service: 40,
        datetime: '22.08.2026 08:15',
        period: 1,
        customer: 'NaturalPerson',
        details: domainDetails('shop.com.by', zoneNamed(zoneList, 'com.by'), false, HOSTING_SERVERS, []),
      },
      'year',
    ],
    [
      {
        id: 1009,
        service: 40,
        datetime: '01.10.2026 10:00',
        period: 1,
        customer: 'IndividualBusinessman',
        active: { complete: '02.10.2026', expires: '02.10.2027' },
        details: domainDetails(
          'mycompany.ru',
          zoneNamed(zoneList, 'ru'),
          true,
          [
            { ns: 'ns1.mycompany.ru', ip: '185.12.34.56' },
            { ns: 'ns2.mycompany.ru', ip: '185.12.34.57' },
          ],
          [r('A', 600, '@ 185.12.34.60'), r('MX', 600, '@ 5 mail.mycompany.ru')],
        ),
      },
      'year',
    ],
    [
      {
        id: 1010,
        service: 40,
        datetime: '12.11.2026 19:40',
        period: 1,
        customer: 'NaturalPerson',
        details: domainDetails('мойсайт.рф', zoneNamed(zoneList, 'рф'), false, EDITOR_SERVERS, [
          r('TXT', 300, '@ "google-site-verification=Zx8fQ2mVb7Lk1Rt0PqWs3NyHc5JdUe9A"'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1011,
        service: 40,
        datetime: '02.04.2026 09:00',
        period: 3,
        customer: 'JuridicalPerson',
        active: { complete: '02.04.2026', expires: '02.04.2029' },
        details: domainDetails('belbakery.com', zoneNamed(zoneList, 'com'), true, EDITOR_SERVERS, [
          r('A', 3600, '@ 178.124.130.5'),
          r('CNAME', 3600, 'www belbakery.com'),
          r('MX', 3600, '@ 10 mx.yandex.net'),
          r('TXT', 3600, '@ v=spf1 redirect=_spf.yandex.net'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1012,
        service: 20,
        datetime: '18.11.2026 15:30',
        period: 3,
        customer: 'IndividualBusinessman',
        details: { kind: 'mail', tariff_id: 201 },
      },
      'month',
    ],
    [
      {
        id: 9001,
        owner: 'foreign',
        service: 40,
        datetime: '11.03.2026 13:13',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '12.03.2026', expires: '12.03.2027' },
        details: domainDetails('foreign-partner.by', by, true, HOSTING_SERVERS, [
          r('A', 3600, '@ 93.125.99.99'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 9002,
        owner: 'foreign',
        service: 10,
        datetime: '11.03.2026 13:20',
        period: 3,
        customer: 'NaturalPerson',
        details: { kind: 'hosting', tariff_id: 101, domain: 'foreign-partner.by' },
      },
      'month',
    ],
  ];
  return seeds.map(([seed, periodType]) => order(seed, periodType));
}

/**
 * The orders of the sandbox's partner number `n` (2, 3, …; `startSandbox({ partners })`): a small
 * world of its own, with ids and domains no other partner has: ids are the first partner's plus
 * (n − 1) × 10000 (partner 2: orders 11001–11004, records from 40001) and the domains are
 * `studio-<letter>.by` and `studio-<letter>.com` (partner 2: `studio-b.by`, `studio-b.com`).
 */
export function partnerOrders(zoneList: Zone[], nextRecord: () => number, n: number): Order[] {
  const base = (n - 1) * 10_000;
  const name = `studio-${partnerLetter(n)}`;
  const r = (type: DnsRecord['type'], ttl: number, value: string): DnsRecord => ({
    record_id: nextRecord(),
    type,
    ttl,
    value,
  });
  const seeds: Array<[OrderSeed, string]> = [
    [
      {
        id: base + 1001,
        service: 10,
        datetime: '10.02.2026 12:00',
        period: 12,
        customer: 'NaturalPerson',
        active: { complete: '11.02.2026', expires: '11.02.2027' },
        details: { kind: 'hosting', tariff_id: 101, domain: `${name}.by` },
      },
      'month',
    ],
    [
      {
        id: base + 1002,
        service: 40,
        datetime: '10.02.2026 12:10',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '11.02.2026', expires: '11.02.2027' },
        details: domainDetails(`${name}.by`, zoneNamed(zoneList, 'by'), true, EDITOR_SERVERS, [
          r('A', 3600, '@ 192.0.2.20'),
          r('CNAME', 3600, `www ${name}.by`),
          r('MX', 3600, `@ 10 mail.${name}.by`),
          r('TXT', 3600, '@ v=spf1 a mx -all'),
        ]),
      },
      'year',
    ],
    [
      {
        id: base + 1003,
        service: 40,
        datetime: '05.11.2026 16:45',
        period: 1,
        customer: 'JuridicalPerson',
        details: domainDetails(`${name}.com`, zoneNamed(zoneList, 'com'), false, HOSTING_SERVERS, []),
      },
      'year',
    ],
    [
      {
        id: base + 1004,
        service: 20,
        datetime: '06.11.2026 10:15',
        period: 3,
        customer: 'NaturalPerson',
        details: { kind: 'mail', tariff_id: 201 },
      },
      'month',
    ],
  ];
  return seeds.map(([seed, periodType]) => order(seed, periodType));
}

/** `b` for partner 2, `c` for 3, …: the letter in its domains (`studio-b.by`). */
export function partnerLetter(n: number): string {
  return n >= 2 && n <= 26 ? String.fromCharCode(96 + n) : String(n);
}
