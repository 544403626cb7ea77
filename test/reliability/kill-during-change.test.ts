import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/bot-process.js';
import { ProcessChat } from '../helpers/process-chat.js';
import { useWebhookWorld } from '../helpers/webhook-world.js';

/*
 * The real process (webhook mode) killed with SIGKILL between the two calls of a record change:
 * the new address is added, the old one's delete hangs at the provider. After the restart the
 * chat's next update finishes the change first — the old record deleted once, the new one not
 * added twice — and says so; one history entry, with its undo.
 */

const CHAT = 730_001;
const DOMAIN = 'mysite.by';
const ORDER = 1006;

const world = useWebhookWorld({ name: 'kill-change', chats: [CHAT], locale: 'ru' });
const startBot = () => world.startBot();

const records = async () => {
  const answer = await fetch(`${world.sandbox.url}/v1/domains/${ORDER}/dns/records?version=1.0`, {
    headers: { 'x-api-token': world.sandbox.token },
  });
  const { records: listed } = (await answer.json()) as { records: { type: string; value: string }[] };
  return listed.filter((r) => r.type === 'A' && r.value.startsWith('moved ')).map((r) => r.value);
};
const writes = (method: string) =>
  world.sandbox.requests.filter(
    (r) => r.method === method && r.path.startsWith(`/v1/domains/${ORDER}/dns/records/a`),
  );

describe('kill -9 between the add and the delete of a change', () => {
  it('the next update after the restart finishes the change once and says so', async () => {
    let bot = await startBot();
    const chat = new ProcessChat(world.telegram, CHAT, 'ru');
    try {
      await chat.say(`/dns ${DOMAIN} add A moved 93.125.99.10`, /Запись добавлена/);
      world.sandbox.addFault({
        method: 'DELETE',
        path: `/v1/domains/${ORDER}/dns/records/a/*`,
        fault: { kind: 'hang' },
      });
      const posts = writes('POST').length;
      const deletes = writes('DELETE').length;
      await chat.say(`/dns ${DOMAIN} set A moved 192.0.2.55`, /./).catch(() => undefined);
      // The new address is there and the old one's delete is out at the provider: kill now.
      await eventually(() => writes('DELETE').length === deletes + 1);
      expect(writes('POST').length).toBe(posts + 1);
      expect((await records()).sort()).toEqual(['moved 192.0.2.55', 'moved 93.125.99.10']);
    } finally {
      bot.child.kill('SIGKILL');
      await bot.exited;
      world.sandbox.clearFaults();
    }

    bot = await startBot();
    try {
      const posts = writes('POST').length;
      const told = await chat.say('что с записью?', /Запись изменена/);
      expect(told.text).toContain('Бот перезапускался посреди изменения записи — я довёл его до конца.');
      expect(told.text).toContain('<b>A</b> moved: <code>93.125.99.10</code> → <code>192.0.2.55</code>');
      expect(await records()).toEqual(['moved 192.0.2.55']);
      // Finished, not redone: no second add of the new address.
      expect(writes('POST').length).toBe(posts);
      expect(told.buttons.map((b) => b.text)).toContain('↩ Отменить');
      // Told once: the next message is an ordinary update again.
      const next = await chat.say(`/dns ${DOMAIN} history`, /История изменений/);
      expect(next.text).not.toContain('перезапускался');
      expect(next.text).toContain('изменение записи');
    } finally {
      expect((await bot.stop()).code).toBe(0);
    }
  }, 90_000);
});
