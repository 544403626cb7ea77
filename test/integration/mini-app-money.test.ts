/*
 * Issue 43, the server's side: «Счета», statements and the home's three blocks of the Mini App's
 * API on the sandbox (two partners), each answer held to the contract. Every refusal is here: a
 * forged or stale launch, another tenant's invoice or statement (404, never 403), a role without
 * billing (403 in words), a statement file's address expired (410) or tampered (403). The home's
 * blocks ask the provider once each with warm caches; Share hands the bot's port the card's facts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from '@tma.js/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, PartnerTransport } from '../../src/api/index.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { formatMoney } from '../../src/core/format.js';
import type { BotServer } from '../../src/http-server.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createDnsRecorder } from '../../src/services/dns-journal.js';
import type { InvoiceCardRequest } from '../../src/services/invoice-cards.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createDnsHistory } from '../../src/storage/dns-history.js';
import { createLowdbDnsHistoryStore } from '../../src/storage/dns-history-store.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { apiCaller, signLaunch, startMiniAppApi } from '../helpers/mini-app-api.js';

const BOT_TOKEN = '7000000043:AAH-money-test-bot-token_0123456789abc';
const OWNER = 4301;
const ACCOUNTANT = 4302;
const TECH = 4303;
const VIEWER = 4304;
const GROUP = -1009000000043;
const APP_URL = 'https://bot.example.by/app/';

let sandbox: Sandbox;
let transport: PartnerTransport;
let server: BotServer;
let dataDir: string;
let chatData: ChatData;
let base: string;
/** The endpoints' today, and the statement files' clock: each test moves them as it needs. */
let today = new Date('2026-11-01T09:00:00Z');
let fileClock = Date.now();
const lines: string[] = [];
const bodies: string[] = [];
/** The provider's operations called, in order. */
const provider: string[] = [];
const prepared: InvoiceCardRequest[] = [];
const { t } = loadTranslations();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, partners: [{}] });
  transport = new PartnerTransport({
    baseUrl: sandbox.url,
    retryDelayMs: 1,
    onCall: (event) => void provider.push(event.operation),
  });
  dataDir = await mkdtemp(join(tmpdir(), 'mini-app-money-'));
  const keyring = parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`);
  chatData = createChatData({ store: createLowdbStore({ dataDir: join(dataDir, 'data') }), keyring });
  await chatData.setToken(OWNER, sandbox.token);
  await chatData.setToken(GROUP, sandbox.token);
  await chatData.setTeam(GROUP, {
    owner: OWNER,
    members: { [OWNER]: 'owner', [ACCOUNTANT]: 'accountant', [TECH]: 'tech', [VIEWER]: 'viewer' },
    names: { [OWNER]: 'Olga', [ACCOUNTANT]: 'Anna', [TECH]: 'Tim', [VIEWER]: 'Vera' },
  });
  const dnsHistory = createDnsHistory({
    store: createLowdbDnsHistoryStore({ dataDir: join(dataDir, 'data') }),
    keyring,
  });
  ({ server, base } = await startMiniAppApi({
    botToken: BOT_TOKEN,
    partnerApiUrl: sandbox.url,
    chatData,
    apiFor: createApiFactory(transport),
    lines,
    services: (logger) => {
      const recorder = createDnsRecorder({ chatData, dnsHistory, logger });
      return {
        dnsHistory: recorder,
        invoiceCards: {
          async prepare(request) {
            prepared.push(request);
            return { id: `prepared-${prepared.length}`, expiresAt: new Date('2026-11-02T09:00:00Z') };
          },
        },
      };
    },
    more: { clock: () => today, now: () => fileClock },
  }));
  // Two changes of mysite.by (order 1006) made on the owner's account: a record, then the name servers.
  const recorder = createDnsRecorder({
    chatData,
    dnsHistory,
    logger: { warn: () => undefined } as never,
  });
  const who = { chatId: OWNER, userId: OWNER, name: 'Olga', account: 1 };
  await recorder.record(who, 1006, 'add', {
    records: [{ op: 'add', record: { type: 'A', host: 'www', ttl: 3600, ipv4: '192.0.2.10' } }],
  });
  await new Promise((resolve) => setTimeout(resolve, 5));
  await recorder.record(who, 1006, 'ns', {
    nameServers: { before: [{ ns: 'ns1.sandbox-host.by' }], after: [{ ns: 'dns1.sandbox-host.by' }] },
  });
});

afterAll(async () => {
  await server?.close();
  await transport?.close();
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const call = apiCaller(() => base, bodies);
const owner = () => signLaunch(BOT_TOKEN, { id: OWNER, first_name: 'Olga' });
const member = (id: number) => signLaunch(BOT_TOKEN, { id, first_name: 'Member' }, `g${GROUP}`);
const byn = (amount: number) => formatMoney(amount, 'BYN', 'ru');

describe('«Счета»', () => {
  it('lists every invoice newest first, in the user’s words, with payments and the order’s facts', async () => {
    today = new Date('2026-11-01T09:00:00Z');
    const { status, json } = await call('api/billing/invoices', owner());
    expect(status).toBe(200);
    const invoices = json.invoices as Record<string, unknown>[];
    expect(invoices.map((i) => i.id)).toEqual([
      5012, 5010, 5005, 5009, 5008, 5007, 5011, 5002, 5003, 5004, 5001, 5006,
    ]);
    const shop = invoices.find((i) => i.id === 5008);
    expect(shop).toMatchObject({
      number: 'СФ-2026-5008',
      orderId: 1008,
      created: '2026-08-22',
      createdText: '22 августа 2026 г.',
      expires: '2026-08-27',
      amount: { amount: 24, currency: 'BYN', text: byn(24) },
      // Unpaid past its day (the clock says 1 November): overdue, and said so.
      status: 'expired',
      statusText: 'срок оплаты истёк',
      domain: 'shop.com.by',
      orderNumber: expect.stringMatching(/^ЗК-\d{4}-001008$/),
      // What was ordered: the order's service, named as the chat's /orders names it.
      what: 'Регистрация доменов',
      payments: [],
    });
    expect(invoices.find((i) => i.id === 5012)).toMatchObject({ status: 'unpaid' });
    expect(invoices.find((i) => i.id === 5001)).toMatchObject({ status: 'paid', statusText: 'оплачен' });
    // The seed's payments of paid invoices come along, as /payments lists them.
    const paid = invoices.filter((i) => (i.payments as unknown[]).length > 0);
    expect(paid.length).toBeGreaterThan(0);
    expect(paid.every((i) => i.status === 'paid')).toBe(true);
  });

  it('gives an invoice’s public link', async () => {
    const { status, json } = await call('api/billing/link', owner(), { invoiceId: 5008 });
    expect(status).toBe(200);
    expect(json.url).toBe(await createApiFactory(transport)(sandbox.token).getInvoiceUrl(5008));
  });

  it('shares through the bot’s port: the invoice, its link, the currencies, for this user and chat', async () => {
    prepared.length = 0;
    const { status, json } = await call('api/billing/share', owner(), { invoiceId: 5008 });
    expect(status).toBe(200);
    expect(json).toEqual({ id: 'prepared-1', expiresAt: '2026-11-02T09:00:00.000Z' });
    expect(prepared).toHaveLength(1);
    const [request] = prepared;
    expect(request).toMatchObject({ chatId: OWNER, userId: OWNER, locale: 'ru' });
    expect(request?.invoice.invoice_id).toBe(5008);
    expect(request?.url).toBe(await createApiFactory(transport)(sandbox.token).getInvoiceUrl(5008));
    expect(request?.currencyCodes.get(1)).toBe('BYN');
    // A team group's accountant shares the group's invoice: the card names the group's chat.
    await call('api/billing/share', member(ACCOUNTANT), { invoiceId: 5010 });
    expect(prepared[1]).toMatchObject({ chatId: GROUP, userId: ACCOUNTANT });
  });

  it('lists the statements newest first, each with its period and amount in words', async () => {
    const { status, json } = await call('api/billing/statements', owner());
    expect(status).toBe(200);
    const statements = json.statements as Record<string, unknown>[];
    expect(statements.map((s) => s.id)).toEqual([8007, 8006, 8005, 8004, 8003, 8002, 8001]);
    expect(statements[6]).toMatchObject({
      number: 'АКТ-2026-8001',
      periodText: expect.stringContaining(' — '),
    });
  });
});

describe('a statement’s file', () => {
  const local = (url: string) => url.replace(APP_URL, base);

  it('is a signed address under the app that serves the provider’s document as an attachment', async () => {
    fileClock = Date.now();
    const { status, json } = await call('api/billing/statement-file', owner(), { statementId: 8001 });
    expect(status).toBe(200);
    expect(json.fileName).toBe('Акт-сверки-АКТ-2026-8001.html');
    expect(String(json.url)).toMatch(/^https:\/\/bot\.example\.by\/app\/files\/statement\/[\w-]+\.[\w-]+$/);
    expect(Date.parse(String(json.expiresAt)) - fileClock).toBe(5 * 60_000);
    // Telegram's client fetches it with no initData.
    const file = await fetch(local(String(json.url)));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/html/);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent('Акт-сверки-АКТ-2026-8001.html')}`,
    );
    const document = await fetch(await createApiFactory(transport)(sandbox.token).getStatementUrl(8001));
    expect(await file.text()).toBe(await document.text());
  });

  it('is refused when expired (410) or tampered with (403), with a short page in words', async () => {
    fileClock = Date.now();
    const { json } = await call('api/billing/statement-file', owner(), { statementId: 8002 });
    const url = local(String(json.url));
    const token = url.slice(url.lastIndexOf('/') + 1);
    const [payload = '', signature = ''] = token.split('.');
    // Another statement named in the same signed claim: the signature no longer fits.
    const claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claim, s: 8003 })).toString('base64url');
    const tampered = await fetch(url.replace(payload, forged), { headers: { 'accept-language': 'ru' } });
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain(t('ru', 'miniapp:error.fileForged'));
    const unsigned = await fetch(url.replace(signature, 'x'.repeat(signature.length)));
    expect(unsigned.status).toBe(403);
    // Five minutes later the same address is spent.
    fileClock += 5 * 60_000 + 1;
    const late = await fetch(url, { headers: { 'accept-language': 'ru' } });
    expect(late.status).toBe(410);
    expect(await late.text()).toContain(t('ru', 'miniapp:error.fileExpired'));
    fileClock = Date.now();
    expect((await fetch(url.replace(/files\/statement\/.*/, 'files/statement/'))).status).toBe(403);
  });
});

describe('a statement’s file, after the role is gone', () => {
  it('is refused (403) once its user no longer holds billing in the group', async () => {
    fileClock = Date.now();
    const { json } = await call('api/billing/statement-file', member(ACCOUNTANT), { statementId: 8001 });
    const url = String(json.url).replace(APP_URL, base);
    expect((await fetch(url)).status).toBe(200);
    const team = await chatData.getTeam(GROUP);
    if (team === undefined) throw new Error('no team');
    await chatData.setTeam(GROUP, { ...team, members: { ...team.members, [ACCOUNTANT]: 'viewer' } });
    try {
      expect((await fetch(url)).status).toBe(403);
    } finally {
      await chatData.setTeam(GROUP, team);
    }
  });
});

describe('the home', () => {
  it('tells what is owed: the unpaid invoices, overdue ones too, newest first and a total per currency', async () => {
    today = new Date('2026-11-01T09:00:00Z');
    const { status, json } = await call('api/home/owed', owner());
    expect(status).toBe(200);
    const owed = json.invoices as { id: number; status: string }[];
    expect(owed.map((i) => [i.id, i.status])).toEqual([
      [5012, 'unpaid'],
      [5010, 'unpaid'],
      [5005, 'unpaid'],
      [5008, 'expired'],
      [5002, 'expired'],
    ]);
    // 372.10 of the three payable, and the overdue 5008 (24.00) and 5002 (84.93).
    expect(json.totals).toEqual([
      { amount: { amount: 481.03, currency: 'BYN', text: byn(481.03) }, count: 5 },
    ]);
  });

  it('lists the domains ending within 30 days, and those already ended, in the chat’s words', async () => {
    today = new Date('2026-12-20T09:00:00Z');
    const soon = await call('api/home/expiring', owner());
    expect(soon.json.domains).toEqual([
      {
        domain: 'mysite.by',
        domainUnicode: 'mysite.by',
        orderId: 1006,
        expires: '2027-01-15',
        whenText: 'через 26 дней',
        daysLeft: 26,
      },
    ]);
    today = new Date('2027-01-17T09:00:00Z');
    const ended = await call('api/home/expiring', owner());
    expect(ended.json.domains).toMatchObject([
      { domain: 'mysite.by', daysLeft: -2, whenText: 'истёк 2 дня назад' },
    ]);
    today = new Date('2026-11-01T09:00:00Z');
    expect((await call('api/home/expiring', owner())).json.domains).toEqual([]);
  });

  it('lists the latest DNS changes of the account, newest first, as the history tells them', async () => {
    const { status, json } = await call('api/home/changes', owner());
    expect(status).toBe(200);
    const changes = json.changes as Record<string, unknown>[];
    expect(changes.map((c) => c.text)).toEqual([
      'NS-серверы: ns1.sandbox-host.by → dns1.sandbox-host.by',
      'Добавить: A www 192.0.2.10 · TTL 3600',
    ]);
    expect(changes[0]).toMatchObject({ domain: 'mysite.by', domainUnicode: 'mysite.by', by: 'Olga' });
  });

  it('asks the provider once per block with warm caches, and never the same list twice', async () => {
    const blocks = () =>
      Promise.all([
        call('api/home/owed', owner()),
        call('api/home/expiring', owner()),
        call('api/home/changes', owner()),
      ]);
    await blocks();
    provider.length = 0;
    const answers = await blocks();
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // owed: the invoice list; expiring: the domain order list; changes: the history (currencies
    // and the domain order index come from the client's per-token cache).
    expect([...provider].sort()).toEqual(['listDomainOrders', 'listInvoices']);
  });
});

describe('refusals', () => {
  it('refuses a forged launch and a stale one (401), in words', async () => {
    const forged = signLaunch('7000000043:AAH-another-bot-token_0123456789abcdef', {
      id: OWNER,
      first_name: 'Olga',
    });
    const a = await call('api/billing/invoices', forged);
    expect(a).toMatchObject({ status: 401, json: { error: 'badSignature' } });
    const stale = sign(
      { user: { id: OWNER, first_name: 'Olga', language_code: 'ru' } },
      BOT_TOKEN,
      new Date(Date.now() - 3 * 86_400_000),
    );
    const b = await call('api/home/owed', stale);
    expect(b).toMatchObject({ status: 401, json: { error: 'expired' } });
    // Not yet trusted, the launch's language is not taken: the browser's, else the default.
    expect(b.json.message).toBe(t('en', 'miniapp:error.expired'));
  });

  it('answers another tenant’s invoice and statement ids as nothing (404), and prepares no card', async () => {
    prepared.length = 0;
    const link = await call('api/billing/link', owner(), { invoiceId: 15003 });
    expect(link).toMatchObject({ status: 404, json: { error: 'invoiceNotFound' } });
    expect(link.json.message).toBe(t('ru', 'miniapp:error.invoiceNotFound'));
    const share = await call('api/billing/share', owner(), { invoiceId: 15004 });
    expect(share).toMatchObject({ status: 404, json: { error: 'invoiceNotFound' } });
    expect(prepared).toEqual([]);
    const file = await call('api/billing/statement-file', owner(), { statementId: 18001 });
    expect(file).toMatchObject({ status: 404, json: { error: 'statementNotFound' } });
    expect(file.json.message).toBe(t('ru', 'miniapp:error.statementNotFound'));
  });

  it('refuses billing to a role without it (403 in words), while the look-up blocks stay open', async () => {
    for (const id of [TECH, VIEWER]) {
      for (const path of ['billing/invoices', 'billing/statements', 'home/owed']) {
        const refused = await call(`api/${path}`, member(id));
        expect(refused).toMatchObject({ status: 403, json: { error: 'roleTooLow' } });
        expect(refused.json.message).toContain(t('ru', 'team:role.accountant'));
      }
      const share = await call('api/billing/share', member(id), { invoiceId: 5008 });
      expect(share.status).toBe(403);
      const file = await call('api/billing/statement-file', member(id), { statementId: 8001 });
      expect(file.status).toBe(403);
      expect((await call('api/home/expiring', member(id))).status).toBe(200);
      expect((await call('api/home/changes', member(id))).status).toBe(200);
    }
    expect((await call('api/billing/invoices', member(ACCOUNTANT))).status).toBe(200);
  });

  it('never answers a token or the initData', () => {
    for (const body of bodies) {
      expect(body).not.toContain(sandbox.token);
      expect(body).not.toContain(BOT_TOKEN);
    }
    expect(lines.join('\n')).not.toContain(sandbox.token);
  });
});
