import { describe, expect, it } from 'vitest';
import { type BotCall, buttons, lastTable } from '../../helpers/bot-harness.js';
import { EN, GROUP, inGroup, OWNER, privately, useBot } from '../../helpers/use-bot.js';

/*
 * «🧩 Open editor» under `/dns <domain>`'s records, only when MINI_APP_URL is set: in a private
 * chat a web_app button at the app's URL with the domain; in a bound group (web_app buttons open
 * in private chats only) a link to the app's direct link for the group, only when the app's short
 * name with @BotFather is set.
 */

const APP = 'https://bot.example.by/app/';
const TECH = { userId: 333, firstName: 'Борис' };

/** The editor's buttons: label and what they open (telegraf's own `hide` flag left out). */
const editorButtons = (calls: BotCall[]) =>
  buttons(calls)
    .filter((b) => /Открыть редактор|Open editor/.test(b.text))
    .map(({ text, url, web_app }) => ({ text, ...(url ? { url } : {}), ...(web_app ? { web_app } : {}) }));

describe('with MINI_APP_URL and MINI_APP_SHORT_NAME', () => {
  const { h } = useBot({
    miniApp: { url: APP, shortName: 'zone_editor' },
    connect: ['en'],
    team: [[TECH, 'техник']],
  });

  it('private chat: a web_app button that opens the app at the domain, in ru and en', async () => {
    const ru = await h.send('/dns mysite.by', privately(OWNER));
    expect(lastTable(ru)).toContainEqual(['A', 'www', '93.125.99.10', '3600']);
    expect(editorButtons(ru)).toEqual([
      { text: '🧩 Открыть редактор', web_app: { url: `${APP}?screen=dns&domain=mysite.by` } },
    ]);
    const en = await h.send('/dns пример.бел', EN);
    // The ASCII name: what api/zone reads back, and what survives any client's URL handling.
    expect(editorButtons(en)).toEqual([
      { text: '🧩 Open editor', web_app: { url: `${APP}?screen=dns&domain=xn--e1afmkfd.xn--90ais` } },
    ]);
  });

  it('bound group: a link to t.me/<bot>/<short name> with startapp=g<group id>_dns, never a web_app button', async () => {
    const calls = await h.send('/dns mysite.by', inGroup(TECH));
    expect(lastTable(calls)).toContainEqual(['A', 'www', '93.125.99.10', '3600']);
    expect(editorButtons(calls)).toEqual([
      {
        text: '🧩 Открыть редактор',
        url: `https://t.me/partner_test_bot/zone_editor?startapp=g${GROUP}_dns`,
      },
    ]);
    expect(buttons(calls).some((b) => b.web_app !== undefined)).toBe(false);
  });
});

describe('with MINI_APP_URL and no short name', () => {
  const { h } = useBot({ miniApp: { url: APP, shortName: undefined }, team: [[TECH, 'техник']] });

  it('private chat has the web_app button; the group has none', async () => {
    expect(editorButtons(await h.send('/dns mysite.by', privately(OWNER)))).toHaveLength(1);
    const group = await h.send('/dns mysite.by', inGroup(TECH));
    expect(lastTable(group)).toContainEqual(['A', 'www', '93.125.99.10', '3600']);
    expect(editorButtons(group)).toEqual([]);
  });
});

describe('without MINI_APP_URL', () => {
  const { h } = useBot({ connect: ['partner'], team: [[TECH, 'техник']] });

  it('no editor button, in private or in a group', async () => {
    const own = await h.send('/dns mysite.by');
    expect(lastTable(own)).toContainEqual(['A', 'www', '93.125.99.10', '3600']);
    expect(editorButtons(own)).toEqual([]);
    expect(editorButtons(await h.send('/dns mysite.by', inGroup(TECH)))).toEqual([]);
  });
});
