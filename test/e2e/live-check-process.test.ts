/**
 * The live check on the bot started on its own (not under `npm run dev`): with DNS_CHECK_PORT and
 * DNS_CHECK_RESOLVERS pointing at the sandbox's DNS server, the names of the domain's name servers
 * are resolved there and the change is reported visible. The one-line add with its live check asks
 * the provider twice (the add, the list): the name servers are kept with the domain index.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotApiServer, RecordedCall } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { withBotOnLocalApi } from '../helpers/bot-process.js';

const USER = 558_101;
let sandbox: Sandbox;
let work: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dns: { port: 0, host: '127.0.0.1' } });
  work = await mkdtemp(join(tmpdir(), 'partner-bot-live-check-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
});

function withBot(env: Record<string, string>, story: (bot: Chat) => Promise<void>): Promise<void> {
  return withBotOnLocalApi(
    { providerUrl: sandbox.url, dataDir: join(work, `data-${Date.now()}`), env },
    (telegram) => story(new Chat(telegram)),
  );
}

class Chat {
  constructor(readonly telegram: BotApiServer) {}
  async say(text: string): Promise<RecordedCall> {
    const since = this.telegram.calls.length;
    this.telegram.sendText(text, { chatId: USER, userId: USER });
    return this.telegram.waitForCall((c) => c.method === 'sendMessage' && c.params.chat_id === USER, {
      since,
    });
  }
  /** The edit of `message` whose text matches, within the live check's first rounds. */
  editOf(message: RecordedCall, text: RegExp, since: number): Promise<RecordedCall> {
    const answer = message.response;
    const id = answer?.ok ? (answer.result as { message_id?: number }).message_id : undefined;
    return this.telegram.waitForCall(
      (c) => c.method === 'editMessageText' && c.params.message_id === id && text.test(String(c.params.text)),
      { since, timeoutMs: 20_000 },
    );
  }
}

const dnsPort = () => String(sandbox.dns?.port ?? 0);

describe('the live check of the bot started on its own', () => {
  it('resolves the name servers through DNS_CHECK_RESOLVERS, reports the add visible, in 2 provider calls', async () => {
    await withBot(
      { DNS_CHECK_PORT: dnsPort(), DNS_CHECK_RESOLVERS: `127.0.0.1:${dnsPort()}` },
      async (chat) => {
        await chat.say(`/token ${sandbox.token}`);
        const first = await chat.say('/dns mysite.by add A live1 192.0.2.81');
        expect(String(first.params.text)).toContain('Запись добавлена');
        const seen = await chat.editOf(first, /✅ Видно на/, chat.telegram.calls.length);
        expect(String(seen.params.text)).not.toContain('не удалось узнать адрес');

        // Once the domain and its name servers are known: the add and the list, nothing more.
        const before = sandbox.requests.length;
        const since = chat.telegram.calls.length;
        const second = await chat.say('/dns mysite.by add A live2 192.0.2.82');
        await chat.editOf(second, /✅ Видно на/, since);
        const calls = sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`);
        expect(calls).toEqual(['POST /v1/domains/1006/dns/records/a', 'GET /v1/domains/1006/dns/records']);
      },
    );
  }, 60_000);

  it('without DNS_CHECK_RESOLVERS the sandbox’s server names are not found by the system resolver', async () => {
    await withBot({ DNS_CHECK_PORT: dnsPort() }, async (chat) => {
      await chat.say(`/token ${sandbox.token}`);
      const added = await chat.say('/dns mysite.by add A live3 192.0.2.83');
      const told = await chat.editOf(added, /не удалось узнать адрес сервера/, chat.telegram.calls.length);
      expect(String(told.params.text)).toContain('❌');
    });
  }, 60_000);
});
