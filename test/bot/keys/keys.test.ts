import { describe, expect, it } from 'vitest';
import { KEY_LIMITS } from '../../../src/core/robot-keys.js';
import { type BotCall, buttonData, buttons, lastText, texts } from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { addressKey, certificateKey } from '../../helpers/key-fixtures.js';
import { EN, useBot, withBot } from '../../helpers/use-bot.js';

/*
 * Issue 41, the chat's side: keys for robots made, listed, rotated and revoked in /keys, and from
 * a record's card. The secret is shown once, with copy buttons and ready configs, and never again.
 */

const GATEWAY = 'https://bot.example.invalid';
const { h } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'], gatewayUrl: GATEWAY });

const all = (calls: BotCall[]) => texts(calls).join('\n');
let seq = 0;
const newDomain = async () => {
  const domain = `keys-${Date.now()}-${++seq}.com`;
  return { domain, orderId: await orderTestDomain(h.api(), domain) };
};
/** What a copy button of these calls copies. */
const copied = (calls: BotCall[], label: string) =>
  buttons(calls).find((b) => b.text === label)?.copy_text?.text;
/** The login and password the secret message showed. */
const credentials = (calls: BotCall[]) => {
  const text = all(calls);
  const login =
    /Логин: <code>(k[a-z2-7]{12})<\/code>/.exec(text)?.[1] ??
    /Login: <code>(k[a-z2-7]{12})<\/code>/.exec(text)?.[1];
  const password = /(?:Пароль|Password): <code>([A-Za-z0-9_-]{43})<\/code>/.exec(text)?.[1];
  if (!login || !password) throw new Error(`no credentials in: ${text}`);
  return { login, password };
};
/** Deletes every key of the partner's chat (each story starts with none). */
const forgetKeys = async (chatId: number) => {
  for (const key of await h.robotKeys.list(chatId)) await h.robotKeys.revoke(key.id);
};

describe('/keys in a private chat', () => {
  it('explains keys when there are none, makes an address key step by step and shows its secret once', async () => {
    await forgetKeys(424_242);
    const { domain } = await newDomain();
    const empty = await h.send('/keys');
    expect(lastText(empty)).toContain('Ключей для роботов пока нет');
    expect(lastText(empty)).toContain('роутеру или NAS');
    expect(buttons(empty).map((b) => b.text)).toEqual(['➕ Новый ключ']);

    let step = await h.press(buttonData(empty, '➕ Новый ключ'));
    expect(lastText(step)).toContain('Что он будет менять?');
    expect(buttons(step).map((b) => b.text)).toEqual(
      expect.arrayContaining(['🏠 Адрес хоста (роутер, NAS)', "🔒 Сертификат (Let's Encrypt)"]),
    );
    step = await h.press(buttonData(step, '🏠 Адрес хоста'));
    expect(lastText(step)).toContain('Пришлите имя хоста');

    // A name of nobody's domain is refused by name, and asked again.
    step = await h.send('office.not-ours-at-all.by');
    expect(all(step)).toContain('office.not-ours-at-all.by нет среди доменов этого аккаунта');
    expect(lastText(step)).toContain('Пришлите имя хоста');
    step = await h.send('*.x.by');
    expect(all(step)).toContain('«*.x.by» — это не имя хоста');

    step = await h.send(`office.${domain}`);
    expect(lastText(step)).toContain('Как назвать ключ?');
    expect(buttons(step).map((b) => b.text)).toContain(`office.${domain}`);
    step = await h.send('Роутер офиса');
    expect(lastText(step)).toContain('Откуда робот будет обращаться?');
    step = await h.send('198.51.100.0/33');
    expect(all(step)).toContain('«198.51.100.0/33» — это не сеть');
    step = await h.send('198.51.100.0/24');
    const summary = all(step);
    expect(summary).toContain('Новый ключ для робота');
    expect(summary).toContain(`адрес хоста office.${domain} (записи A и AAAA)`);
    expect(summary).toContain('Имя: «Роутер офиса»');
    expect(summary).toContain('Сети: 198.51.100.0/24');

    const made = await h.press(buttonData(step, '🔑 Создать ключ'));
    const text = all(made);
    expect(text).toContain('Ключ «Роутер офиса» готов');
    expect(text).toContain('Сохраните пароль сейчас');
    const { login, password } = credentials(made);
    // ddclient's config and the router's URL, with this server's address and the risk said.
    expect(text).toContain(
      `server=bot.example.invalid\nuse=if, if=eth0\nlogin=${login}\npassword='${password}'\noffice.${domain}`,
    );
    expect(text).toContain(
      `https://${login}:${password}@bot.example.invalid/nic/update?hostname=office.${domain}&amp;myip=&lt;ipaddr&gt;`,
    );
    expect(text).toContain('могут остаться в журналах роутера');
    expect(copied(made, '📋 Логин')).toBe(login);
    expect(copied(made, '📋 Пароль')).toBe(password);
    expect(copied(made, '📋 Конфиг ddclient')).toContain(`password='${password}'`);
    expect(copied(made, '📋 Ссылка для роутера')).toContain('/nic/update?hostname=');
    // The key works with exactly that password, and is stored with what the form gathered.
    const key = await h.robotKeys.verify(login, password);
    expect(key).toMatchObject({ kind: 'address', scope: `office.${domain}`, networks: ['198.51.100.0/24'] });
    expect(key?.createdBy).toEqual({ userId: 424_242, name: 'Анна' });

    // The list names it, its networks and maker; the secret is never shown again.
    const list = await h.send('/keys');
    const listed = all(list);
    expect(listed).toContain('1 ключ');
    // What 🔄 and 🗑 do is said before the buttons that bear only them.
    expect(listed).toContain('🔄 — выдать новый пароль, 🗑 — удалить ключ');
    expect(listed).toContain('🏠 Роутер офиса');
    expect(listed).toContain(`адрес хоста office.${domain}`);
    expect(listed).toContain('только из сетей 198.51.100.0/24');
    expect(listed).toMatch(/создан \d\d\.\d\d\.\d{4}, \d\d:\d\d, автор: Анна/);
    expect(listed).not.toContain('(а)');
    expect(listed).toContain('ещё ни разу не использовался');
    expect(listed).not.toContain(password);
    expect(buttons(list).map((b) => b.text)).toEqual(['🔄 Роутер офиса', '🗑 Роутер офиса', '➕ Новый ключ']);
    expect(JSON.stringify(list)).not.toContain(password);
    // No word of the code in the partner's screens.
    for (const word of ['address', 'certificate', 'keyNew', 'undefined']) expect(listed).not.toContain(word);

    // Every label fits a phone's width; «🗑 Сохранил, удалить» deletes the message with the password.
    for (const b of buttons(made)) expect(b.text.length, b.text).toBeLessThanOrEqual(30);
    expect(buttons(made).map((b) => b.text)).toContain('🗑 Сохранил, удалить');
    const hidden = await h.press(buttonData(made, 'Сохранил'));
    expect(hidden.map((c) => c.method)).toContain('deleteMessage');
  });

  it('shows a key’s last use in Minsk time; rotates (asked first): the old password stops, the id stays', async () => {
    await forgetKeys(424_242);
    const { domain, orderId } = await newDomain();
    const { key, secret } = await h.robotKeys.create(
      addressKey(424_242, {
        name: 'NAS',
        scope: `nas.${domain}`,
        orderId,
        domain,
        createdBy: { userId: 424_242, name: 'Анна' },
      }),
    );
    await h.robotKeys.noteUse(key.id, {
      at: '2026-11-28T12:05:00.000Z',
      from: '198.51.100.9',
      action: 'good',
      detail: '198.51.100.9',
    });
    // A certificate key's last use names the challenge, in words.
    const certificate = await h.robotKeys.create(
      certificateKey(424_242, {
        name: 'Сертификат',
        scope: domain,
        orderId,
        domain,
        createdBy: { userId: 424_242, name: 'Анна' },
      }),
    );
    await h.robotKeys.noteUse(certificate.key.id, {
      at: '2026-11-28T12:07:00.000Z',
      from: '203.0.113.5',
      action: 'present',
      detail: `_acme-challenge.${domain}`,
    });
    const list = await h.send('/keys');
    expect(all(list)).toContain(`с адреса 203.0.113.5 — поставлена проверка для _acme-challenge.${domain}`);
    // 12:05 UTC is 15:05 in Minsk.
    expect(all(list)).toContain(
      'последний раз: 28.11.2026, 15:05, с адреса 198.51.100.9 — адрес обновлён: 198.51.100.9',
    );
    expect(all(list)).toContain('из любой сети');

    const ask = await h.press(buttonData(list, '🔄 NAS'));
    expect(lastText(ask)).toContain('Выдать ключу «NAS»');
    expect(lastText(ask)).toContain('Старый перестанет работать сразу');
    // What the key changes is on its own line, not in brackets within brackets.
    expect(lastText(ask)).toContain('\nМеняет: адрес хоста');
    expect(lastText(ask)).not.toMatch(/\([^)]*\(/);
    // Asking changes nothing.
    expect(await h.robotKeys.verify(key.id, secret)).toBeDefined();
    const rotated = await h.press(buttonData(ask, '🔄 Да, новый пароль'));
    expect(all(rotated)).toContain('Ключу «NAS» выдан новый пароль');
    expect(all(rotated)).toContain('Новый пароль ключа «NAS»');
    const fresh = credentials(rotated);
    expect(fresh.login).toBe(key.id);
    expect(fresh.password).not.toBe(secret);
    expect(await h.robotKeys.verify(key.id, secret)).toBeUndefined();
    expect(await h.robotKeys.verify(key.id, fresh.password)).toMatchObject({ id: key.id, name: 'NAS' });
    // The question's buttons are gone once it is settled.
    const settled = rotated.find((c) => c.method === 'editMessageText');
    expect(settled?.payload.reply_markup).toBeUndefined();
  });

  it('revokes a key after asking; «Нет» keeps it and says so', async () => {
    await forgetKeys(424_242);
    const { domain, orderId } = await newDomain();
    const { key } = await h.robotKeys.create(
      certificateKey(424_242, {
        name: 'Сертификат сайта',
        scope: domain,
        orderId,
        domain,
        createdBy: { userId: 424_242, name: 'Анна' },
      }),
    );
    const list = await h.send('/keys');
    expect(all(list)).toContain(`🔒 Сертификат сайта`);
    expect(all(list)).toContain(`проверка сертификата для ${domain}`);
    const ask = await h.press(buttonData(list, '🗑 Сертификат'));
    expect(lastText(ask)).toContain('Удалить ключ «Сертификат сайта»');
    expect(lastText(ask)).not.toMatch(/\([^)]*\(/);
    expect(buttons(ask).map((b) => [b.text, b.style])).toEqual([
      ['🗑 Да, удалить', 'danger'],
      ['Нет', undefined],
    ]);
    const kept = await h.press(buttonData(ask, 'Нет'));
    expect(lastText(kept)).toBe('Хорошо, ключ остался как был.');
    expect(await h.robotKeys.get(key.id)).toBeDefined();

    const again = await h.press(buttonData(list, '🗑 Сертификат'));
    const revoked = await h.press(buttonData(again, 'Да, удалить'));
    expect(lastText(revoked)).toContain('Ключ «Сертификат сайта»');
    expect(lastText(revoked)).toContain('удалён: роботы с ним больше ничего не изменят');
    expect(await h.robotKeys.get(key.id)).toBeUndefined();
    // An old button of the gone key says so.
    const stale = await h.press(buttonData(list, '🔄 Сертификат'));
    expect(lastText(stale)).toContain('Этого ключа уже нет');
  });

  it('starts from a record’s card: an A record makes an address key, a challenge TXT a certificate key', async () => {
    await forgetKeys(424_242);
    const { domain, orderId } = await newDomain();
    await h.send(`/dns ${orderId} add A home 192.0.2.7`);
    await h.send(`/dns ${orderId} add TXT _acme-challenge ttl=300 "x"`);
    const records = await h.send(`/dns ${orderId}`);
    const card = await h.press(buttonData(records, 'A home'));
    expect(buttons(card).map((b) => b.text)).toContain('🔑 Автообновление');
    // Kind and host come from the card: the form asks the key's name at once.
    let step = await h.press(buttonData(card, '🔑 Автообновление'));
    expect(lastText(step)).toContain('Как назвать ключ?');
    expect(buttons(step).map((b) => b.text)).toContain(`home.${domain}`);
    step = await h.press(buttonData(step, `home.${domain}`));
    step = await h.press(buttonData(step, 'Пропустить'));
    expect(all(step)).toContain(`адрес хоста home.${domain}`);
    expect(all(step)).toContain('Сети: любые');
    await h.send('/cancel');

    const txtCard = await h.press(buttonData(records, 'TXT _acme-challenge'));
    step = await h.press(buttonData(txtCard, '🔑 Автообновление'));
    step = await h.send('Let’s Encrypt сайта');
    step = await h.press(buttonData(step, 'Пропустить'));
    expect(all(step)).toContain(`проверка сертификата для ${domain}`);
    const made = await h.press(buttonData(step, '🔑 Создать ключ'));
    const { login, password } = credentials(made);
    const text = all(made);
    expect(text).toContain(
      `HTTPREQ_ENDPOINT=${GATEWAY}\nHTTPREQ_USERNAME=${login}\nHTTPREQ_PASSWORD=${password}`,
    );
    expect(text).toContain(
      `export ACMEPROXY_ENDPOINT=${GATEWAY}\nexport ACMEPROXY_USERNAME=${login}\nexport ACMEPROXY_PASSWORD=${password}`,
    );
    // lego will not run without an account email: the command carries one to change.
    expect(text).toContain(`lego --email admin@${domain} --dns httpreq -d '${domain}' -d '*.${domain}' run`);
    expect(copied(made, '📋 Переменные lego')).toContain(`HTTPREQ_PASSWORD=${password}`);
    expect(copied(made, '📋 Переменные acme.sh')).toContain(`ACMEPROXY_PASSWORD=${password}`);
    expect(await h.robotKeys.verify(login, password)).toMatchObject({ kind: 'certificate', scope: domain });

    // A CNAME's card offers no key.
    await h.send(`/dns ${orderId} add CNAME shop shops.example.net`);
    const cname = await h.press(buttonData(await h.send(`/dns ${orderId}`), 'CNAME shop'));
    expect(buttons(cname).map((b) => b.text)).not.toContain('🔑 Автообновление');
  });

  it('reads a typed challenge name as its domain, and refuses a key name the chat already has', async () => {
    await forgetKeys(424_242);
    const { domain, orderId } = await newDomain();
    await h.robotKeys.create(
      addressKey(424_242, {
        name: 'Роутер',
        scope: `gw.${domain}`,
        orderId,
        domain,
        createdBy: { userId: 424_242, name: 'Анна' },
      }),
    );
    let step = await h.send('/keys new');
    step = await h.press(buttonData(step, '🔒 Сертификат'));
    expect(lastText(step)).toContain('Пришлите домен, для которого нужен сертификат');
    step = await h.send(`_acme-challenge.shop.${domain}`);
    expect(lastText(step)).toContain('Как назвать ключ?');
    step = await h.send('роутер');
    expect(all(step)).toContain('Ключ «роутер» в этом чате уже есть');
    expect(lastText(step)).toContain('Как назвать ключ?');
    step = await h.send('x'.repeat(KEY_LIMITS.nameLength + 1));
    expect(all(step)).toContain(`Имя ключа — от 1 до ${KEY_LIMITS.nameLength} символов`);
    step = await h.send('Магазин');
    step = await h.press(buttonData(step, 'Пропустить'));
    expect(all(step)).toContain(`проверка сертификата для shop.${domain}`);
    const cancelled = await h.press(buttonData(step, '✖'));
    expect(all(cancelled)).toContain('Ключ не создан.');
    expect(await h.robotKeys.list(424_242)).toHaveLength(1);
  });

  it('says when the chat holds as many keys as it may, and offers no new one', async () => {
    await forgetKeys(424_242);
    const { domain, orderId } = await newDomain();
    for (let n = 0; n < KEY_LIMITS.perChat; n++)
      await h.robotKeys.create(
        addressKey(424_242, {
          name: `R${n}`,
          scope: `r${n}.${domain}`,
          orderId,
          domain,
          createdBy: { userId: 424_242, name: 'Анна' },
        }),
      );
    const list = await h.send('/keys');
    expect(all(list)).toContain(`В этом чате уже ${KEY_LIMITS.perChat} ключей — больше нельзя`);
    expect(buttons(list).map((b) => b.text)).not.toContain('➕ Новый ключ');
    const refused = await h.send('/keys new');
    expect(lastText(refused)).toContain('больше нельзя');
    await forgetKeys(424_242);
  });

  it('speaks English: the form, the secret and the list', async () => {
    await forgetKeys(EN.chatId);
    const { domain } = await newDomain();
    let step = await h.send('/keys new', EN);
    expect(lastText(step)).toContain('What will it change?');
    step = await h.press(buttonData(step, '🏠 A host'), EN);
    step = await h.send(`gw.${domain}`, EN);
    step = await h.send('Office router', EN);
    step = await h.press(buttonData(step, 'Skip'), EN);
    const made = await h.press(buttonData(step, '🔑 Make the key'), EN);
    expect(all(made)).toContain('The key “Office router” is ready');
    expect(copied(made, '📋 Password')).toBe(credentials(made).password);
    const list = await h.send('/keys', EN);
    expect(all(list)).toContain(`the address of host gw.${domain}`);
    expect(all(list)).toContain('from any network');
    expect(all(list)).toContain('not used yet');
  });
});

describe('without GATEWAY_URL', () => {
  it('shows a placeholder for the bot’s address and says the operator sets it', async () => {
    await withBot({}, async (bare) => {
      await bare.connect();
      const domain = `keys-bare-${Date.now()}.com`;
      await orderTestDomain(bare.api(), domain);
      let step = await bare.send('/keys new');
      step = await bare.press(buttonData(step, '🏠 Адрес хоста'));
      step = await bare.send(`nas.${domain}`);
      step = await bare.send('NAS');
      step = await bare.press(buttonData(step, 'Пропустить'));
      const made = await bare.press(buttonData(step, '🔑 Создать ключ'));
      const text = all(made);
      expect(text).toContain('server=&lt;адрес-бота&gt;');
      expect(text).toContain('настройка GATEWAY_URL');
    });
  });
});
