/**
 * The home's time to first content in the playground (issue 43's target: ≤ 1 s): the built
 * playground (`node dist/playground/main.js`, after `npm run build`) in Debian's Chromium at a
 * phone's width, the partner's token connected by /token, then the bot's menu button tapped again
 * and again; each time, from the tap to the first owed invoice shown (first content: the home's
 * frame, header and ways in come before it), and to all three blocks filled.
 *
 *   npx tsx bench/panel-first-content.ts [rounds, default 7]
 *
 * Everything stays on 127.0.0.1 (the playground's own Bot API double and sandbox).
 */
import { appFrame, appPanel, openConnected } from '../test/helpers/playground.js';

const rounds = Number(process.argv[2] ?? 7);
const { playground, browser, page } = await openConnected();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

try {
  const first: number[] = [];
  const whole: number[] = [];
  const menu = page.locator('#composer').getByRole('button', { name: 'Панель' });
  await menu.waitFor({ timeout: 15_000 });
  for (let round = 0; round < rounds; round++) {
    const tapped = performance.now();
    await menu.click();
    const app = appFrame(page);
    await app.locator('section[data-block=owed] li[data-invoice-id]').first().waitFor({ timeout: 10_000 });
    first.push(performance.now() - tapped);
    await app.locator('section[data-block=expiring] :is(li, p)').first().waitFor({ timeout: 10_000 });
    await app.locator('section[data-block=changes] :is(li, p)').first().waitFor({ timeout: 10_000 });
    whole.push(performance.now() - tapped);
    await appPanel(page).getByRole('button', { name: 'Закрыть' }).click();
    await appPanel(page).waitFor({ state: 'hidden' });
  }
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(`tap → first owed invoice: median ${median(first).toFixed(0)} ms (rounds: ${ms(first)})`);
  console.log(`tap → all three blocks: median ${median(whole).toFixed(0)} ms (rounds: ${ms(whole)})`);
} finally {
  await browser.close();
  await playground.stop();
}
