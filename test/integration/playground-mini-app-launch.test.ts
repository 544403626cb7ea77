/*
 * The playground page's launch action over real HTTP: a Mini App button tapped on the page gets
 * the URL to load in the panel, with initData signed as Telegram signs it — valid under the bot's
 * token, as the app's own server checks it — and the token itself nowhere in the answer.
 */
import { parse, validate } from '@tma.js/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInitData } from '../../src/mini-app/init-data.js';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { LIGHT_THEME, MINI_APP_VERSION } from '../../src/playground/mini-app-launch.js';
import { CHATS, PARTNER_ID, PEOPLE, TEAM_GROUP } from '../../src/playground/people.js';
import { type PlaygroundWeb, startPlaygroundWeb } from '../../src/playground/web.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';

const APP_URL = 'http://127.0.0.1:18080/app/';

describe('the playground’s Mini App launch', () => {
  let botApi: BotApiServer;
  let sandbox: Sandbox;
  let web: PlaygroundWeb;

  beforeAll(async () => {
    botApi = await startBotApiServer({ port: 0 });
    botApi.defineChat(TEAM_GROUP);
    sandbox = await startSandbox({ port: 0 });
    web = await startPlaygroundWeb({
      port: 0,
      botApi,
      sandbox,
      chats: CHATS,
      people: PEOPLE,
      miniApp: { url: APP_URL, shortName: 'editor' },
    });
  });

  afterAll(async () => {
    await web?.close();
    await sandbox?.close();
    await botApi?.close();
  });

  async function launch(body: Record<string, unknown>) {
    const response = await fetch(`${web.url}api/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: PARTNER_ID, userId: PARTNER_ID, lang: 'ru', ...body }),
    });
    const text = await response.text();
    expect(text).not.toContain(botApi.token);
    return {
      status: response.status,
      body: JSON.parse(text) as { url: string; theme: unknown; error?: string },
    };
  }

  /** The launch data of a panel URL's hash, as the app's SDK reads it. */
  function hashOf(url: string): URLSearchParams {
    return new URLSearchParams(new URL(url).hash.slice(1));
  }

  it('a web_app button: its own URL, with initData signed for the person and chat, and the launch in the hash', async () => {
    const { status, body } = await launch({ kind: 'web_app', url: `${APP_URL}?domain=mysite.by` });
    expect(status).toBe(200);
    const url = new URL(body.url);
    expect(`${url.origin}${url.pathname}${url.search}`).toBe(`${APP_URL}?domain=mysite.by`);
    const hash = hashOf(body.url);
    expect(hash.get('tgWebAppVersion')).toBe(MINI_APP_VERSION);
    expect(hash.get('tgWebAppPlatform')).toBe('weba');
    expect(JSON.parse(hash.get('tgWebAppThemeParams') ?? '')).toEqual(LIGHT_THEME);
    expect(body.theme).toEqual(LIGHT_THEME);
    const initData = hash.get('tgWebAppData') ?? '';
    expect(() => validate(initData, botApi.token)).not.toThrow();
    expect(() => validate(initData, '123:another-bot')).toThrow();
    const data = parse(initData);
    expect(data.user).toMatchObject({ id: PARTNER_ID, first_name: 'Андрей', language_code: 'ru' });
    expect(data.chat_type).toBe('sender');
    expect(data.chat_instance).toMatch(/^-?\d+$/);
    expect(data.query_id).toMatch(/^[\w-]{20,}$/);
    expect(data.start_param).toBeUndefined();
    // The app's own server takes it, for the partner.
    const checked = checkInitData(initData, botApi.token, { maxAgeS: 60 });
    expect(checked).toMatchObject({ ok: true, launch: { userId: PARTNER_ID, startParam: undefined } });
    // The same chat is the same chat_instance at every launch; the language is the page's.
    const again = await launch({ kind: 'web_app', url: `${APP_URL}?domain=mysite.by`, lang: 'en' });
    const second = parse(hashOf(again.body.url).get('tgWebAppData') ?? '');
    expect(second.chat_instance).toBe(data.chat_instance);
    expect(second.user?.language_code).toBe('en');
    expect(second.query_id).not.toBe(data.query_id);
  });

  it('the direct link t.me/<bot>/<short name>?startapp=…: the app’s URL, start_param signed, tgWebAppStartParam', async () => {
    const link = `https://t.me/${botApi.botInfo.username}/editor?startapp=g${TEAM_GROUP.id}`;
    const { status, body } = await launch({ kind: 'url', url: link, chatId: TEAM_GROUP.id });
    expect(status).toBe(200);
    const url = new URL(body.url);
    expect(`${url.origin}${url.pathname}`).toBe(APP_URL);
    expect(url.searchParams.get('tgWebAppStartParam')).toBe(`g${TEAM_GROUP.id}`);
    const data = parse(hashOf(body.url).get('tgWebAppData') ?? '');
    expect(data.start_param).toBe(`g${TEAM_GROUP.id}`);
    expect(data.chat_type).toBe('group');
    expect(data.query_id).toBeUndefined();
    const checked = checkInitData(hashOf(body.url).get('tgWebAppData') ?? undefined, botApi.token, {
      maxAgeS: 60,
    });
    expect(checked).toMatchObject({ ok: true, launch: { startParam: `g${TEAM_GROUP.id}` } });
  });

  it('refuses what Telegram would not open, or what is not on this machine (409, with the reason)', async () => {
    const refused = [
      { kind: 'url', url: 'https://t.me/another_bot/editor?startapp=g1' },
      { kind: 'url', url: `https://t.me/${botApi.botInfo.username}/other?startapp=g1` },
      { kind: 'url', url: `https://t.me/${botApi.botInfo.username}/editor?startapp=bad%20param` },
      { kind: 'url', url: `http://t.me/${botApi.botInfo.username}/editor` },
      { kind: 'web_app', url: 'https://example.com/app/' },
      { kind: 'web_app', url: 'javascript:alert(1)' },
      { kind: 'web_app', url: `${APP_URL}`, userId: 42 },
      { kind: 'web_app', url: `${APP_URL}`, chatId: 42 },
    ];
    for (const body of refused) {
      const { status, body: answer } = await launch(body);
      expect(status, JSON.stringify(body)).toBe(409);
      expect(answer.error).toBeTruthy();
    }
    expect((await launch({ kind: 'other', url: APP_URL })).status).toBe(400);
  });

  it('the menu button: the URL the bot set for the chat (none named by the page), signed as a web_app launch', async () => {
    // None set: nothing to open.
    expect((await launch({ kind: 'menu', url: '' })).status).toBe(409);
    const answer = await fetch(`${botApi.apiRoot}/bot${botApi.token}/setChatMenuButton`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ menu_button: { type: 'web_app', text: 'Панель', web_app: { url: APP_URL } } }),
    });
    expect(answer.status).toBe(200);
    const state = (await (await fetch(`${web.url}api/state`)).json()) as { menuButtons: unknown };
    // The bot's own chat has it; the group and the client's chat do not.
    expect(state.menuButtons).toEqual({
      [PARTNER_ID]: { type: 'web_app', text: 'Панель', web_app: { url: APP_URL } },
    });
    // Whatever URL the page names, the one the bot set is opened: the app's home, no screen named.
    const { status, body } = await launch({ kind: 'menu', url: 'https://example.com/' });
    expect(status).toBe(200);
    const url = new URL(body.url);
    expect(`${url.origin}${url.pathname}${url.search}`).toBe(APP_URL);
    const data = parse(hashOf(body.url).get('tgWebAppData') ?? '');
    expect(data).toMatchObject({ chat_type: 'sender', user: { id: PARTNER_ID } });
    expect(data.query_id).toMatch(/^[\w-]{20,}$/);
    expect(data.start_param).toBeUndefined();
    expect(
      checkInitData(hashOf(body.url).get('tgWebAppData') ?? undefined, botApi.token, { maxAgeS: 60 }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('tells the page which links are the app’s', async () => {
    const state = (await (await fetch(`${web.url}api/state`)).json()) as { miniApp: unknown };
    expect(state.miniApp).toEqual({ shortName: 'editor' });
  });
});
