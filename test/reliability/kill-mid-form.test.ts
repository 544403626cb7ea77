import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createChatData } from '../../src/storage/chat-data.js';
import { generateKeySpec, parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { type BotProcess, freePort, seedConnectedChats, startBotProcess } from '../helpers/bot-process.js';
import { isPost, seenText } from '../helpers/seen-text.js';

/*
 * The real process in webhook mode, 50 chats filling in a customer (/requisites → Add) field by
 * field, killed with SIGKILL at random moments and restarted on the same DATA_DIR, five times.
 * Each partner answers the question its chat shows last, as a person would; an answer lost with
 * the process is given again once the bot is back. Every value names its field, its chat and its
 * form, so an answer that lands in another field shows in the saved customer.
 */

const CHATS = 50;
const ROUNDS = 5;
const FIRST_CHAT = 710_000;
const SECRET = 'kill-mid-form-secret_0123456789';
const KEYS = generateKeySpec('t1');

let sandbox: Sandbox;
let telegram: BotApiServer;
let dataDir: string;
let port: number;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  telegram = await startBotApiServer({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-kill-form-'));
  port = await freePort();
  // Tokens connected beforehand: the story is the form, not /token.
  const chats = Array.from({ length: CHATS }, (_, i) => FIRST_CHAT + i);
  await seedConnectedChats({ dataDir, encryptionKeys: KEYS, token: sandbox.token, chats });
});

afterAll(async () => {
  await telegram.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

function startBot(): BotProcess {
  return startBotProcess({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PARTNER_API_URL: sandbox.url,
    DATA_DIR: dataDir,
    ENCRYPTION_KEYS: KEYS,
    PORT: String(port),
    WEBHOOK_URL: `https://127.0.0.1:${port}/hook`,
    WEBHOOK_SECRET: SECRET,
    LOG_LEVEL: 'warn',
  });
}

// ---- what each chat sees ----

interface Button {
  text: string;
  callback_data?: string;
}
interface Shown {
  id: number;
  text: string;
  buttons: Button[];
}

/** The bot's messages per chat, kept up to date from the double's calls. */
const shown = new Map<number, Shown[]>();
let ingested = 0;

function keyboardOf(markup: unknown): Button[] {
  const rows = (markup as { inline_keyboard?: Button[][] } | undefined)?.inline_keyboard;
  return rows?.flat() ?? [];
}

function ingest(): void {
  for (; ingested < telegram.calls.length; ingested++) {
    const call = telegram.calls[ingested];
    if (!call) break;
    if (!isPost(call) && !call.method.startsWith('edit')) continue;
    // A reply still in flight: read it next time, in order.
    if (call.response === undefined) break;
    if (!call.response.ok) continue;
    const chatId = Number(call.params.chat_id);
    const list = shown.get(chatId) ?? [];
    shown.set(chatId, list);
    if (isPost(call)) {
      // A summary is a rich message (Bot API 10.1): read as its lines, as a partner reads it.
      const id = Number((call.response.result as { message_id: number }).message_id);
      list.push({ id, text: seenText(call), buttons: keyboardOf(call.params.reply_markup) });
    } else if (call.method === 'editMessageReplyMarkup' || call.method === 'editMessageText') {
      const message = list.find((m) => m.id === Number(call.params.message_id));
      if (!message) continue;
      if (call.method === 'editMessageText') message.text = seenText(call);
      message.buttons = keyboardOf(call.params.reply_markup);
    }
  }
}

// ---- a partner ----

type Field =
  | 'last'
  | 'first'
  | 'middle'
  | 'country'
  | 'postal'
  | 'region'
  | 'city'
  | 'street'
  | 'building'
  | 'room'
  | 'phone'
  | 'email';

/** How a question names its field (the English labels), most specific first. */
const LABELS: [RegExp, Field][] = [
  [/last name/i, 'last'],
  [/first name/i, 'first'],
  [/middle name/i, 'middle'],
  [/country/i, 'country'],
  [/postal/i, 'postal'],
  [/region/i, 'region'],
  [/city/i, 'city'],
  [/street/i, 'street'],
  [/building/i, 'building'],
  [/flat|office|room/i, 'room'],
  [/phone/i, 'phone'],
  [/e-?mail/i, 'email'],
];

/** Where each field is stored in a saved customer. */
const STORED: Record<Field, string> = {
  last: 'c:last_name',
  first: 'c:first_name',
  middle: 'c:middle_name',
  country: 'c:address.country_code',
  postal: 'c:address.postal_code',
  region: 'c:address.region',
  city: 'c:address.city',
  street: 'c:address.street',
  building: 'c:address.building',
  room: 'c:address.room',
  phone: 'phone',
  email: 'email',
};

const letter = (n: number) => String.fromCharCode(97 + n);
const two = (n: number) => String(n).padStart(2, '0');

/** The answer chat `chat` gives to `field` in its form `form`: it names all three. */
function answerFor(field: Field, chat: number, form: number): string {
  const tag = `${letter(Math.floor(chat / 26))}${letter(chat % 26)}${letter(form)}`;
  switch (field) {
    case 'last':
      return `Last${tag}`;
    case 'first':
      return `First${tag}`;
    case 'middle':
      return `Middle${tag}`;
    case 'country':
      return 'BY';
    case 'postal':
      return `22${two(chat)}${two(form)}`;
    case 'phone':
      return `+37529${String(chat).padStart(3, '0')}${String(form).padStart(4, '0')}`;
    case 'email':
      return `mail.${tag}@example.by`;
    default:
      return `${field[0]?.toUpperCase()}${field.slice(1)} ${tag}`;
  }
}

type Action = { press: string } | { say: string } | { saved: true };

class Partner {
  readonly chatId: number;
  form = 0;
  done = false;
  /** Message id of the screen acted on last, the update that carried the action, and when. */
  actedOn = 0;
  actedUpdate = -1;
  actedEpoch = -1;
  started = false;
  /** Forms finished with "Customer saved". */
  saved = 0;

  constructor(readonly index: number) {
    this.chatId = FIRST_CHAT + index;
  }

  /** What the partner would do about this message, or undefined when it asks nothing. */
  private actionFor(message: Shown): Action | undefined {
    const press = (label: string) => message.buttons.find((b) => b.text.includes(label))?.callback_data;
    if (message.text.includes('Customer saved')) return { saved: true };
    const add = press('Add customer');
    if (add) return { press: add };
    if (message.text.includes('Customer type')) {
      const natural = press('Natural person');
      return natural ? { press: natural } : undefined;
    }
    const asked = /Enter: <b>([^<]+)<\/b>/.exec(message.text)?.[1];
    if (asked) {
      const field = LABELS.find(([label]) => label.test(asked))?.[1];
      if (!field) throw new Error(`a question the partner cannot place: ${asked}`);
      return { say: answerFor(field, this.index, this.form) };
    }
    const save = press('Save');
    if (save) return { press: save };
    // A summary whose keyboard a killed process already removed: ask what became of it.
    if (message.text.includes('check the data')) return { say: '?' };
    return undefined;
  }

  /** Acts on the chat's latest screen when there is something new, or when its answer was lost. */
  tick(epoch: number, lost: ReadonlySet<number>, finishing: boolean): void {
    if (this.done) return;
    const messages = shown.get(this.chatId) ?? [];
    let latest: { message: Shown; action: Action } | undefined;
    for (let i = messages.length - 1; i >= 0 && !latest; i--) {
      const message = messages[i];
      const action = message && this.actionFor(message);
      if (message && action) latest = { message, action };
    }
    // Lost: carried to the process that was killed, and nothing came back since.
    const retry =
      this.actedEpoch < epoch && lost.has(this.actedUpdate) && (latest?.message.id ?? 0) <= this.actedOn;
    if (!latest) {
      if (!this.started || retry) this.act(epoch, 0, { say: '/requisites' });
      return;
    }
    if (latest.message.id <= this.actedOn && !retry) return;
    let action = latest.action;
    if ('saved' in action) {
      if (latest.message.id > this.actedOn) {
        this.saved += 1;
        this.form += 1;
      }
      if (finishing) {
        this.done = true;
        return;
      }
      action = { say: '/requisites' };
    }
    this.act(epoch, latest.message.id, action);
  }

  private act(epoch: number, messageId: number, action: Action): void {
    this.started = true;
    const user = { chatId: this.chatId, userId: this.chatId, languageCode: 'en' };
    const update =
      'press' in action
        ? telegram.pressButton(action.press, { ...user, ...(messageId ? { messageId } : {}) })
        : 'say' in action
          ? telegram.sendText(action.say, user)
          : undefined;
    this.actedOn = Math.max(this.actedOn, messageId);
    this.actedUpdate = Number(update?.update_id ?? -1);
    this.actedEpoch = epoch;
  }
}

describe('kill -9 mid-form, five times, 50 chats', () => {
  it('never files an answer into another field, and every chat finishes its customer', async () => {
    const started = Date.now();
    const partners = Array.from({ length: CHATS }, (_, i) => new Partner(i));
    const lost = new Set<number>();
    let epoch = 0;
    let up = false;
    let finishing = false;
    let running = true;
    // One loop drives every partner: read what the bot sent, then let each act, with a
    // partner's own pace (a few tens of ms per answer) so kills find forms at every step.
    const loop = (async () => {
      const nextAt = new Map<Partner, number>();
      while (running) {
        ingest();
        if (up) {
          const now = Date.now();
          for (const partner of partners) {
            if ((nextAt.get(partner) ?? 0) > now) continue;
            const before = partner.actedUpdate;
            partner.tick(epoch, lost, finishing);
            if (partner.actedUpdate !== before) nextAt.set(partner, now + 20 + Math.random() * 60);
          }
        }
        await sleep(10);
      }
    })();

    let bot: BotProcess | undefined;
    try {
      for (let round = 0; round <= ROUNDS; round++) {
        const since = telegram.calls.length;
        bot = startBot();
        await telegram.waitForCall('setWebhook', { since, timeoutMs: 20_000 });
        epoch += 1;
        up = true;
        if (round === ROUNDS) break;
        await sleep(500 + Math.random() * 1_000);
        // Partners stop typing at the moment the bot dies, as they see no answers from then on.
        up = false;
        bot.child.kill('SIGKILL');
        await bot.exited;
        bot = undefined;
        ingest();
        // Updates the dead process had taken are gone with it; the rest go to the next one.
        for (const id of telegram.confirmedUpdateIds()) lost.add(id);
      }
      finishing = true;
      const until = Date.now() + 25_000;
      while (partners.some((p) => !p.done) && Date.now() < until) await sleep(50);
    } finally {
      running = false;
      await loop;
      const stopped = await bot?.stop();
      if (stopped) expect(stopped.code).toBe(0);
    }

    const store = createLowdbStore({ dataDir });
    const chatData = createChatData({ store, keyring: parseEncryptionKeys(KEYS) });
    const misfiled: string[] = [];
    let profiles = 0;
    for (const partner of partners) {
      for (const profile of await chatData.getProfiles(partner.chatId)) {
        profiles += 1;
        const data = profile.data as Record<string, unknown>;
        const form = /^Last[a-z]{2}([a-z])$/.exec(String(data[STORED.last]))?.[1];
        const wrong = (Object.keys(STORED) as Field[]).filter(
          (field) =>
            form === undefined ||
            data[STORED[field]] !== answerFor(field, partner.index, form.charCodeAt(0) - 97),
        );
        if (wrong.length > 0) misfiled.push(`chat ${partner.index}: ${wrong.join(', ')}`);
      }
    }
    await store.close();
    const reasked = telegram.calls.filter(
      (c) => c.method === 'sendMessage' && String(c.params.text).includes('restarted just as'),
    ).length;
    const unfinished = partners.filter((p) => !p.done).map((p) => p.index);
    console.info(
      `kill-mid-form: ${profiles} customers saved in ${Math.round((Date.now() - started) / 1000)} s; ` +
        `${reasked} questions asked again after a kill; misfiled: ${misfiled.length}; ` +
        `unfinished chats: ${unfinished.length}`,
    );
    // The kills did catch questions between their write and their send (else this proves nothing).
    expect(reasked).toBeGreaterThan(0);
    expect(misfiled).toEqual([]);
    expect(unfinished).toEqual([]);
    expect(partners.every((p) => p.saved > 0)).toBe(true);
  }, 90_000);
});
