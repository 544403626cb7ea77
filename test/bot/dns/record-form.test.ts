import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, PartnerTransport } from '../../../src/api/index.js';
import type { BotServer } from '../../../src/http-server.js';
import { lastTable, USER_ID } from '../../helpers/bot-harness.js';
import { apiCaller, signLaunch, startMiniAppApi } from '../../helpers/mini-app-api.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * One record, one writing: the MX and SRV records of mysite.by as the partner reads them in the
 * chat's `/dns mysite.by` and as the Mini App's zone editor gets them (`GET api/zone`'s rows), over
 * one sandbox and one account. Both write BIND's order: `10 mx1.sandbox-host.by`, `_sip _tcp 10
 * 60 5060 sip.mysite.by`.
 */

const BOT_TOKEN = '7000000005:AAH-record-form-test-bot-token_012345';

const { h } = useBot({ connect: ['partner'] });

let transport: PartnerTransport;
let server: BotServer | undefined;
let base = '';

beforeAll(async () => {
  transport = new PartnerTransport({ baseUrl: h.sandbox.url, retryDelayMs: 1 });
  ({ server, base } = await startMiniAppApi({
    botToken: BOT_TOKEN,
    partnerApiUrl: h.sandbox.url,
    chatData: h.chatData,
    apiFor: createApiFactory(transport),
    lines: [],
  }));
});

afterAll(async () => {
  await server?.close();
  await transport?.close();
});

interface Listed {
  type: string;
  row: { type: string; host: string; data: string; ttl: number } | null;
}

describe('the chat and the zone editor write a record alike', () => {
  it('MX and SRV of mysite.by: the same data in /dns and in the editor’s rows', async () => {
    const table = lastTable(await h.send('/dns mysite.by'));
    const call = apiCaller(() => base, []);
    const launch = signLaunch(BOT_TOKEN, { id: USER_ID, first_name: 'Ольга' });
    const answer = await call('api/zone?domain=mysite.by', launch);
    expect(answer.status).toBe(200);
    const rows = (answer.json.records as Listed[]).flatMap((r) => (r.row === null ? [] : [r.row]));

    // What the chat shows of a type: its value cells (HTML code marks off); the editor: its rows' data.
    const inChat = (type: string) =>
      table
        .filter(([t]) => t === type)
        .map(([, host, value]) => `${host} ${value?.replace(/<\/?code>/g, '')}`)
        .sort();
    const inEditor = (type: string) =>
      rows
        .filter((row) => row.type === type)
        .map((row) => `${row.host} ${row.data}`)
        .sort();

    expect(inChat('MX')).toContain('@ 10 mx1.sandbox-host.by');
    expect(inChat('SRV')).toContain('@ _sip _tcp 10 60 5060 sip.mysite.by');
    for (const type of ['MX', 'SRV']) expect(inEditor(type), type).toEqual(inChat(type));
  });
});
