import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, buttons, lastText, texts } from '../../helpers/bot-harness.js';
import { dnsStories, toast } from '../../helpers/dns-stories.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { inGroup, useBot } from '../../helpers/use-bot.js';

/*
 * DNS presets (issue 15, item 2): `/dns <domain> preset` → a preset → its parameters → a preview
 * of what is added, replaced and already there → Apply with one progress message → a report.
 */

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });

const all = (calls: BotCall[]) => texts(calls).join('\n');
const { listedValues, writesSince } = dnsStories(h);

describe('/dns <domain> preset', () => {
  it('Google Workspace: asks the code, previews add / replace / keep, applies with one progress message, reports', async () => {
    const domain = `preset-google-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const api = h.api();
    await api.addDnsRecord(orderId, {
      kind: 'mx',
      ttl: 3600,
      host: '@',
      mail_server: 'mx.other.by',
      priority: 10,
    });
    await api.addDnsRecord(orderId, {
      kind: 'txt',
      ttl: 3600,
      host: '@',
      text: 'v=spf1 include:_spf.other.by -all',
    });
    await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'www', ipv4: '192.0.2.1' });
    const listed = await api.listDnsRecords(orderId);
    const idOf = (value: string) => listed.find((r) => r.value === value)?.record_id;

    const choice = await h.send(`/dns ${domain} preset`);
    expect(lastText(choice)).toContain(`Готовые наборы записей для ${domain}`);
    expect(buttons(choice).map((b) => b.text)).toEqual([
      'Почта Яндекс 360',
      'Google Workspace',
      'Microsoft 365',
      'Почта Mail.ru для бизнеса',
      'Tilda',
      'GitHub Pages',
      'SPF + DMARC',
    ]);

    const asked = await h.press(buttonData(choice, 'Google Workspace'));
    expect(lastText(asked)).toContain('Google Workspace</b> · шаг 1 из 1');
    expect(lastText(asked)).toContain('Код подтверждения из консоли Google');
    expect(buttons(asked).map((b) => b.text)).toEqual(['Пропустить']);

    const before = h.sandbox.requests.length;
    const wrong = await h.send('two words');
    expect(lastText(wrong)).toContain('не похоже на код подтверждения');
    const preview = await h.send('google-site-verification=Ab_12-cd');
    expect(writesSince(before)).toEqual([]);
    // The answered question loses its Skip button.
    expect(preview.some((c) => c.method === 'editMessageReplyMarkup')).toBe(true);
    const text = lastText(preview);
    expect(text).toContain(`Google Workspace для ${domain}: что изменится`);
    expect(text).toContain('Добавить: 1\nИзменить: 2');
    expect(text).toContain('smtp.google.com');
    expect(text).toContain('google-site-verification=Ab_12-cd');
    expect(text).toContain('Заменить (удалить): 0');
    expect(text).toContain('mx.other.by');
    expect(text).toContain('Уже есть: 0');
    expect(text).toContain('Остальные записи останутся как есть');
    expect(text).not.toContain('192.0.2.1');
    // The TXT values it adds can be copied (to paste on the service's page).
    expect(buttons(preview).filter((b) => b.copy_text)).toEqual([
      {
        text: '📋 v=spf1 include:_spf.google.com ~all',
        copy_text: { text: 'v=spf1 include:_spf.google.com ~all' },
      },
      {
        text: '📋 google-site-verification=Ab_12-cd',
        copy_text: { text: 'google-site-verification=Ab_12-cd' },
      },
    ]);

    const from = h.sandbox.requests.length;
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(toast(applied)).toBe('Применяю набор…');
    // One progress message, edited after each of the 5 calls.
    expect(
      applied.filter((c) => c.method === 'sendMessage' && /Применяю изменения/.test(String(c.payload.text))),
    ).toHaveLength(1);
    expect(applied.filter((c) => c.method === 'editMessageText')).toHaveLength(5);
    expect(all(applied)).toContain('Готово: 3 из 3 изменений применено.');
    // The one gap-free order: @ gets its new records before the old ones go.
    expect(writesSince(from)).toEqual([
      `POST /v1/domains/${orderId}/dns/records/mx`,
      `POST /v1/domains/${orderId}/dns/records/txt`,
      `POST /v1/domains/${orderId}/dns/records/txt`,
      `DELETE /v1/domains/${orderId}/dns/records/mx/${idOf('@ 10 mx.other.by')}`,
      `DELETE /v1/domains/${orderId}/dns/records/txt/${idOf('@ v=spf1 include:_spf.other.by -all')}`,
    ]);
    expect(await listedValues(orderId)).toEqual([
      'A www 192.0.2.1',
      'MX @ 1 smtp.google.com',
      'TXT @ google-site-verification=Ab_12-cd',
      'TXT @ v=spf1 include:_spf.google.com ~all',
    ]);
    // The partner sees the records after the change.
    expect(lastText(applied)).toContain(`DNS-записи ${domain}`);
    // Single use.
    const again = await h.press(buttonData(preview, 'Применить'));
    expect(toast(again)).toContain('устарел');
    expect(writesSince(from)).toHaveLength(5);

    // The whole preset is one history entry: its report's ↩ undoes all five changes at once.
    const undo = await h.press(buttonData(applied, '↩ Отменить'));
    expect(lastText(undo)).toContain('Отменить изменение домена');
    const undone = await h.press(buttonData(undo, '↩ Да, отменить'));
    expect(all(undone)).not.toContain('не получилось');
    expect(writesSince(from)).toHaveLength(10);
    expect(await listedValues(orderId)).toEqual([
      'A www 192.0.2.1',
      'MX @ 10 mx.other.by',
      'TXT @ v=spf1 include:_spf.other.by -all',
    ]);
    const history = lastText(await h.send(`/dns ${domain} history`));
    expect(history).toContain('Анна · набор записей');
  });

  it('Yandex 360: the code can be skipped; a record already there is kept; "No" changes nothing', async () => {
    const domain = `preset-yandex-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    await h
      .api()
      .addDnsRecord(orderId, { kind: 'mx', ttl: 300, host: '@', mail_server: 'mx.yandex.net', priority: 10 });
    const asked = await h.press(buttonData(await h.send(`/dns ${orderId} preset`), 'Почта Яндекс 360'));
    expect(lastText(asked)).toContain('Необязательно — можно пропустить.');
    const preview = await h.press(buttonData(asked, 'Пропустить'));
    expect(toast(preview)).toBe('Пропускаю…');
    const text = lastText(preview);
    expect(text).toContain('Добавить: 1');
    expect(text).toContain('v=spf1 include:_spf.yandex.net ~all');
    expect(text).toContain('Заменить (удалить): 0');
    expect(text).toContain('Уже есть: 1');
    // A second tap on Skip is stale, not a skip of something else.
    expect(toast(await h.press(buttonData(asked, 'Пропустить')))).toContain('устарел');
    const from = h.sandbox.requests.length;
    const no = await h.press(buttonData(preview, 'Нет'));
    expect(lastText(no)).toContain('Отменено: записи не менялись.');
    expect(toast(await h.press(buttonData(preview, 'Применить')))).toContain('устарел');
    expect(writesSince(from)).toEqual([]);
  });

  it('GitHub Pages: a wrong user name is asked again; a refused record is reported with the provider’s reason', async () => {
    const domain = `preset-pages-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.7' });
    const list = await h.send(`/dns ${domain}`);
    const choice = await h.press(buttonData(list, 'Наборы'));
    const asked = await h.press(buttonData(choice, 'GitHub Pages'));
    expect(buttons(asked)).toEqual([]);
    expect(lastText(await h.send('octo--cat'))).toContain('Это не имя на GitHub');
    const preview = await h.send('Octo-Cat');
    expect(lastText(preview)).toContain('Добавить: 8\nИзменить: 1');
    expect(lastText(preview)).toContain('octo-cat.github.io');
    expect(lastText(preview)).toContain('Заменить (удалить): 0');
    h.sandbox.addFault({
      method: 'POST',
      path: `/v1/domains/${orderId}/dns/records/cname`,
      fault: { kind: 'status', status: 400, body: '{"message":"Поле «canonical» имеет неверный формат"}' },
    });
    const applied = await h.press(buttonData(preview, 'Применить'));
    const report = all(applied);
    expect(report).toContain('Готово: 8 из 9 изменений применено.');
    expect(report).toContain('Не получилось (1):');
    expect(report).toContain('Поле «canonical» имеет неверный формат');
    const values = await listedValues(orderId);
    expect(values.filter((v) => v.startsWith('A @ 185.199.'))).toHaveLength(4);
    expect(values).not.toContain('A @ 192.0.2.7');
  });

  it('asks a second time before a preset deletes more than 30% of 10 or more records', async () => {
    const domain = `preset-mass-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const api = h.api();
    for (const n of [1, 2, 3, 4])
      await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: `192.0.2.${n}` });
    for (const host of ['a', 'b', 'c', 'd', 'e', 'f'])
      await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host, ipv4: '192.0.2.9' });
    const preview = await h.press(buttonData(await h.send(`/dns ${domain} preset`), 'Tilda'));
    expect(lastText(preview)).toContain('Добавить: 1\nИзменить: 1\nЗаменить (удалить): 3');
    const from = h.sandbox.requests.length;
    const second = await h.press(buttonData(preview, 'Применить'));
    expect(lastText(second)).toContain('Набор удалит 4 из 10 записей — больше 30%');
    expect(writesSince(from)).toEqual([]);
    const done = await h.press(buttonData(second, 'Да, удалить 4'));
    expect(all(done)).toContain('Готово: 5 из 5 изменений применено.');
    const values = await listedValues(orderId);
    expect(values).toContain('A @ 185.165.123.36');
    expect(values).toContain('CNAME www tilda.ws');
    expect(values).toHaveLength(8);
  });

  it('speaks English to an English chat, and says when everything is in place already', async () => {
    const domain = `preset-en-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const choice = await h.send(`/dns ${orderId} preset`, en);
    expect(lastText(choice)).toContain(`Ready record sets for ${domain}`);
    const asked = await h.press(buttonData(choice, 'SPF + DMARC'), en);
    expect(lastText(asked)).toContain('The address for DMARC reports');
    const preview = await h.send('mailto:dmarc@example.by', en);
    expect(lastText(preview)).toContain('Add: 2');
    expect(lastText(preview)).toContain('v=DMARC1; p=none; rua=mailto:dmarc@example.by');
    await h.press(buttonData(preview, 'Apply'), en);
    const again = await h.press(buttonData(await h.send(`/dns ${orderId} preset`, en), 'SPF + DMARC'), en);
    const same = await h.send('dmarc@example.by', en);
    expect(again.length).toBeGreaterThan(0);
    expect(lastText(same)).toContain('Everything is in place already');
    expect(buttons(same)).toEqual([]);
  });

  it('/cancel leaves the questions: the next message is not taken for a parameter', async () => {
    const domain = `preset-cancel-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    await h.press(buttonData(await h.send(`/dns ${orderId} preset`), 'GitHub Pages'));
    await h.send('/cancel');
    const from = h.sandbox.requests.length;
    const after = await h.send('octo-cat');
    expect(all(after)).not.toContain('что изменится');
    expect(writesSince(from)).toEqual([]);
  });

  it('/help keeps the question; /cancel closes an open preview, whose Apply then changes nothing', async () => {
    const domain = `preset-help-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    await h.press(buttonData(await h.send(`/dns ${orderId} preset`), 'GitHub Pages'));
    const help = await h.send('/help');
    expect(all(help)).toContain('Что умеет бот');
    expect(lastText(help)).toBe('Вопрос выше ждёт ответа: пришлите его или выйдите — /cancel.');
    // The question is still open: the answer previews the preset.
    const preview = await h.send('octo-cat');
    expect(lastText(preview)).toContain('что изменится');
    expect(lastText(await h.send('/cancel'))).toBe('Отменено. Ничего не отправлено.');
    const from = h.sandbox.requests.length;
    const apply = await h.press(buttonData(preview, 'Применить'));
    expect(toast(apply)).toContain('устарел');
    expect(writesSince(from)).toEqual([]);
    expect(lastText(await h.send('/cancel'))).toContain('нечего');
  });
});

describe('a preset applied in a bound group', () => {
  const tech = { userId: 333, firstName: 'Борис' };
  const { h: team } = useBot({ team: [[tech, 'техник']] });

  it('is announced there with who applied it; the answers are replies to the bot', async () => {
    const domain = `preset-team-${Date.now()}.com`;
    await orderTestDomain(team.api(), domain);
    const choice = await team.send(`/dns ${domain} preset`, inGroup(tech));
    const asked = await team.press(buttonData(choice, 'SPF + DMARC'), inGroup(tech));
    // A question with a button (Skip) asks in words for a reply; only he sees it, so it names no one.
    const question = asked.filter((c) => c.method === 'sendMessage').at(-1);
    expect(question?.payload.ephemeral_message_parameters).toMatchObject({ receiver_user_id: 333 });
    expect(lastText(asked)).toMatch(/^<b>SPF \+ DMARC<\/b>/);
    expect(lastText(asked)).toContain('↩️ Ответьте на это сообщение');
    const preview = await team.press(buttonData(asked, 'Пропустить'), inGroup(tech));
    const applied = await team.press(buttonData(preview, 'Применить'), inGroup(tech));
    expect(texts(applied).filter((t) => t.startsWith('📣'))).toEqual([
      `📣 Борис (техник) применил(а) набор «SPF + DMARC» к домену ${domain}: выполнено 2 из 2.`,
    ]);
    // A parameter typed as a reply to the bot's question is taken in a group.
    const pages = await team.press(buttonData(choice, 'GitHub Pages'), inGroup(tech));
    expect(lastText(pages)).toContain('GitHub Pages');
    // Without buttons of its own: a ForceReply, in a message only he sees.
    expect(pages.filter((c) => c.method === 'sendMessage').at(-1)?.payload.reply_markup).toEqual({
      force_reply: true,
      selective: true,
    });
    // His answer to an ephemeral question may come without reply_to_message: his open question takes it.
    const answered = await team.send('octo-cat', inGroup(tech));
    expect(lastText(answered)).toContain('octo-cat.github.io');
  });
});
