/**
 * The zone export is a zone: ISC BIND's own `named-checkzone` (Debian's bind9-utils) loads the file
 * the bot sends for every domain of the sandbox, IDN ones included, and the bot's own import reads
 * it back as "nothing to change", skipping the provider's SOA and name servers.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotCall, buttonData, lastText } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

const run = promisify(execFile);
const hasBind = spawnSync('named-checkzone', ['-v']).status === 0;
if (!hasBind) console.warn('zone-export: named-checkzone (Debian bind9-utils) is missing; skipped');
const { h } = useBot({ connect: ['partner'], reset: ['faults', 'scene'] });

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'partner-bot-zone-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function exportedZone(calls: BotCall[]): { name: string; text: string } {
  const sent = calls.find((c) => c.method === 'sendDocument');
  const document = sent?.payload.document as { source: Buffer; filename: string } | undefined;
  if (!document) throw new Error('no document sent');
  return { name: document.filename, text: document.source.toString('utf8') };
}

/** named-checkzone's verdict on a file; in-zone checks only (nothing is looked up on the network). */
async function checkZone(origin: string, text: string): Promise<{ ok: boolean; output: string }> {
  const file = join(work, `${origin}.zone`);
  await writeFile(file, text);
  try {
    const { stdout, stderr } = await run('named-checkzone', ['-i', 'local', origin, file]);
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe.skipIf(!hasBind)('⬇ Экспорт writes a zone BIND loads', () => {
  it('for every sandbox domain: named-checkzone accepts it, and importing it back changes nothing', async () => {
    const domains = await h.api().listDomainOrders();
    expect(domains.some((d) => /^xn--|[^\x20-\x7e]/.test(d.advanced?.domain ?? ''))).toBe(true);
    let checked = 0;
    for (const order of domains) {
      const list = await h.send(`/dns ${order.order_id}`);
      const button = list.length > 0 ? buttonData(list, 'Экспорт') : undefined;
      if (button === undefined) continue;
      const zone = exportedZone(await h.press(button));
      const origin = zone.name.replace(/\.zone$/, '');
      const verdict = await checkZone(origin, zone.text);
      expect(verdict, `${origin}:\n${zone.text}\n${verdict.output}`).toMatchObject({ ok: true });
      // The SOA's primary is the domain's first name server; the apex NS are its name servers.
      const servers = (await h.api().listNameServers(order.order_id)).map((s) => s.ns);
      if (servers.length > 0) {
        expect(zone.text).toMatch(
          new RegExp(`IN SOA\\s+${servers[0]?.replaceAll('.', '\\.')}\\. hostmaster\\.`),
        );
        for (const ns of servers)
          expect(zone.text).toMatch(new RegExp(`@\\s+\\d+ IN NS\\s+${ns.replaceAll('.', '\\.')}\\.`));
      }
      expect(zone.text).toContain('; Managed by the provider');

      await h.press(buttonData(list, 'Импорт'));
      const back = await h.sendFile(zone.text, zone.name);
      expect(lastText(back), origin).toContain('Менять нечего');
      await h.send('/cancel');
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('the import names the skipped SOA and name servers as the provider’s, in Russian', async () => {
    const list = await h.send('/dns mysite.by');
    const zone = exportedZone(await h.press(buttonData(list, 'Экспорт')));
    await h.press(buttonData(list, 'Импорт'));
    const edited = `${zone.text}shop-new 3600 IN A 192.0.2.77\n`;
    const preview = lastText(await h.sendFile(edited, zone.name));
    expect(preview).toContain('Добавить: 1');
    expect(preview).toContain('запись SOA ведёт провайдер');
    expect(preview).toContain('NS-серверы из файла не переношу: они задаются через /ns');
    await h.send('/cancel');
  });
});
