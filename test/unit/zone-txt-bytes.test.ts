/**
 * A TXT whose text holds escaped bytes, as BIND's own test zones have (`\000`, `\010`, `\255`): a
 * byte of no UTF-8 character cannot be a character of the string the provider takes, so its line
 * is skipped with the reason, in both languages, rather than carried over changed (U+FFFD in its
 * place); a control character is a character, imported exactly, and the export writes it back as
 * the same escape; BIND reads every exported text back as the same bytes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';
import { describeSkipReason } from '../../src/core/dns-words.js';
import { readZoneText } from '../../src/core/zone-entries.js';
import { importZone } from '../../src/core/zone-reader.js';
import { exportZone } from '../../src/core/zone-writer.js';

const hasBind = spawnSync('named-compilezone', ['-v']).status === 0;
if (!hasBind) console.warn('zone-txt-bytes: named-compilezone (Debian bind9-utils) is missing; skipped');

const ORIGIN = 'bytes.test.by';
const FIXTURE = fileURLToPath(new URL('../fixtures/bind-txt-bytes/txt-bytes.zone', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'partner-bot-txt-bytes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The TXT records BIND reads from a file: owner (relative) → the text's bytes as UTF-8, strings joined. */
function txtWithBind(file: string): Map<string, string> {
  const run = spawnSync('named-compilezone', ['-i', 'none', '-s', 'full', '-o', '-', ORIGIN, file], {
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  const read = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const match = /^(\S+)\s+\d+\s+IN\s+TXT\s+(.*)$/.exec(line);
    if (!match) continue;
    const owner = (match[1] ?? '').replace(`.${ORIGIN}.`, '');
    const bytes: number[] = [];
    for (const [, content = ''] of (match[2] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
      for (let i = 0; i < content.length; i++) {
        const digits = content[i] === '\\' ? /^\d{3}/.exec(content.slice(i + 1)) : null;
        if (digits) {
          bytes.push(Number(digits[0]));
          i += 3;
          continue;
        }
        if (content[i] === '\\') i++;
        bytes.push(...new TextEncoder().encode(content[i] ?? ''));
      }
    }
    read.set(owner, new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(bytes)));
  }
  return read;
}

describe('a TXT that holds bytes that are not text, in an imported zone', () => {
  const imported = importZone(readFileSync(FIXTURE, 'utf8'), ORIGIN);
  const texts = new Map(
    imported.records.flatMap((r) => (r.type === 'TXT' ? [[r.host, r.text] as const] : [])),
  );
  const notText = new Map(
    imported.unsupported.flatMap((line) =>
      line.reason.key === 'notText' ? [[line.named?.owner ?? '', line.reason.params.byte] as const] : [],
    ),
  );

  it('skips each such line naming its first byte as BIND writes it', () => {
    expect(Object.fromEntries(notText)).toEqual({
      // One string per byte: \000 to \007 are characters, \248 is none.
      [`per-byte.${ORIGIN}`]: '\\248',
      // A lone \255, and a sequence broken after its first byte.
      [`ff.${ORIGIN}`]: '\\255',
      [`broken.${ORIGIN}`]: '\\208',
    });
    // Nothing imported holds U+FFFD, the mark of a byte read as no character.
    for (const text of texts.values()) expect(text).not.toContain('\ufffd');
  });

  it('imports the text that is text exactly as BIND reads it, control characters and all', () => {
    expect(Object.fromEntries(texts)).toEqual({
      // A space and a line break as escapes, quoted and not.
      'esc-space': 'key value',
      'esc-space-bare': 'key value',
      'line-break': 'first\nsecond',
      'line-break-bare': 'first\nsecond',
      colon: 'key: value',
      nul: 'foo\u0000bar',
      c1: '\u0080',
      bom: '\ufeffx',
      cyrillic: 'Привет',
      tab: 'a\tb',
      quoted: 'say "hi" \\ back',
    });
  });

  it.skipIf(!hasBind)('every TXT BIND reads is imported with its text, or skipped as not text', () => {
    const bind = txtWithBind(FIXTURE);
    expect(bind.size).toBe(14);
    for (const [owner, text] of bind) {
      if (texts.has(owner)) expect(texts.get(owner), owner).toBe(text);
      else expect(notText.has(`${owner}.${ORIGIN}`), owner).toBe(true);
    }
  });

  it.each(['ru', 'en'] as const)('says why in the partner’s words (%s)', (lang) => {
    const t = loadTranslations().forLocale(lang);
    const line = imported.unsupported.find((l) => l.named?.owner === `ff.${ORIGIN}`);
    expect(line && describeSkipReason(t, line.reason)).toBe(
      lang === 'ru'
        ? 'в тексте TXT есть байт \\255, который не образует символа UTF-8: провайдер хранит TXT как текст, и запись перенеслась бы изменённой'
        : 'the TXT text holds the byte \\255, which is no UTF-8 character: the provider keeps TXT as text, so the record would be carried over changed',
    );
  });

  it('reads text bytes one character at a time, naming the first byte of none', () => {
    expect(readZoneText('\\208\\159\\208\\190')).toEqual({ ok: true, text: 'По' });
    expect(readZoneText('ok\\009\\000\\127')).toEqual({ ok: true, text: 'ok\t\u0000\u007f' });
    expect(readZoneText('ab\\128')).toEqual({ ok: false, byte: '\\128' });
    // A sequence cut short at the end.
    expect(readZoneText('ok\\208')).toEqual({ ok: false, byte: '\\208' });
    expect(readZoneText('\\226\\130')).toEqual({ ok: false, byte: '\\226' });
  });
});

describe('the export of a TXT the provider holds', () => {
  const txt = (host: string, text: string): DnsRecordData => ({ type: 'TXT', host, ttl: 3600, text });
  const records = [
    txt('nul', 'foo\u0000bar'),
    txt('newline', 'a\nb'),
    txt('tab', 'a\tb'),
    txt('del', 'a\u007fb'),
    txt('cyrillic', 'Привет'),
    txt('c1', '\u0080'),
    txt('bom', '\ufeffx'),
    txt('quoted', 'say "hi" \\ back'),
  ];

  it('writes control characters as BIND escapes, and UTF-8 as it is', () => {
    const zone = exportZone(ORIGIN, records);
    expect(zone).toContain('"foo\\000bar"');
    expect(zone).toContain('"a\\010b"');
    expect(zone).toContain('"a\\009b"');
    expect(zone).toContain('"a\\127b"');
    expect(zone).toContain('"say \\"hi\\" \\\\ back"');
  });

  it.skipIf(!hasBind)('BIND reads back every text exactly, as UTF-8 bytes', () => {
    const file = join(work, 'export.zone');
    const provider = { nameServers: [{ ns: 'ns1.sandbox-host.by' }], at: new Date('2026-11-28T00:00:00Z') };
    writeFileSync(file, exportZone(ORIGIN, records, provider));
    const bind = txtWithBind(file);
    expect(Object.fromEntries(bind)).toEqual(
      Object.fromEntries(records.map((r) => [r.host, r.type === 'TXT' ? r.text : ''])),
    );
  });
});
