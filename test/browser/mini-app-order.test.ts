/**
 * The order form as a partner uses it, in Debian's Chromium over the real playground process:
 * `/order` → «🧩 Открыть форму» → the app's «Новый заказ». A new customer entered in the customer
 * editor from the form; a .by domain checked as it is typed; Confirm (Telegram's main button)
 * refused while the customer lacks the .by WHOIS data, named; the card completed from there; the
 * order placed — exactly one create call, the invoice link in the chat. Then, opened again, a
 * saved customer picked and a second domain ordered: one more order, one more link. Russian words
 * only on screen.
 */
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appFrame,
  appPanel,
  hasChromium,
  openConnected,
  type PlaygroundSandbox,
  partnerOn,
  type RunningPlayground,
  sandboxRequests,
} from '../helpers/playground.js';

describe.skipIf(!hasChromium)('the order form in the playground', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  let sandbox: PlaygroundSandbox;

  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);
  const field = (name: string) => app().getByRole('textbox', { name, exact: true });
  /** A country is chosen from a list it searches: a combobox. */
  const country = (name: string) => app().getByRole('combobox', { name, exact: true });
  const confirm = () => panel().getByRole('button', { name: 'Оформить заказ' });
  /** The create calls of domain orders the sandbox received. */
  const domainOrders = async () =>
    (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');
  /** What the app shows reads as words: no answer ids, codes, or English left in. */
  const expectWordsOnly = async () => {
    const text = await app().locator('body').innerText();
    expect(text).not.toMatch(/\b(c:|w:|whois_|customerIncomplete|natural|undefined|null|NaN)\b/);
    expect(text).not.toMatch(/\b(Order|Customer|Confirm|Tariff|Domain)\b/);
  };
  const openForm = async () => {
    const partner = partnerOn(page);
    await partner.send('/order');
    await partner.log.getByRole('button', { name: '🧩 Открыть форму' }).last().waitFor();
    await partner.tap('🧩 Открыть форму');
    await app().getByRole('heading', { name: 'Новый заказ', exact: true }).waitFor();
    return partner;
  };
  /** A free .by name typed into the form, its verdict read as it is typed. */
  const typeFreeDomain = async (name: string) => {
    await field('Домен').fill(name);
    await app()
      .getByRole('status')
      .filter({ hasText: `✅ ${name} — свободен` })
      .waitFor({ timeout: 5_000 });
  };

  beforeAll(async () => {
    ({ playground, browser, page, sandbox } = await openConnected());
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('a new customer from the form, the .by WHOIS data asked for by name, then the order: one create call, the link in the chat', async () => {
    const partner = await openForm();
    await app().getByRole('combobox', { name: 'Что заказать' }).selectOption({ label: '🌐 Домен' });
    // Nothing chosen yet: the form says what is left, and «Оформить заказ» waits.
    await app().getByText('Осталось выбрать: свободный домен, срок, заказчика.').waitFor();

    // No saved customer yet: a new one, in the customer editor, Save as the main button (no
    // domain typed yet, so no WHOIS data is asked).
    await app().getByRole('button', { name: 'Новый заказчик' }).click();
    await app().getByRole('combobox', { name: 'Тип заказчика' }).selectOption({ label: 'Физическое лицо' });
    await field('Фамилия').fill('Иванов');
    await field('Имя').fill('Иван');
    await country('Адрес — код страны').fill('BY');
    await field('Адрес — почтовый индекс').fill('220030');
    await field('Адрес — область / регион').fill('Минская');
    await field('Адрес — город').fill('Минск');
    await field('Адрес — улица').fill('ул. Немига');
    await field('Адрес — дом').fill('5');
    await field('Контактный телефон').fill('+375 29 123-45-67');
    await field('Контактный e-mail').fill('ivanov@example.by');
    await panel().getByRole('button', { name: 'Сохранить' }).click();
    await app().getByRole('heading', { name: 'Новый заказ', exact: true }).waitFor({ timeout: 5_000 });
    await expect(
      app().getByRole('combobox', { name: 'Заказчик', exact: true }).locator('option:checked').textContent(),
    ).resolves.toBe('Иванов Иван (Физическое лицо)');

    // A taken name is told as it is typed; the term waits for a free one.
    await field('Домен').fill('taken-shop.by');
    await app()
      .getByRole('status')
      .filter({ hasText: '❌ taken-shop.by — занят' })
      .waitFor({ timeout: 5_000 });
    await expect(app().getByRole('combobox', { name: 'Срок' }).isDisabled()).resolves.toBe(true);
    await typeFreeDomain('novy-magazin.by');
    await app().getByRole('combobox', { name: 'Срок' }).selectOption({ index: 2 });
    await app()
      .getByRole('status')
      .filter({ hasText: /^Итого: .+ · 2 года$/ })
      .waitFor();
    // A .by domain needs the passport for WHOIS: refused with the fields named, nothing sent.
    const before = (await domainOrders()).length;
    await expect.poll(() => confirm().isEnabled(), { timeout: 5_000 }).toBe(true);
    await confirm().click();
    await app()
      .getByRole('alert')
      .filter({ hasText: /^У заказчика не хватает данных для этого заказа: WHOIS — гражданство/ })
      .waitFor({ timeout: 5_000 });
    await expect.poll(() => panel().getAttribute('data-haptics')).toContain('notification:error');
    await expectWordsOnly();
    expect(await domainOrders()).toHaveLength(before);

    await app().getByRole('button', { name: 'Дополнить карточку заказчика' }).click();
    await country('WHOIS — гражданство (код страны)').fill('BY');
    await field('WHOIS — серия документа').fill('MP');
    await field('WHOIS — номер документа').fill('1234567');
    await field('WHOIS — кем выдан').fill('Фрунзенский РУВД г. Минска');
    await field('WHOIS — дата выдачи').fill('01.03.2015');
    await panel().getByRole('button', { name: 'Сохранить' }).click();
    await app().getByRole('heading', { name: 'Новый заказ', exact: true }).waitFor({ timeout: 5_000 });

    await expect.poll(() => confirm().isEnabled(), { timeout: 5_000 }).toBe(true);
    await confirm().click();
    await app().getByRole('heading', { name: 'Заказ оформлен' }).waitFor({ timeout: 10_000 });
    await app()
      .getByText(/^✅ Заказ № ЗК-\d{4}-\d{6} оформлен, счёт СФ-/)
      .waitFor();
    await app().getByText('Ссылка на счёт — в чате с ботом.').waitFor();
    await expectWordsOnly();
    const sent = (await domainOrders()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      domain: 'novy-magazin.by',
      period_unit_count: 2,
      whois_person_requisites: { citizenship: 'BY', number: '1234567' },
    });

    // The chat has the order with the invoice's link, as the chat's own Confirm sends it.
    await partner.sees('🧩 Заказ из формы: 🌐 Домен — novy-magazin.by, 2 года.');
    await partner.log
      .getByRole('button', { name: /Открыть счёт/ })
      .last()
      .waitFor();
    await partner.sees(/Ссылка на счёт для клиента:\s*http/);
    await app().getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
  }, 120_000);

  it('opened again: a saved customer picked, a second .by domain ordered — one more order, one more link', async () => {
    const partner = await openForm();
    await typeFreeDomain('vtoroy-magazin.by');
    await app().getByRole('combobox', { name: 'Срок' }).selectOption({ index: 1 });
    await app()
      .getByRole('combobox', { name: 'Заказчик', exact: true })
      .selectOption({ label: 'Иванов Иван (Физическое лицо)' });
    const before = (await domainOrders()).length;
    await expect.poll(() => confirm().isEnabled(), { timeout: 5_000 }).toBe(true);
    await confirm().click();
    await app().getByRole('heading', { name: 'Заказ оформлен' }).waitFor({ timeout: 10_000 });
    expect((await domainOrders()).slice(before).map((r) => (r.body as { domain: string }).domain)).toEqual([
      'vtoroy-magazin.by',
    ]);
    await partner.sees('🧩 Заказ из формы: 🌐 Домен — vtoroy-magazin.by, 1 год.');

    // «Ещё заказ» starts clean: no name, no verdict of the one just ordered.
    await app().getByRole('button', { name: 'Ещё заказ' }).click();
    await app().getByRole('heading', { name: 'Новый заказ', exact: true }).waitFor();
    await expect(field('Домен').inputValue()).resolves.toBe('');
    await expect(
      app()
        .getByText(/— свободен/)
        .count(),
    ).resolves.toBe(0);
    // A new customer for a .by name is asked the zone's WHOIS data at once.
    await typeFreeDomain('tretiy-magazin.by');
    await app().getByRole('button', { name: 'Новый заказчик' }).click();
    await app().getByRole('combobox', { name: 'Тип заказчика' }).selectOption({ label: 'Физическое лицо' });
    await country('WHOIS — гражданство (код страны)').waitFor({ timeout: 5_000 });
    await app().getByRole('button', { name: '← К заказу' }).click();
    // The type was chosen: leaving the unsaved customer is asked in Telegram's popup.
    await panel().getByRole('alertdialog').getByRole('button').first().click();
    await app().getByRole('heading', { name: 'Новый заказ', exact: true }).waitFor();
    await expect(field('Домен').inputValue()).resolves.toBe('tretiy-magazin.by');
  }, 90_000);
});
