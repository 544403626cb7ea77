/**
 * The zone editor as a partner uses it, in Debian's Chromium over the real playground process
 * (`node dist/playground/main.js`): `/dns mysite.by` → «🧩 Открыть редактор» → the app in the
 * panel; www's address and a TTL changed in place, a record deleted, Apply as Telegram's main
 * button. The sandbox receives exactly those calls (each add before its delete), the chat gets the
 * report, `/dns mysite.by history` lists the change. A team member without the DNS role opens the
 * group's link and sees the zone read-only, and the API refuses their signed write with 403.
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
  type SandboxRequest,
  sandboxRequests,
} from '../helpers/playground.js';

describe.skipIf(!hasChromium)('the zone editor in the playground', () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;
  let sandbox: PlaygroundSandbox;

  const panel = (): Locator => appPanel(page);
  const app = (): FrameLocator => appFrame(page);
  const requests = (): Promise<SandboxRequest[]> => sandboxRequests(sandbox);
  const chat = (title: RegExp) => page.getByRole('button', { name: title }).click();

  beforeAll(async () => {
    ({ playground, browser, page, sandbox } = await openConnected());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await playground?.stop()).toBe(0);
  });

  it('www’s address and a TTL changed, a record deleted, Apply: exactly those calls, the report in the chat, the history', async () => {
    await chat(/^Partner Bot/);
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by');
    await partner.log.getByRole('button', { name: '🧩 Открыть редактор' }).last().waitFor();
    await partner.tap('🧩 Открыть редактор');
    await app().getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor();

    // www's address, in place.
    await app().getByRole('button', { name: 'Значение: A www — 93.125.99.10' }).click();
    const value = app().getByRole('textbox', { name: 'Значение: A www' });
    await value.fill('93.125.99.20');
    await value.press('Enter');
    // The DMARC record's TTL.
    await app().getByRole('button', { name: 'TTL: TXT _dmarc — 3600' }).click();
    const ttl = app().getByRole('textbox', { name: 'TTL: TXT _dmarc' });
    await ttl.fill('600');
    await ttl.press('Enter');
    // The ftp alias, deleted.
    await app().getByRole('button', { name: 'Удалить CNAME ftp' }).click();
    await app().getByRole('button', { name: 'Вернуть CNAME ftp' }).waitFor();

    // The pending plan in the chat's words, and Apply as Telegram's main button.
    const plan = app().getByRole('region', { name: 'Изменения' });
    await plan.getByText('Изменить: 2 · Удалить: 1').waitFor({ timeout: 5_000 });
    await plan.getByText('Изменить: A www 93.125.99.10 · TTL 3600 → A www 93.125.99.20 · TTL 3600').waitFor();
    await plan.getByText('Удалить: CNAME ftp mysite.by · TTL 3600').waitFor();
    const apply = panel().getByRole('button', { name: 'Применить (3)' });
    await expect.poll(() => apply.isEnabled(), { timeout: 5_000 }).toBe(true);
    // `MINI_APP_SCREENSHOT=docs/images/mini-app-editor.png` takes the docs' picture here.
    if (process.env.MINI_APP_SCREENSHOT) {
      await app()
        .getByRole('button', { name: /Значение: A www/ })
        .scrollIntoViewIfNeeded();
      await panel().screenshot({ path: process.env.MINI_APP_SCREENSHOT });
    }

    const before = (await requests()).length;
    await apply.click();
    await app()
      .getByRole('status')
      .filter({ hasText: 'Готово: 3 из 3 изменений применено. Отчёт — в чате.' })
      .waitFor({ timeout: 10_000 });
    await expect.poll(() => panel().getAttribute('data-haptics')).toContain('notification:success');
    // The provider got exactly the five calls, every add before the deletes: www answered throughout.
    const writes = (await requests())
      .slice(before)
      .filter((r) => r.method !== 'GET')
      .map(
        (r) =>
          `${r.method} ${r.path.replace(/^\/v1\/domains\/\d+\/dns\/records\//, '').replace(/\/\d+$/, '/…')}`,
      );
    expect(writes.slice(0, 2)).toEqual(['POST a', 'POST txt']);
    expect(writes.slice(2).sort()).toEqual(['DELETE a/…', 'DELETE cname/…', 'DELETE txt/…']);
    // The zone as it is now.
    await app().getByRole('button', { name: 'Значение: A www — 93.125.99.20' }).waitFor({ timeout: 5_000 });
    await app().getByRole('button', { name: 'TTL: TXT _dmarc — 600' }).waitFor();
    await expect(
      app()
        .getByRole('button', { name: /CNAME ftp/ })
        .count(),
    ).resolves.toBe(0);

    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
    // The chat's report, as if the change had been made there, with its Undo.
    await partner.sees('🧩 Изменения в mysite.by из редактора:');
    await partner.sees('Готово: 3 из 3 изменений применено.');
    await partner.log.getByRole('button', { name: '↩ Отменить' }).last().waitFor();
    // And the history.
    await partner.send('/dns mysite.by history');
    await partner.sees('🕘 История изменений mysite.by');
    await partner.sees(/изменение записи/);
  }, 90_000);

  it('a pasted zone: the new record becomes a row to add, a line it cannot read is listed with why', async () => {
    await chat(/^Partner Bot/);
    const partner = partnerOn(page);
    await partner.send('/dns mysite.by');
    await partner.log.getByRole('button', { name: '🧩 Открыть редактор' }).last().waitFor();
    await partner.tap('🧩 Открыть редактор');
    await app().getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor();

    const form = app().getByRole('form', { name: 'Вставить зону' });
    await form
      .getByRole('textbox', { name: 'BIND-файл или строки из чата, по одной в строке' })
      .fill('pasted 3600 IN TXT "hello from the paste"\nnot a record at all');
    await form.getByRole('button', { name: 'Вставить' }).click();
    await form.getByText('Добавлено записей: 1').waitFor({ timeout: 5_000 });
    await form.getByText('Пропущены строки:').waitFor();
    await expect(form.getByRole('listitem').count()).resolves.toBe(1);
    const plan = app().getByRole('region', { name: 'Изменения' });
    await plan.getByText('Добавить: 1').waitFor({ timeout: 5_000 });
    // Pasting it again adds no row twice.
    await form.getByRole('button', { name: 'Вставить' }).click();
    await form.getByText('Добавлено записей: 0').waitFor({ timeout: 5_000 });

    // The added row taken back: nothing pending, so the panel closes without asking.
    await app().getByRole('button', { name: 'Убрать TXT pasted' }).click();
    await plan.getByText('Добавить: 1').waitFor({ state: 'detached', timeout: 5_000 });
    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
  }, 60_000);

  it('a team member without the DNS role sees the zone read-only, and the API refuses their write', async () => {
    await chat(/Команда студии/);
    const group = partnerOn(page);
    const writer = page.getByRole('combobox', { name: 'Пишет' });
    await writer.selectOption({ label: 'Андрей Партнёр' });
    await group.send('/team');
    await group.sees(/Андрей — владелец/);
    // Иван speaks in the group: the team records him, as a viewer.
    await writer.selectOption({ label: 'Иван Новичок' });
    await group.send('/help');
    await group.sees(/Что умеет бот/);
    await writer.selectOption({ label: 'Андрей Партнёр' });
    await group.send('/dns mysite.by');
    const opener = group.log.getByRole('button', { name: '🧩 Открыть редактор' }).last();
    await opener.waitFor();
    // Иван taps the group's link.
    await writer.selectOption({ label: 'Иван Новичок' });
    await opener.click();
    await app().getByText('Аккаунт: группа · Роль: зритель').waitFor();
    await app().getByRole('textbox', { name: 'Домен' }).fill('mysite.by');
    await app().getByRole('button', { name: 'Показать' }).click();
    await app().getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor();
    await app()
      .getByText(
        'Менять записи могут роли: техник, администратор, владелец. Ваша роль: зритель — зона только для просмотра.',
      )
      .waitFor();
    await app().getByRole('table').getByRole('row').filter({ hasText: '93.125.99.20' }).first().waitFor();
    // Read-only: no cell to edit, nothing to delete, no form, no Apply.
    await expect(
      app()
        .getByRole('button', { name: /^(Значение|TTL|Хост): / })
        .count(),
    ).resolves.toBe(0);
    await expect(
      app()
        .getByRole('button', { name: /^Удалить / })
        .count(),
    ).resolves.toBe(0);
    await expect(app().getByRole('form', { name: 'Новая запись' }).count()).resolves.toBe(0);
    await expect(panel().locator('#mini-app-main').isVisible()).resolves.toBe(false);

    // Иван's own signed launch, used for a write anyway: 403, and nothing reaches the provider.
    const frame = page.frames().find((f) => f.url().includes('/app/'));
    if (frame === undefined) throw new Error('the app’s frame is not open');
    const before = (await requests()).length;
    // In the frame, as the app itself would call: its launch's initData, from the URL's hash.
    const refused = await frame.evaluate(`(async () => {
      const initData = new URLSearchParams(location.hash.slice(1)).get('tgWebAppData') ?? '';
      const response = await fetch('api/zone/apply', {
        method: 'POST',
        headers: { authorization: 'tma ' + initData, 'content-type': 'application/json' },
        body: JSON.stringify({
          domain: 'mysite.by',
          edits: [{ op: 'add', row: { type: 'A', host: 'ivan', data: '192.0.2.9', ttl: 3600 } }],
          key: 'ivan-tries-a-write-0001',
        }),
      });
      return { status: response.status, body: await response.json() };
    })()`);
    expect(refused).toEqual({
      status: 403,
      body: {
        error: 'roleTooLow',
        message: 'Это доступно ролям: техник, администратор, владелец. Ваша роль: зритель.',
      },
    });
    expect((await requests()).slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    await panel().getByRole('button', { name: 'Закрыть' }).click();
    await panel().waitFor({ state: 'hidden' });
  }, 90_000);
});
