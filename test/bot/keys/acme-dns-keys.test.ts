import { Resolver } from 'node:dns/promises';
import { describe, expect, it } from 'vitest';
import type { DnsProbe } from '../../../src/core/dns-check.js';
import { createDnsProbe } from '../../../src/dns-check/probe.js';
import { type BotServer, startBotServer } from '../../../src/http-server.js';
import { createLogger } from '../../../src/logger.js';
import { type BotCall, buttonData, buttons, lastText, texts, USER_ID } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * Issue 41: acme-dns from the chat. A certificate key made for cert-manager gets its account at
 * once (the secret exists only then): the CNAME at `_acme-challenge` in the partner's own zone,
 * the account JSON shown once, and `POST /update` with that JSON sets the TXT. The gateway's
 * routes run on a real HTTP server of the story's own, wired over the bot as main.ts wires them.
 */

const GATEWAY = 'https://bot.example.invalid';
let probe: DnsProbe | undefined;
let server: BotServer | undefined;
let resolver: Resolver;
const { h } = useBot({
  dnsServer: true,
  gatewayUrl: GATEWAY,
  robotGateway: {
    probe: {
      addressesOf: (at, signal) => (probe as DnsProbe).addressesOf(at, signal),
      ask: (address, name, type, signal) => (probe as DnsProbe).ask(address, name, type, signal),
    },
  },
  connect: ['partner'],
  reset: ['faults', 'scene'],
  setUp: async (bot) => {
    const port = bot.sandbox.dns?.port ?? 0;
    probe = createDnsProbe({ port, everyServerAt: '127.0.0.1', timeoutMs: 500, tries: 1 });
    resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    server = await startBotServer({
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ level: 'silent' }),
      health: () => ({}),
      onUpdate: () => undefined,
      routes: bot.robotGateway?.routes ?? [],
    });
  },
  afterStop: () => server?.close(),
});

const all = (calls: BotCall[]) => texts(calls).join('\n');
/** The provider's writes so far (adds and deletes). */
const writes = () => h.sandbox.requests.filter((r) => r.method !== 'GET');

interface Account {
  username: string;
  password: string;
  fulldomain: string;
  subdomain: string;
  allowfrom: string[];
}
/** The account JSON the secret message showed. */
const accountOf = (calls: BotCall[]): Account => {
  const json = /<pre>(\{"username".*?\})<\/pre>/.exec(all(calls))?.[1];
  if (!json) throw new Error(`no account JSON in: ${all(calls)}`);
  return JSON.parse(json.replace(/&amp;/g, '&')) as Account;
};
const txt = (n: number) => `${String(n).padStart(2, '0')}${'x'.repeat(41)}`;

async function update(account: Pick<Account, 'username' | 'password' | 'subdomain'>, value: string) {
  const address = server?.port;
  const response = await fetch(`http://127.0.0.1:${address}/update`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-user': account.username,
      'x-api-key': account.password,
    },
    body: JSON.stringify({ subdomain: account.subdomain, txt: value }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Makes a certificate key for `scope` through the form, choosing the client; the summary. */
async function fillForm(scope: string, client: string, name: string): Promise<BotCall[]> {
  let step = await h.send('/keys new');
  step = await h.press(buttonData(step, '🔒 Сертификат'));
  step = await h.send(scope);
  expect(lastText(step)).toContain('Чем будете получать сертификат?');
  expect(buttons(step).map((b) => b.text)).toEqual(
    expect.arrayContaining(['lego / acme.sh / certbot', 'cert-manager (acme-dns)']),
  );
  for (const b of buttons(step)) expect(b.text.length, b.text).toBeLessThanOrEqual(30);
  step = await h.press(buttonData(step, client));
  expect(lastText(step)).toContain('Как назвать ключ?');
  step = await h.send(name);
  return h.press(buttonData(step, 'Пропустить'));
}

/** Words of the code that must never reach a Russian screen. */
const CODE_WORDS = ['occupied', 'refusal', 'acmeDns', 'provider', 'undefined', 'keys:', 'certificate'];

describe('acme-dns from /keys', () => {
  it('makes a key for cert-manager: the CNAME in one call, the JSON once, and /update sets the TXT', async () => {
    const summary = await fillForm('cm.mysite.by', 'cert-manager (acme-dns)', 'Кластер');
    expect(all(summary)).toContain('Клиент: cert-manager (acme-dns)');
    const before = writes().length;
    const made = await h.press(buttonData(summary, '🔑 Создать ключ'));
    const text = all(made);
    const account = accountOf(made);
    expect(account).toEqual({
      username: expect.stringMatching(/^k[a-z2-7]{12}$/),
      password: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      fulldomain: `${account.subdomain}._acme-dns.cm.mysite.by`,
      subdomain: expect.stringMatching(/^[0-9a-f-]{36}$/),
      allowfrom: [],
    });
    expect(await h.robotKeys.verify(account.username, account.password)).toMatchObject({
      kind: 'certificate',
      scope: 'cm.mysite.by',
    });
    // What was made in the zone, said; exactly one provider write: the CNAME's add.
    expect(text).toContain(
      `В зоне сделана запись <code>_acme-challenge.cm.mysite.by</code> → CNAME <code>${account.fulldomain}</code>`,
    );
    expect(
      writes()
        .slice(before)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['POST /v1/domains/1006/dns/records/cname']);
    expect(await resolver.resolveCname('_acme-challenge.cm.mysite.by')).toEqual([account.fulldomain]);
    // The CNAME is in the history as the key's change (↩ Undo is there), but the chat that asked
    // for it is told by the message above, not by an «автообновление» line of its own.
    expect(made.some((c) => String(c.payload.text).startsWith('🔑 автообновление'))).toBe(false);
    const history = await h.send('/dns mysite.by history');
    expect(all(history)).toContain('ключ «Кластер»');
    expect(all(history)).toContain('_acme-challenge.cm');
    // The cert-manager lines: the Secret and the solver pointing at this server.
    expect(text).toContain('kubectl -n cert-manager create secret generic partner-bot-acme-dns');
    expect(text).toContain(`host: ${GATEWAY}`);
    expect(text).toContain('<code>{"cm.mysite.by": …}</code>');
    // httpreq's configs are not this key's client: not shown.
    expect(text).not.toContain('HTTPREQ_ENDPOINT');
    for (const word of CODE_WORDS) expect(text).not.toContain(word);
    // The copy button copies exactly the JSON, when it fits Telegram's 256 characters.
    const copy = buttons(made).find((b) => b.text === '📋 JSON учётной записи')?.copy_text?.text;
    if (JSON.stringify(account).length <= 256) expect(copy).toBe(JSON.stringify(account));
    else expect(copy).toBeUndefined();

    // A robot with that JSON: the TXT goes to the fulldomain, served, and this first robot's
    // change is the one the chat is told of.
    const sinceUpdate = h.calls.length;
    const answer = await update(account, txt(1));
    expect(answer).toEqual({ status: 200, json: { txt: txt(1) } });
    const told = h.calls
      .slice(sinceUpdate)
      .find((c) => String(c.payload.text).startsWith('🔑 автообновление'));
    expect(String(told?.payload.text)).toContain('(ключ «Кластер»)');
    expect(buttons([told as BotCall]).map((b) => b.text)).toEqual(['↩ Отменить']);
    expect((await resolver.resolveTxt(account.fulldomain)).map((r) => r.join(''))).toEqual([txt(1)]);
    // Through the CNAME, as the CA asks.
    expect((await resolver.resolveTxt('_acme-challenge.cm.mysite.by')).map((r) => r.join(''))).toEqual([
      txt(1),
    ]);
  });

  it('refuses where a TXT already stands at _acme-challenge: no key, nothing changed, and says what to do', async () => {
    await h.send('/dns 1006 add TXT _acme-challenge.blocked ttl=300 "hand-made"');
    const keysBefore = (await h.robotKeys.list(USER_ID)).length;
    const summary = await fillForm('blocked.mysite.by', 'cert-manager (acme-dns)', 'Заблокирован');
    const before = writes().length;
    const refused = await h.press(buttonData(summary, '🔑 Создать ключ'));
    const text = all(refused);
    expect(text).toContain('Ключ для cert-manager не создан, в зоне ничего не изменилось');
    expect(text).toContain('В _acme-challenge.blocked.mysite.by уже есть запись (TXT)');
    expect(text).toContain('Удалите её (/dns mysite.by)');
    expect(text).toContain('lego / acme.sh / certbot');
    for (const word of CODE_WORDS) expect(text).not.toContain(word);
    expect(text).not.toMatch(/Пароль: <code>/);
    expect(writes().length).toBe(before);
    expect((await h.robotKeys.list(USER_ID)).length).toBe(keysBefore);
    // The summary is back: Create is one press away once the record is gone.
    expect(buttons(refused).map((b) => b.text)).toContain('🔑 Создать ключ');
  });

  it('rotates an acme-dns key: the same account with the new password, the old one refused', async () => {
    const summary = await fillForm('rot.mysite.by', 'cert-manager (acme-dns)', 'Ротация');
    const first = accountOf(await h.press(buttonData(summary, '🔑 Создать ключ')));
    expect((await update(first, txt(2))).status).toBe(200);

    const list = await h.send('/keys');
    const ask = await h.press(buttonData(list, '🔄 Ротация'));
    const before = writes().length;
    const rotated = await h.press(buttonData(ask, '🔄 Да, новый пароль'));
    const text = all(rotated);
    expect(text).toContain('Новый пароль ключа «Ротация»');
    const second = accountOf(rotated);
    expect(second).toEqual({ ...first, password: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(second.password).not.toBe(first.password);
    expect(text).toContain('уже стоит, её менять не нужно');
    for (const word of CODE_WORDS) expect(text).not.toContain(word);
    // Nothing new in the zone: the CNAME stands.
    expect(writes().length).toBe(before);

    expect(await update(first, txt(3))).toEqual({ status: 401, json: { error: 'forbidden' } });
    expect(await update(second, txt(4))).toEqual({ status: 200, json: { txt: txt(4) } });
  });

  it('rotates a key whose CNAME gave way to a TXT: the new password with httpreq, and why no JSON', async () => {
    const summary = await fillForm('moved.mysite.by', 'cert-manager (acme-dns)', 'Переезд');
    const first = accountOf(await h.press(buttonData(summary, '🔑 Создать ключ')));
    const api = h.api();
    const cname = (await api.listDnsRecords(1006)).find((r) => r.value.startsWith('_acme-challenge.moved '));
    await api.deleteDnsRecord(1006, 'cname', cname?.record_id ?? 0);
    await h.send('/dns 1006 add TXT _acme-challenge.moved ttl=300 "by hand"');

    const ask = await h.press(buttonData(await h.send('/keys'), '🔄 Переезд'));
    const before = writes().length;
    const rotated = await h.press(buttonData(ask, '🔄 Да, новый пароль'));
    const text = all(rotated);
    expect(text).toContain('Новый пароль ключа «Переезд»');
    expect(text).toContain('Учётную запись acme-dns с новым паролем выдать не удалось');
    expect(text).toContain('В _acme-challenge.moved.mysite.by уже есть запись (TXT)');
    expect(text).not.toMatch(/<pre>\{"username"/);
    // httpreq works with the new password whatever stands there: its setup is shown.
    expect(text).toContain('HTTPREQ_ENDPOINT=');
    for (const word of CODE_WORDS) expect(text).not.toContain(word);
    expect(writes().length).toBe(before);
    expect(await h.robotKeys.verify(first.username, first.password)).toBeUndefined();
  });

  it('keeps a certificate key for lego / acme.sh as before: httpreq configs, nothing in the zone', async () => {
    const summary = await fillForm('lego.mysite.by', 'lego / acme.sh / certbot', 'Лего');
    expect(all(summary)).toContain('Клиент: lego, acme.sh или certbot (httpreq)');
    const before = writes().length;
    const made = await h.press(buttonData(summary, '🔑 Создать ключ'));
    expect(all(made)).toContain('HTTPREQ_ENDPOINT=');
    expect(all(made)).not.toContain('acme-dns');
    expect(writes().length).toBe(before);
  });
});
