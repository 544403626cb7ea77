import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesToApply } from '../../src/core/dns-change.js';
import { type ListedRecord, needsForce } from '../../src/core/dns-plan.js';
import {
  invalidPresetRecord,
  isConflict,
  planPreset,
  readPresetParam,
} from '../../src/core/dns-preset-plan.js';
import { DNS_PRESETS, PRESET_IDS, type PresetId, presetOf } from '../../src/core/dns-presets.js';
import { type DnsRecordData, sameRecord } from '../../src/core/dns-records.js';
import { recordArbitrary } from '../helpers/dns-arbitraries.js';

const target = (presetId: PresetId) => ({ nonce: 'n', orderId: 1, domain: 'example.by', presetId });
const listed = (records: DnsRecordData[]): ListedRecord[] =>
  records.map((record, i) => ({ id: i + 1, record }));
const mx = (mail_server: string, priority = 10, ttl = 3600): DnsRecordData => ({
  type: 'MX',
  host: '@',
  ttl,
  mail_server,
  priority,
});
const txt = (text: string, host = '@'): DnsRecordData => ({ type: 'TXT', host, ttl: 3600, text });
const a = (ipv4: string, host = '@'): DnsRecordData => ({ type: 'A', host, ttl: 3600, ipv4 });

describe('the presets’ records', () => {
  it('are the providers’ published values', () => {
    const records = (id: PresetId, values = {}, domain = 'example.by') =>
      presetOf(id).records(values, domain);
    expect(records('yandex360')).toEqual([mx('mx.yandex.net'), txt('v=spf1 include:_spf.yandex.net ~all')]);
    expect(records('googleWorkspace', { verification: 'abc' })).toContainEqual(
      txt('google-site-verification=abc'),
    );
    expect(records('microsoft365', {}, 'my-shop.com.by')).toEqual([
      mx('my-shop-com-by.mail.protection.outlook.com', 0),
      txt('v=spf1 include:spf.protection.outlook.com -all'),
      { type: 'CNAME', host: 'autodiscover', ttl: 3600, canonical: 'autodiscover.outlook.com' },
    ]);
    expect(records('mailRu')[0]).toEqual(mx('emx.mail.ru'));
    expect(records('tilda')).toContainEqual(a('185.165.123.36'));
    const pages = records('githubPages', { user: 'Octo-Cat' });
    expect(pages.filter((r) => r.type === 'A').map((r) => (r.type === 'A' ? r.ipv4 : ''))).toEqual([
      '185.199.108.153',
      '185.199.109.153',
      '185.199.110.153',
      '185.199.111.153',
    ]);
    expect(pages).toContainEqual({ type: 'CNAME', host: 'www', ttl: 3600, canonical: 'octo-cat.github.io' });
    expect(records('spfDmarc', { reportEmail: 'dmarc@example.by' })).toContainEqual(
      txt('v=DMARC1; p=none; rua=mailto:dmarc@example.by', '_dmarc'),
    );
  });

  it('pass the record checks for any valid parameters', () => {
    const paramValues = {
      token: fc.stringMatching(/^[A-Za-z0-9_=.-]{1,60}$/),
      githubUser: fc.constant('octo-cat'),
    };
    for (const id of PRESET_IDS) {
      const { params } = presetOf(id);
      fc.assert(
        fc.property(
          fc.record(
            Object.fromEntries(
              params.map((p) => [
                p.name,
                p.kind === 'email' ? fc.constant('dmarc@example.by') : paramValues[p.kind],
              ]),
            ),
          ),
          (values) => {
            expect(invalidPresetRecord(presetOf(id).records(values, 'my-shop.com.by'))).toBeUndefined();
            // Microsoft's MX name is made of the domain's labels, which a punycode domain breaks.
            if (id !== 'microsoft365')
              expect(
                invalidPresetRecord(presetOf(id).records(values, 'xn--e1afmkfd.xn--90ais')),
              ).toBeUndefined();
          },
        ),
        { numRuns: 30 },
      );
    }
  });

  it('have a name, a description and a question for every parameter in both languages', () => {
    for (const lang of ['ru', 'en']) {
      const texts = JSON.parse(readFileSync(`locales/${lang}/dnspresets.json`, 'utf8'));
      for (const id of PRESET_IDS) {
        expect(texts.preset[id]?.name, `${lang} ${id}`).toBeTruthy();
        expect(texts.preset[id]?.about, `${lang} ${id}`).toBeTruthy();
        for (const param of presetOf(id).params)
          expect(texts.ask[id]?.[param.name], `${lang} ${id}`).toBeTruthy();
      }
    }
  });
});

describe('readPresetParam', () => {
  const google = DNS_PRESETS.googleWorkspace.params[0];
  const github = DNS_PRESETS.githubPages.params[0];
  const email = DNS_PRESETS.spfDmarc.params[0];

  it('takes the code alone or the whole string the provider shows', () => {
    expect(readPresetParam(google, '  abc-DEF_123 ')).toEqual({ ok: true, value: 'abc-DEF_123' });
    expect(readPresetParam(google, 'google-site-verification=abc')).toEqual({ ok: true, value: 'abc' });
    expect(readPresetParam(google, 'two words')).toEqual({ ok: false, reason: 'token' });
    expect(readPresetParam(google, '')).toEqual({ ok: false, reason: 'token' });
  });

  it('checks a GitHub user name and an e-mail address', () => {
    expect(readPresetParam(github, 'octo-cat').ok).toBe(true);
    for (const bad of ['-octo', 'octo-', 'oc--to', 'octo cat', 'a'.repeat(40), 'окто'])
      expect(readPresetParam(github, bad)).toEqual({ ok: false, reason: 'githubUser' });
    expect(readPresetParam(email, 'mailto:dmarc@example.by')).toEqual({
      ok: true,
      value: 'dmarc@example.by',
    });
    for (const bad of ['dmarc', '@example.by', 'dmarc@localhost', 'a b@example.by'])
      expect(readPresetParam(email, bad)).toEqual({ ok: false, reason: 'email' });
  });
});

describe('planPreset', () => {
  it('replaces another provider’s MX and SPF, keeps what is there already, touches nothing else', () => {
    const current = listed([
      mx('mx.yandex.net', 10, 300),
      mx('mx.other.by', 20),
      txt('v=spf1 include:_spf.other.by -all'),
      txt('google-site-verification=keep-me'),
      a('192.0.2.1'),
      mx('mx.sub.by', 10),
    ]);
    current[5] = { id: 6, record: { ...mx('mx.sub.by'), host: 'sub' } };
    const plan = planPreset(target('yandex360'), presetOf('yandex360'), {}, current);
    expect(plan.add).toEqual([txt('v=spf1 include:_spf.yandex.net ~all')]);
    expect(plan.keep.map((k) => k.id)).toEqual([1]);
    expect(plan.remove.map((r) => r.id)).toEqual([2, 3]);
  });

  it('clears www for a site: an A or CNAME there would stand beside the new CNAME', () => {
    const current = listed([
      a('192.0.2.1'),
      a('192.0.2.2', 'www'),
      txt('hello', 'www'),
      a('192.0.2.3', 'shop'),
    ]);
    const plan = planPreset(target('tilda'), presetOf('tilda'), {}, current);
    expect(plan.remove.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(plan.add).toHaveLength(2);
  });
});

const presetArb = fc.constantFrom(...PRESET_IDS);
const values = { verification: 'code-123', user: 'octo-cat', reportEmail: 'dmarc@example.by' };
const zoneRecord = recordArbitrary({
  host: fc.constantFrom('@', 'www', 'autodiscover', '_dmarc', 'shop'),
  srvHost: fc.constant('@'),
  text: fc.constantFrom('v=spf1 -all', 'V=SPF1 mx ~all', 'v=DMARC1; p=reject', 'hello'),
});
const zoneArb = fc.tuple(fc.array(zoneRecord, { maxLength: 30 }), presetArb).chain(([records, id]) =>
  // Some zones hold the preset's own records already (at any ttl).
  fc
    .subarray(presetOf(id).records(values, 'example.by'))
    .map((own) => ({ id, current: listed([...records, ...own.map((r) => ({ ...r, ttl: 300 }))]) })),
);

describe('preset plans for any zone (properties)', () => {
  it('never get past the delete limit without the explicit choice', () => {
    fc.assert(
      fc.property(zoneArb, ({ id, current }) => {
        const plan = planPreset(target(id), presetOf(id), values, current);
        const changes = changesToApply(plan, { force: false });
        if (changes === 'needsForce') {
          expect(needsForce(plan)).toBe(true);
          return;
        }
        const deletes = changes.filter((c) => c.op === 'delete').length;
        expect(current.length < 10 || deletes * 100 <= current.length * 30).toBe(true);
      }),
    );
  });

  it('delete only the conflicts, and leave the preset’s records and nothing in conflict', () => {
    fc.assert(
      fc.property(zoneArb, ({ id, current }) => {
        const definition = presetOf(id);
        const plan = planPreset(target(id), definition, values, current);
        for (const removed of plan.remove)
          expect(isConflict(definition.conflicts, removed.record)).toBe(true);
        const removedIds = new Set(plan.remove.map((r) => r.id));
        const after = [...current.filter((c) => !removedIds.has(c.id)).map((c) => c.record), ...plan.add];
        const wanted = definition.records(values, 'example.by');
        const ownContent = (r: DnsRecordData) => wanted.some((w) => sameRecord({ ...r, ttl: w.ttl }, w));
        for (const record of wanted)
          expect(after.some((r) => sameRecord({ ...r, ttl: record.ttl }, record))).toBe(true);
        for (const record of after)
          if (isConflict(definition.conflicts, record)) expect(ownContent(record)).toBe(true);
      }),
    );
  });
});
