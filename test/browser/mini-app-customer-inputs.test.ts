/**
 * The customer editor at a phone's size (390 × 780), in Debian's Chromium over the real playground
 * process, taking what a partner types: the country chosen from a list with search (Belarus and
 * Russia first, Russian names, its code sent), a postal code with a space and a phone as dialled
 * at home. A Save refused for a field left empty scrolls to that field and focuses it.
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

describe.skipIf(!hasChromium)('the customer editor takes what people type, at 390 × 780', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  /** The bodies of the app's customer/save calls, as sent. */
  const saves: Record<string, unknown>[] = [];

  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);
  const field = (name: string) => app().getByRole('textbox', { name, exact: true });

  beforeAll(async () => {
    ({ playground, browser, page } = await openConnected());
    await page.setViewportSize({ width: 390, height: 780 });
    page.on('request', (request) => {
      if (request.url().endsWith('/api/customer/save')) saves.push(request.postDataJSON());
    });
    await page.getByRole('button', { name: /^Partner Bot/ }).click();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('the country is chosen from a list; a refused Save focuses the first field in trouble', async () => {
    const partner = partnerOn(page);
    await partner.send('/requisites');
    await partner.log.getByRole('button', { name: '🧩 Открыть форму' }).last().waitFor();
    await partner.tap('🧩 Открыть форму');
    await app().getByRole('button', { name: 'Новый заказчик' }).click();
    await app().getByRole('combobox', { name: 'Тип заказчика' }).selectOption({ label: 'Физическое лицо' });

    const country = app().getByRole('combobox', { name: 'Адрес — код страны', exact: true });
    await country.waitFor();
    // The list it searches: Russian names, Belarus and Russia first.
    const listId = await country.getAttribute('list');
    const names = await app()
      .locator(`datalist[id="${listId}"] option`)
      .evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    expect(names.slice(0, 2)).toEqual(['Беларусь', 'Россия']);
    expect(names).toContain('Германия');
    expect(names).not.toContain('BY');
    await field('Фамилия').fill('Шевчук');
    await field('Имя').fill('Алеся');
    // Typing «Бел» and taking the suggestion leaves the name in the box, as a pick from the list does.
    await country.pressSequentially('Бел');
    await country.fill('Беларусь');
    await app().getByText('для страны BY — 6 цифр, например 220030').waitFor({ timeout: 5_000 });
    await field('Адрес — почтовый индекс').fill('220 030');
    await field('Адрес — область / регион').fill('Минская');
    // The city is left empty: Save is refused for it.
    await field('Адрес — улица').fill('ул. Сурганова');
    await field('Адрес — дом').fill('2');
    await field('Контактный телефон').fill('8 029 123 45 67');
    await field('Контактный e-mail').fill('alesya@example.by');
    await expect
      .poll(() => app().getByRole('alert').filter({ hasText: /\S/ }).count(), { timeout: 5_000 })
      .toBe(0);

    const save = panel().getByRole('button', { name: 'Сохранить' });
    await save.click();
    await app()
      .getByRole('alert')
      .filter({ hasText: 'Заполните поле «Адрес — город».' })
      .waitFor({ timeout: 5_000 });
    const city = field('Адрес — город');
    // The field in trouble is focused and in view, above the keyboard's and the main button's edge.
    await expect
      .poll(
        () =>
          city.evaluate((input) => {
            const box = input.getBoundingClientRect();
            const page = input.ownerDocument;
            const height = page.defaultView?.innerHeight ?? 0;
            return page.activeElement === input && box.top >= 0 && box.bottom <= height;
          }),
        { timeout: 5_000 },
      )
      .toBe(true);

    await city.fill('Минск');
    await save.click();
    await app()
      .getByRole('status')
      .filter({ hasText: 'Заказчик сохранён: Шевчук Алеся' })
      .waitFor({ timeout: 5_000 });
    const sent = saves.at(-1)?.answers as Record<string, unknown>;
    expect(sent['c:address.country_code']).toBe('BY');

    // Opened again, the country shows by its name.
    await app().getByRole('button', { name: 'Изменить: Шевчук Алеся' }).click();
    await expect.poll(() => country.inputValue(), { timeout: 5_000 }).toBe('Беларусь');
    await expect(field('Адрес — почтовый индекс').inputValue()).resolves.toBe('220030');
    await expect(field('Контактный телефон').inputValue()).resolves.toBe('+375291234567');
  }, 120_000);
});
