import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BulkOutcome, renderBulkReport } from '../../src/bot/features/dns/bulk/report.js';
import { bulkPreviewScreen, renderBulkPreview } from '../../src/bot/features/dns/bulk/views.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { fitsRich, screenRich } from '../../src/bot/kit/rich-screen.js';
import {
  type BulkChange,
  type BulkDomainPlan,
  countOverLimit,
  decideBulk,
  globMatches,
  MAX_BULK_DOMAINS,
  matchDomainList,
  parseBulkLine,
  planBulkDomain,
  recordMatches,
} from '../../src/core/dns-bulk.js';
import type { ListedRecord } from '../../src/core/dns-plan.js';
import { isPresetId, PRESET_IDS, presetOf } from '../../src/core/dns-presets.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';
import { recordArbitrary } from '../helpers/dns-arbitraries.js';

const txt = (text: string, host = '@', ttl = 3600): DnsRecordData => ({ type: 'TXT', host, ttl, text });
const a = (host: string, ipv4 = '192.0.2.1'): DnsRecordData => ({ type: 'A', host, ttl: 3600, ipv4 });
const listed = (records: DnsRecordData[]): ListedRecord[] =>
  records.map((record, i) => ({ id: i + 1, record }));
const target = { orderId: 7, domain: 'example.by' };

describe('parseBulkLine', () => {
  it('reads an add in the one-line grammar of /dns <domain> add', () => {
    expect(parseBulkLine('add TXT @ "v=spf1 -all"')).toEqual({
      ok: true,
      change: { kind: 'add', record: txt('v=spf1 -all') },
    });
    expect(parseBulkLine('ADD a www 192.0.2.1 600')).toEqual({
      ok: true,
      change: { kind: 'add', record: { type: 'A', host: 'www', ttl: 600, ipv4: '192.0.2.1' } },
    });
  });

  it('names the field of a wrong add', () => {
    expect(parseBulkLine('add A www 300.0.0.1')).toMatchObject({ ok: false, error: 'add', field: 'ipv4' });
  });

  it('reads a delete by match: type, host and a value glob running to the end of the line', () => {
    expect(parseBulkLine('del txt @ v=spf1*')).toEqual({
      ok: true,
      change: { kind: 'delete', match: { type: 'TXT', host: '@', value: 'v=spf1*' } },
    });
    expect(parseBulkLine('delete TXT _dmarc "v=DMARC1; p=none*"')).toEqual({
      ok: true,
      change: { kind: 'delete', match: { type: 'TXT', host: '_dmarc', value: 'v=DMARC1; p=none*' } },
    });
  });

  it('refuses a delete without a value, a type it does not know, or another verb', () => {
    expect(parseBulkLine('del TXT @')).toMatchObject({ ok: false, field: 'value', reason: 'missing' });
    expect(parseBulkLine('del SPF @ *')).toMatchObject({ ok: false, field: 'type', reason: 'unknown' });
    expect(parseBulkLine('del')).toMatchObject({ ok: false, field: 'type', reason: 'missing' });
    expect(parseBulkLine('set TXT @ x')).toEqual({ ok: false, error: 'verb' });
    expect(parseBulkLine('')).toEqual({ ok: false, error: 'verb' });
  });

  it('reads a replace: the old value and the new, each a word or a quoted text', () => {
    expect(parseBulkLine('replace 93.125.99.10 192.0.2.55')).toEqual({
      ok: true,
      change: { kind: 'replace', from: '93.125.99.10', to: '192.0.2.55' },
    });
    expect(parseBulkLine('REPLACE  old.example.net.   new.example.net ')).toEqual({
      ok: true,
      change: { kind: 'replace', from: 'old.example.net.', to: 'new.example.net' },
    });
    // Quoted as the one-line grammar quotes a TXT, escapes too; two quoted texts stay two values.
    expect(parseBulkLine('replace "v=spf1 a -all" "v=spf1 include:\\"x\\" -all"')).toEqual({
      ok: true,
      change: { kind: 'replace', from: 'v=spf1 a -all', to: 'v=spf1 include:"x" -all' },
    });
  });

  it('names what a replace lacks: the old value, the new one, a closing quote; refuses a third value or the same one', () => {
    expect(parseBulkLine('replace')).toEqual({
      ok: false,
      error: 'replace',
      field: 'from',
      reason: 'missing',
    });
    expect(parseBulkLine('replace 93.125.99.10')).toEqual({
      ok: false,
      error: 'replace',
      field: 'to',
      reason: 'missing',
    });
    expect(parseBulkLine('replace "" 192.0.2.55')).toMatchObject({ field: 'from', reason: 'missing' });
    expect(parseBulkLine('replace 93.125.99.10 ""')).toMatchObject({ field: 'to', reason: 'missing' });
    expect(parseBulkLine('replace "v=spf1 a -all')).toMatchObject({ field: 'from', reason: 'quote' });
    expect(parseBulkLine('replace x "v=spf1 a -all')).toMatchObject({ field: 'to', reason: 'quote' });
    // A text with spaces left unquoted is more than two values: it is not guessed at.
    expect(parseBulkLine('replace v=spf1 a -all v=spf1 -all')).toMatchObject({
      field: 'to',
      reason: 'extra',
    });
    expect(parseBulkLine('replace 192.0.2.1 192.0.2.1')).toMatchObject({ field: 'to', reason: 'same' });
  });
});

describe('the delete matcher', () => {
  it('globs with * anywhere, case-insensitive, over the whole value', () => {
    expect(globMatches('v=spf1*', 'v=spf1 include:_spf.yandex.net ~all')).toBe(true);
    expect(globMatches('v=spf1*', 'V=SPF1 -all')).toBe(true);
    expect(globMatches('v=spf1*', 'x v=spf1 -all')).toBe(false);
    expect(globMatches('*yandex*', 'v=spf1 include:_spf.yandex.net ~all')).toBe(true);
    expect(globMatches('v=spf1', 'v=spf1 -all')).toBe(false);
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('(x)+[y]', '(x)+[y]')).toBe(true);
    expect(globMatches('*', '')).toBe(true);
  });

  it('matches the type and the host (as the diff compares hosts) and the value in one-line order', () => {
    const match = { type: 'TXT' as const, host: '@', value: 'v=spf1*' };
    expect(recordMatches(match, txt('v=spf1 -all'))).toBe(true);
    expect(recordMatches(match, txt('v=spf1 -all', 'www'))).toBe(false);
    expect(recordMatches(match, txt('google-site-verification=1'))).toBe(false);
    expect(recordMatches({ ...match, host: 'WWW' }, txt('v=spf1 -all', 'www'))).toBe(true);
    const mx: DnsRecordData = { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.other.by', priority: 10 };
    expect(recordMatches({ type: 'MX', host: '@', value: 'mx.other.by*' }, mx)).toBe(true);
    expect(recordMatches({ type: 'MX', host: '@', value: '* 10' }, mx)).toBe(true);
    expect(recordMatches({ type: 'A', host: '@', value: '*' }, mx)).toBe(false);
  });
});

describe('planBulkDomain', () => {
  it('adds a record that is not there, skips one that is (at any ttl)', () => {
    const add: BulkChange = { kind: 'add', record: txt('v=spf1 -all') };
    expect(planBulkDomain(target, add, listed([a('@')]))).toMatchObject({ add: [txt('v=spf1 -all')] });
    expect(planBulkDomain(target, add, listed([txt('v=spf1 -all', '@', 300)]))).toMatchObject({
      add: [],
      remove: [],
      skip: 'present',
    });
  });

  it('deletes every matching record and nothing else; says when nothing matched', () => {
    const del: BulkChange = { kind: 'delete', match: { type: 'TXT', host: '@', value: 'v=spf1*' } };
    const current = listed([txt('v=spf1 -all'), txt('v=spf1 mx ~all'), txt('hello'), a('@')]);
    expect(planBulkDomain(target, del, current).remove.map((r) => r.id)).toEqual([1, 2]);
    expect(planBulkDomain(target, del, listed([a('@')])).skip).toBe('noMatch');
  });

  it('plans a preset as on its own; skips it when all is in place or when it does not fit the domain', () => {
    const preset: BulkChange = { kind: 'preset', presetId: 'tilda', values: {} };
    const plan = planBulkDomain(target, preset, listed([a('@', '192.0.2.7')]), presetOf('tilda'));
    expect(plan.add).toHaveLength(2);
    expect(plan.remove.map((r) => r.id)).toEqual([1]);
    const done = presetOf('tilda').records({}, 'example.by');
    expect(planBulkDomain(target, preset, listed(done), presetOf('tilda')).skip).toBe('present');
    const ms: BulkChange = { kind: 'preset', presetId: 'microsoft365', values: {} };
    // Microsoft's MX name is built from the domain; a long IDN domain breaks it.
    const idn = { orderId: 8, domain: `xn--${'a'.repeat(55)}.by` };
    expect(planBulkDomain(idn, ms, [], presetOf('microsoft365')).skip).toBe('notFit');
  });

  const move: BulkChange = { kind: 'replace', from: '93.125.99.10', to: '192.0.2.55' };
  const at = (host: string, ipv4: string, ttl = 3600): DnsRecordData => ({ type: 'A', host, ttl, ipv4 });

  it('replaces the value of every record that holds it, keeping type, host and TTL, each old beside its new', () => {
    const current = listed([
      at('@', '93.125.99.10', 300),
      at('www', '93.125.99.10'),
      at('mail', '192.0.2.7'),
      txt('93.125.99.10 is the old server'),
    ]);
    const plan = planBulkDomain(target, move, current);
    expect(plan.remove.map((r) => r.id)).toEqual([1, 2]);
    expect(plan.add).toEqual([at('@', '192.0.2.55', 300), at('www', '192.0.2.55')]);
    expect(plan.deleteFirst).toBe(false);
    expect(plan.skip).toBeUndefined();
  });

  it('skips a domain with nothing to replace, one where the new value fits no such record, and a no-op', () => {
    expect(planBulkDomain(target, move, listed([at('@', '192.0.2.7')])).skip).toBe('nothingToReplace');
    const word: BulkChange = { kind: 'replace', from: '93.125.99.10', to: 'new-server' };
    expect(planBulkDomain(target, word, listed([at('@', '93.125.99.10')]))).toMatchObject({
      skip: 'badValue',
      add: [],
      remove: [],
    });
    // A name in another case is the same name: nothing to change.
    const cname: DnsRecordData = { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'old.example.net' };
    const sameName: BulkChange = { kind: 'replace', from: 'old.example.net', to: 'OLD.example.net.' };
    expect(planBulkDomain(target, sameName, listed([cname])).skip).toBe('present');
  });

  it('says a CNAME’s delete must go first when its target is replaced', () => {
    const cname: DnsRecordData = { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'old.example.net' };
    const plan = planBulkDomain(
      target,
      { kind: 'replace', from: 'old.example.net', to: 'new.example.net' },
      listed([cname]),
    );
    expect(plan.deleteFirst).toBe(true);
  });
});

describe('decideBulk', () => {
  const plan = (orderId: number, existing: number, removes: number): BulkDomainPlan => ({
    orderId,
    domain: `d${orderId}.by`,
    add: [],
    remove: listed(Array.from({ length: removes }, (_, i) => a(`h${i}`))),
    existing,
  });

  it('leaves a domain over the limit alone without force, and only that one', () => {
    const plans = [plan(1, 10, 3), plan(2, 10, 4), { ...plan(3, 5, 0), skip: 'noMatch' as const }];
    expect(decideBulk(plans, { force: false }).map((d) => ('skip' in d ? d.skip : d.changes.length))).toEqual(
      [3, 'limit', 'noMatch'],
    );
    expect(countOverLimit(plans)).toBe(1);
    expect(decideBulk(plans, { force: true }).map((d) => ('skip' in d ? d.skip : d.changes.length))).toEqual([
      3,
      4,
      'noMatch',
    ]);
  });

  it('gives a replace’s calls gap-free — every add before the deletes — and a CNAME’s delete first', () => {
    const move: BulkChange = { kind: 'replace', from: '192.0.2.1', to: '192.0.2.55' };
    const zone = listed([a('@'), a('www'), txt('x')]);
    const [decision] = decideBulk([planBulkDomain(target, move, zone)], { force: false });
    expect(
      decision && 'changes' in decision && decision.changes.map((c) => `${c.op} ${c.record.host}`),
    ).toEqual(['add @', 'add www', 'delete @', 'delete www']);
    const cname: DnsRecordData = { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'old.example.net' };
    const retarget: BulkChange = { kind: 'replace', from: 'old.example.net', to: 'new.example.net' };
    const [first] = decideBulk([planBulkDomain(target, retarget, listed([cname]))], { force: false });
    expect(first && 'changes' in first && first.changes.map((c) => c.op)).toEqual(['delete', 'add']);
  });

  it('holds a replace of more than 30% of 10 or more records to the explicit force, as the others', () => {
    const move: BulkChange = { kind: 'replace', from: '192.0.2.1', to: '192.0.2.55' };
    const zone = listed([
      ...['@', 'www', 'shop', 'mail'].map((host) => a(host)),
      ...['b', 'c', 'd', 'e', 'f', 'g'].map((host) => a(host, '192.0.2.9')),
    ]);
    const plans = [planBulkDomain(target, move, zone)];
    expect(decideBulk(plans, { force: false })).toEqual([{ orderId: 7, skip: 'limit' }]);
    const [forced] = decideBulk(plans, { force: true });
    expect(forced && 'changes' in forced && forced.changes).toHaveLength(8);
  });
});

describe('matchDomainList', () => {
  it('finds the orders of the pasted names once each, in order, and keeps the unknown ones apart', () => {
    const orders = new Map([
      ['a.by', 1],
      ['b.by', 2],
    ]);
    expect(matchDomainList(['b.by', 'x.by', 'a.by', 'b.by'], orders)).toEqual({
      orderIds: [2, 1],
      unknown: ['x.by'],
    });
  });
});

// ---- properties ---------------------------------------------------------------------------------

const zoneRecord = recordArbitrary({
  host: fc.constantFrom('@', 'www', 'autodiscover', '_dmarc', 'shop'),
  srvHost: fc.constant('@'),
  text: fc.constantFrom('v=spf1 -all', 'V=SPF1 mx ~all', 'v=DMARC1; p=reject', 'hello'),
});
const values = { verification: 'code-123', user: 'octo-cat', reportEmail: 'dmarc@example.by' };
const changeArb: fc.Arbitrary<BulkChange> = fc.oneof(
  zoneRecord.map((record): BulkChange => ({ kind: 'add', record })),
  fc
    .record({
      type: fc.constantFrom('A' as const, 'TXT' as const, 'MX' as const, 'CNAME' as const),
      host: fc.constantFrom('@', 'www', 'shop'),
      value: fc.constantFrom('*', 'v=spf1*', '*all', '192.0.2.*', 'hello'),
    })
    .map((match): BulkChange => ({ kind: 'delete', match })),
  fc.constantFrom(...PRESET_IDS).map((presetId): BulkChange => ({ kind: 'preset', presetId, values })),
  fc
    .record({
      from: fc.constantFrom('192.0.2.1', '192.0.2.9', 'hello', 'v=spf1 -all', 'mx.example.by'),
      to: fc.constantFrom('192.0.2.55', 'new.example.by', 'v=spf1 mx -all', '2001:db8::1'),
    })
    .map((pair): BulkChange => ({ kind: 'replace', ...pair })),
);
const domainsArb = fc.array(fc.array(zoneRecord, { maxLength: 30 }), { minLength: 1, maxLength: 6 });

describe('bulk plans for any zones and change (properties)', () => {
  it('never delete past the limit on any domain without the explicit choice', () => {
    fc.assert(
      fc.property(domainsArb, changeArb, (zones, change) => {
        const preset =
          change.kind === 'preset' && isPresetId(change.presetId) ? presetOf(change.presetId) : undefined;
        const plans = zones.map((records, i) =>
          planBulkDomain({ orderId: i + 1, domain: `d${i}.by` }, change, listed(records), preset),
        );
        for (const [i, decision] of decideBulk(plans, { force: false }).entries()) {
          const existing = zones[i]?.length ?? 0;
          if ('skip' in decision) continue;
          const deletes = decision.changes.filter((c) => c.op === 'delete').length;
          expect(existing < 10 || deletes * 100 <= existing * 30).toBe(true);
          // Every delete is of a record listed on that domain.
          const ids = new Set(listed(zones[i] ?? []).map((r) => r.id));
          for (const c of decision.changes) if (c.op === 'delete') expect(ids.has(c.id)).toBe(true);
        }
      }),
    );
  });

  it('a replace adds each new record before its old one goes, unless a CNAME’s delete must go first', () => {
    fc.assert(
      fc.property(fc.array(zoneRecord, { maxLength: 30 }), changeArb, (records, change) => {
        fc.pre(change.kind === 'replace');
        const plan = planBulkDomain(target, change, listed(records));
        const [decision] = decideBulk([plan], { force: true });
        if (decision === undefined || 'skip' in decision) return;
        const ops = decision.changes.map((c) => c.op);
        const firstDelete = ops.indexOf('delete');
        const lastAdd = ops.lastIndexOf('add');
        expect(plan.deleteFirst ? lastAdd > firstDelete : lastAdd < firstDelete).toBe(true);
        // Each old record is replaced by one of its own type and host, TTL kept.
        plan.remove.forEach((old, i) => {
          expect(plan.add[i]).toMatchObject({
            type: old.record.type,
            host: old.record.host,
            ttl: old.record.ttl,
          });
        });
      }),
    );
  });

  it('a delete by match removes exactly the matching records', () => {
    fc.assert(
      fc.property(fc.array(zoneRecord, { maxLength: 30 }), changeArb, (records, change) => {
        fc.pre(change.kind === 'delete');
        if (change.kind !== 'delete') return;
        const current = listed(records);
        const plan = planBulkDomain(target, change, current);
        const removed = new Set(plan.remove.map((r) => r.id));
        for (const c of current) expect(removed.has(c.id)).toBe(recordMatches(change.match, c.record));
        expect(plan.add).toEqual([]);
      }),
    );
  });
});

// ---- the preview and the report stay within a message ---------------------------------------------

describe('bulk preview and report texts', () => {
  const translations = loadTranslations();
  const many = (n: number): BulkDomainPlan[] =>
    Array.from({ length: n }, (_, i) => ({
      orderId: i + 1,
      domain: `${'очень-длинное-имя-домена-'.repeat(2)}${i}.бел`,
      add: [],
      remove: listed(Array.from({ length: 4 }, () => txt(`v=spf1 include:_spf.${'x'.repeat(200)}.by ~all`))),
      existing: i % 3 === 0 ? 10 : 3,
      ...(i % 5 === 0 ? { skip: 'noMatch' as const } : {}),
    }));
  const change: BulkChange = {
    kind: 'delete',
    match: { type: 'TXT', host: '@', value: `v=spf1*${'y'.repeat(500)}` },
  };

  it('summarizes beyond the first domains and keeps the totals, within 4096 characters, in both languages', () => {
    for (const locale of ['ru', 'en'] as const) {
      const t = translations.forLocale(locale);
      const plans = many(MAX_BULK_DOMAINS);
      const text = renderBulkPreview(t, change, plans, decideBulk(plans, { force: false }));
      expect(text.length).toBeLessThanOrEqual(4096);
      expect(text).toContain(locale === 'ru' ? 'Итого: изменю доменов' : 'In all: domains to change');
      expect(text).toContain(
        locale === 'ru' ? 'Доменов сверх лимита удаления' : 'Domains over the delete limit',
      );
      expect(text).not.toContain('{{');
      expect(text).toContain(locale === 'ru' ? 'и ещё доменов: 70' : 'and 70 more domains');
      const outcomes: BulkOutcome[] = plans.map((p, i) =>
        i % 2 === 0
          ? {
              domain: p.domain,
              orderId: p.orderId,
              state: 'failed',
              ok: 0,
              total: 3,
              failures: ['x'.repeat(300), 'y'.repeat(300)],
            }
          : { domain: p.domain, orderId: p.orderId, state: 'skipped', reason: 'limit' },
      );
      const report = renderBulkReport(t, change, outcomes);
      expect(report.length).toBeLessThanOrEqual(4096);
      expect(report).not.toContain('{{');
    }
  });

  it('as a rich message names as many domains as Telegram’s limits take, then sums up the rest', () => {
    const t = translations.forLocale('ru');
    const plans = many(MAX_BULK_DOMAINS);
    const screen = bulkPreviewScreen(t, change, plans, decideBulk(plans, { force: false }), new Map(), true);
    expect(fitsRich(screenRich(screen))).toBe(true);
    const sections = screen.blocks.filter((b) => b.type === 'section');
    // Every domain's four long records do not fit 32,768 characters: more than HTML's 30, not all.
    expect(sections.length).toBeGreaterThan(30);
    expect(sections.length).toBeLessThan(MAX_BULK_DOMAINS);
    const hidden = MAX_BULK_DOMAINS - sections.length;
    expect(screen.blocks).toContainEqual({
      type: 'text',
      html: expect.stringContaining(`…и ещё доменов: ${hidden}`),
    });
  });

  it('names each domain of a small bulk with what it gets or why it is skipped', () => {
    const t = translations.forLocale('ru');
    const plans: BulkDomainPlan[] = [
      { orderId: 1, domain: 'a.by', add: [txt('v=spf1 -all')], remove: [], existing: 2 },
      { orderId: 2, domain: 'xn--e1afmkfd.xn--90ais', add: [], remove: [], existing: 2, skip: 'present' },
    ];
    const add: BulkChange = { kind: 'add', record: txt('v=spf1 -all') };
    const text = renderBulkPreview(t, add, plans, decideBulk(plans, { force: false }));
    expect(text).toContain('• a.by: +1');
    expect(text).toContain('• пример.бел: пропущу — уже есть');
  });

  it('lists what a replace changes per domain, before → after, and why a domain is skipped', () => {
    const t = translations.forLocale('ru');
    const move: BulkChange = { kind: 'replace', from: '93.125.99.10', to: '192.0.2.55' };
    const at = (host: string, ipv4: string, ttl = 3600): DnsRecordData => ({ type: 'A', host, ttl, ipv4 });
    const plans = [
      planBulkDomain(
        { orderId: 1, domain: 'a.by' },
        move,
        listed([at('@', '93.125.99.10', 300), at('www', '93.125.99.10')]),
      ),
      planBulkDomain({ orderId: 2, domain: 'b.by' }, move, listed([at('@', '192.0.2.7')])),
    ];
    const text = renderBulkPreview(t, move, plans, decideBulk(plans, { force: false }));
    expect(text).toContain('Массовое изменение:</b> заменить «93.125.99.10» на «192.0.2.55»');
    expect(text).toContain('• a.by: заменю 2 записи');
    expect(text).toContain('   <b>A</b> @: <code>93.125.99.10</code> → <code>192.0.2.55</code>');
    expect(text).toContain('   <b>A</b> www: <code>93.125.99.10</code> → <code>192.0.2.55</code>');
    expect(text).toContain('• b.by: пропущу — нечего заменять');
    const word: BulkChange = { kind: 'replace', from: '93.125.99.10', to: 'new-server' };
    const refused = [planBulkDomain({ orderId: 1, domain: 'a.by' }, word, listed([at('@', '93.125.99.10')]))];
    expect(renderBulkPreview(t, word, refused, decideBulk(refused, { force: false }))).toContain(
      '• a.by: пропущу — «new-server» не подходит как значение этих записей',
    );
    // Over the delete limit, a replace says it replaces (its deletes only make room for the new).
    const big = listed([
      ...['@', 'www', 'shop', 'mail'].map((host) => at(host, '93.125.99.10')),
      ...['b', 'c', 'd', 'e', 'f', 'g'].map((host) => at(host, '192.0.2.9')),
    ]);
    const over = [planBulkDomain({ orderId: 3, domain: 'c.by' }, move, big)];
    expect(renderBulkPreview(t, move, over, decideBulk(over, { force: false }))).toContain(
      '• c.by: ⚠️ заменит 4 из 10 записей — больше 30%, пропущу без отдельного подтверждения',
    );
  });
});
