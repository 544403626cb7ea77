/**
 * A minimal stand-in for the partner API's four list calls, for the watchers' benchmark
 * (`bench/watchers.ts`). The sandbox keeps one partner's world; 10,000 of them would be too heavy,
 * so here any token `pb-<group>-<n>` gets a few invoices, payments, orders and domain orders of its
 * own (fields as in partner-api.md, dates `DD.MM.YYYY`), answered at once.
 *
 * It runs in a child process (this file, forked), so the bot process's CPU per poll does not
 * include the provider's. `/_bench/stats` says what it received (per token group) and its own
 * CPU; `/_bench/epoch?n=` gives every token `n` more payments, so the next polls find events.
 * It listens on 127.0.0.1, port 0.
 */
import { fork } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** What the stand-in received so far. */
export interface ProviderStats {
  /** List calls answered (the `/_bench` paths are not counted). */
  requests: number;
  /** List calls per token group: the `<group>` of `pb-<group>-<n>`. */
  byGroup: Record<string, number>;
  byPath: Record<string, number>;
  /** Calls with no token or one not of the `pb-<group>-<n>` form (answered 401). */
  rejected: number;
  /** The stand-in process's CPU (user + system) since it started, µs. */
  cpuUs: number;
}

export interface ProviderStandIn {
  /** Base URL for `PartnerTransport`. */
  url: string;
  stats(): Promise<ProviderStats>;
  /** From now on every token has `epoch` payments more than at the start (each a new `paymentArrived`). */
  setEpoch(epoch: number): Promise<void>;
  close(): Promise<void>;
}

/** A benchmark token: its group (which setup polls it) and its number. */
export function benchToken(group: string, index: number): string {
  return `pb-${group}-${index}`;
}

const TOKEN = /^pb-([A-Za-z0-9]+)-(\d{1,9})$/;
const DAY_MS = 86_400_000;

function ddmmyyyy(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
}

/**
 * One partner's lists. Dates are far from today (invoices due in 20+ days, domains expiring in
 * 200+ days), so no reminder is due: the only events are the payments an epoch adds.
 */
function listsOf(n: number, epoch: number, today: number) {
  const day = (offset: number) => ddmmyyyy(new Date(today + offset * DAY_MS));
  const base = n * 100;
  const number = (prefix: string, id: number) => `${prefix}-2026-${String(id).padStart(7, '0')}`;
  const order = (id: number, active: boolean, expires: number | null) => ({
    order_id: id,
    service_id: '3',
    number: number('ЗК', id),
    state: active ? 'Active' : 'NewOrder',
    order_datetime: `${day(-120)} 10:24`,
    complete_date: active ? day(-100) : null,
    expiration_date: expires === null ? null : day(expires),
    currency_id: 1,
    period_unit_type: 'Year',
    period_unit_count: '1',
    paid: active,
    completed: active,
    business_entity_type: n % 2 === 0 ? 'NaturalPerson' : 'JuridicalPerson',
  });
  const invoices = [1, 2, 3].map((k) => ({
    invoice_id: base + k,
    invoice_number: number('СЧ', base + k),
    order_id: base + 10 + k,
    creation_date: day(-10 + k),
    expiration_date: day(20 + k),
    amount: 12.5 * k,
    currency_id: 1,
    state: 'WaitingForPayment',
  }));
  const payments = [
    { payment_id: base + 1, invoice_id: base + 1, payment_date: day(-5), amount: 12.5 },
    { payment_id: base + 2, invoice_id: base + 2, payment_date: day(-2), amount: 10 },
  ];
  for (let e = 1; e <= epoch; e++) {
    payments.push({ payment_id: base + 50 + e, invoice_id: base + 3, payment_date: day(0), amount: 7.5 });
  }
  return {
    '/v1/billing/invoices': { invoices },
    '/v1/billing/payments': { payments },
    '/v1/orders': {
      orders: [
        order(base + 11, true, 265),
        order(base + 12, false, null),
        order(base + 13, true, 30 + (n % 300)),
      ],
    },
    '/v1/orders/domains': {
      orders: [21, 22].map((k) => ({
        ...order(base + k, true, 200 + k + (n % 100)),
        service_id: '1',
        advanced: {
          domain: `shop-${n}-${k}.by`,
          registered: true,
          renewed: false,
          registration_tariff_id: 101,
          renew_tariff_id: 102,
        },
      })),
    },
  };
}

type ListPath = keyof ReturnType<typeof listsOf>;
const LIST_PATHS = new Set<string>([
  '/v1/billing/invoices',
  '/v1/billing/payments',
  '/v1/orders',
  '/v1/orders/domains',
]);

function serve(): void {
  const today = Date.now();
  let epoch = 0;
  const stats = {
    requests: 0,
    byGroup: {} as Record<string, number>,
    byPath: {} as Record<string, number>,
    rejected: 0,
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/_bench/stats') {
      const cpu = process.cpuUsage();
      send(res, 200, { ...stats, cpuUs: cpu.user + cpu.system });
      return;
    }
    if (url.pathname === '/_bench/epoch') {
      epoch = Number(url.searchParams.get('n') ?? 0);
      send(res, 200, { epoch });
      return;
    }
    if (req.method !== 'GET' || !LIST_PATHS.has(url.pathname)) {
      send(res, 404, { message: 'not found' });
      return;
    }
    const match = TOKEN.exec(String(req.headers['x-api-token'] ?? ''));
    if (match === null) {
      stats.rejected++;
      send(res, 401, { message: 'Unauthorized' });
      return;
    }
    const [, group = '', index = '0'] = match;
    stats.requests++;
    stats.byGroup[group] = (stats.byGroup[group] ?? 0) + 1;
    stats.byPath[url.pathname] = (stats.byPath[url.pathname] ?? 0) + 1;
    send(res, 200, listsOf(Number(index), epoch, today)[url.pathname as ListPath]);
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  // The parent going away (or closing the channel) ends the stand-in: no orphan keeps the port.
  process.on('disconnect', () => process.exit(0));
}

/** Forks the stand-in and waits until it listens. */
export async function startProviderStandIn(): Promise<ProviderStandIn> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`provider stand-in exited (${code}) before listening`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    async stats() {
      return (await (await fetch(`${url}/_bench/stats`)).json()) as ProviderStats;
    },
    async setEpoch(epoch) {
      await (await fetch(`${url}/_bench/epoch?n=${epoch}`, { method: 'POST' })).arrayBuffer();
    },
    async close() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

if (process.argv.includes('--serve') && process.argv[1] === fileURLToPath(import.meta.url)) serve();
