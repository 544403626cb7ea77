/**
 * Saved customers as a partner keeps them, in Debian's Chromium over the real playground process:
 * `/requisites` → «🧩 Открыть форму» → the app's «Заказчики» → «Новый заказчик», an individual
 * businessman typed in: a УНП with a wrong control digit is refused under its field as it is
 * typed, fixed, the rest filled, «Сохранить» as Telegram's main button → the list has him, and so
 * does the chat's /requisites. A pasted card opens in the editor with what it could not take;
 * a customer deleted after Telegram's popup is gone from the chat too. Everything on screen is in
 * Russian words: no answer ids, codes or English.
 */
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appFrame,
  appPanel,
  hasChromium,
  openConnected,
  partnerOn,
  type RunningPlayground,
} from '../helpers/playground.js';

describe.skipIf(!hasChromium)('saved customers in the playground', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;

  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);
  const field = (name: string) => app().getByRole('textbox', { name, exact: true });
  /** A country is chosen from a list it searches: a combobox. */
  const country = (name: string) => app().getByRole('combobox', { name, exact: true });
  const problem = (text: string | RegExp) => app().getByRole('alert').filter({ hasText: text });
  /** What the app shows reads as words: no answer ids, codes, or English left in. */
  const expectWordsOnly = async () => {
    const text = await app().locator('body').innerText();
    expect(text).not.toMatch(
      /\b(c:|w:|ucn|legal_address|postal_code|postalSame|bankWanted|businessman|undefined|null)\b/,
    );
    expect(text).not.toMatch(/\b(Save|Customer|Delete|Edit)\b/);
  };

  beforeAll(async () => {
    ({ playground, browser, page } = await openConnected());
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  const openCustomers = async () => {
    const partner = partnerOn(page);
    await partner.send('/requisites');
    await partner.log.getByRole('button', { name: '🧩 Открыть форму' }).last().waitFor();
    await partner.tap('🧩 Открыть форму');
    await app().getByRole('heading', { name: 'Заказчики' }).waitFor();
    return partner;
  };
  const closeApp = async () => {
    await panel().getByRole('button', { name: 'Закрыть' }).click();
    const leave = panel().getByRole('alertdialog');
    // A customer typed but not saved: Telegram asks before closing.
    if (await leave.isVisible().catch(() => false)) await leave.getByRole('button').first().click();
    await panel().waitFor({ state: 'hidden' });
  };

  it('a new customer: a wrong УНП refused as it is typed, fixed, saved — in the app’s list and the chat’s /requisites', async () => {
    await openCustomers();
    await app().getByText('Сохранённых заказчиков пока нет.').waitFor();
    await app().getByRole('button', { name: 'Новый заказчик' }).click();
    await app().getByRole('heading', { name: 'Новый заказчик' }).waitFor();
    await app()
      .getByRole('combobox', { name: 'Тип заказчика' })
      .selectOption({ label: 'Индивидуальный предприниматель' });

    const unp = field('УНП');
    await unp.waitFor();
    await app().getByText('9 цифр, например 190123455').waitFor();
    await unp.fill('190123456');
    await problem(/^Поле «УНП»: последняя цифра номера — контрольная, и она не сходится/).waitFor({
      timeout: 5_000,
    });
    // The field is described by its problem, so a screen reader reads why with it.
    await expect.poll(() => unp.evaluate((input) => input.getAttribute('aria-invalid'))).toBe('true');
    await expect.poll(() => panel().getAttribute('data-haptics')).toContain('notification:error');
    await unp.fill('190123455');
    await expect.poll(() => problem('Поле «УНП»').count(), { timeout: 5_000 }).toBe(0);

    await field('Фамилия').fill('Сидоров');
    await field('Имя').fill('Сидор');
    await country('Юридический адрес — код страны').fill('BY');
    await field('Юридический адрес — почтовый индекс').fill('220030');
    await field('Юридический адрес — область / регион').fill('Минская');
    await field('Юридический адрес — город').fill('Минск');
    await field('Юридический адрес — улица').fill('ул. Ленина');
    await field('Юридический адрес — дом').fill('1');
    await field('Контактный телефон').fill('+375 29 123-45-67');
    await field('Контактный e-mail').fill('sidorov@example.by');
    await expectWordsOnly();

    const save = panel().getByRole('button', { name: 'Сохранить' });
    await expect.poll(() => save.isEnabled(), { timeout: 5_000 }).toBe(true);
    await save.click();
    await app()
      .getByRole('status')
      .filter({ hasText: 'Заказчик сохранён: Сидоров Сидор' })
      .waitFor({ timeout: 5_000 });
    await expect.poll(() => panel().getAttribute('data-haptics')).toContain('notification:success');
    const row = app().getByRole('listitem').filter({ hasText: 'Сидоров Сидор' });
    await row.getByText('Индивидуальный предприниматель').waitFor();
    await expectWordsOnly();
    await closeApp();

    const partner = partnerOn(page);
    await partner.send('/requisites');
    await partner.sees('Сохранённые заказчики (хранятся зашифрованными):');
    await partner.log.getByRole('button', { name: 'Сидоров Сидор' }).last().waitFor();
  }, 90_000);

  it('a pasted card opens in the editor with what it could not take; saved once fixed', async () => {
    await openCustomers();
    await app()
      .getByRole('textbox', { name: /^Реквизиты одним текстом/ })
      .fill(
        [
          'ООО «Пример Плюс»',
          'УНП: 190123456',
          'Юридический адрес: 220004, Беларусь, г. Минск, ул. Немига, д. 5',
          'Директор: Петров Пётр Петрович',
          'Тел.: +375 17 200-00-00',
          'E-mail: office@example.by',
        ].join('\n'),
      );
    await app().getByRole('button', { name: 'Заполнить по карточке' }).click();
    await app().getByRole('heading', { name: 'Новый заказчик из карточки' }).waitFor();
    await app().getByText('Из карточки не взято — проверьте эти поля:').waitFor();
    await expect(app().getByRole('combobox', { name: 'Тип заказчика' }).inputValue()).resolves.toBe(
      'juridical',
    );
    await expect(field('Юридический адрес — город').inputValue()).resolves.toBe('Минск');
    await problem(/^Поле «УНП»: последняя цифра/)
      .first()
      .waitFor();
    await expectWordsOnly();

    // Saving now names what is wrong under each field (the card's УНП, a number cleared), and saves nothing.
    await field('Юридический адрес — дом').fill('');
    await panel().getByRole('button', { name: 'Сохранить' }).click();
    await app()
      .getByRole('alert')
      .filter({ hasText: 'Некоторые поля заполнены не так — исправьте отмеченные.' })
      .waitFor({ timeout: 5_000 });
    await problem('Заполните поле «Юридический адрес — дом».').waitFor();
    await problem(/^Поле «УНП»: последняя цифра/)
      .first()
      .waitFor();
    await field('УНП').fill('190123455');
    await field('Юридический адрес — дом').fill('5');
    await expect.poll(() => problem(/Поле «УНП»|Заполните поле/).count(), { timeout: 5_000 }).toBe(0);
    await panel().getByRole('button', { name: 'Сохранить' }).click();
    await app()
      .getByRole('status')
      .filter({ hasText: 'Заказчик сохранён: ООО «Пример Плюс»' })
      .waitFor({ timeout: 5_000 });
    await app().getByRole('listitem').filter({ hasText: 'Юридическое лицо' }).waitFor();
  }, 90_000);

  it('a customer deleted after Telegram’s popup is gone from the chat too', async () => {
    await app().getByRole('button', { name: 'Удалить: Сидоров Сидор' }).click();
    const popup = panel().getByRole('alertdialog', { name: 'Удалить заказчика «Сидоров Сидор»?' });
    await popup.waitFor();
    await popup.getByRole('button', { name: 'Удалить' }).click();
    await app()
      .getByRole('status')
      .filter({ hasText: 'Заказчик удалён: Сидоров Сидор' })
      .waitFor({ timeout: 5_000 });
    await expect(app().getByRole('listitem').filter({ hasText: 'Сидоров' }).count()).resolves.toBe(0);
    await closeApp();

    const partner = partnerOn(page);
    await partner.send('/requisites');
    const list = partner.log.getByRole('article').last();
    await list.getByRole('button', { name: 'ООО «Пример Плюс»' }).waitFor();
    await expect(list.getByRole('button', { name: 'Сидоров Сидор' }).count()).resolves.toBe(0);
  }, 90_000);
});
