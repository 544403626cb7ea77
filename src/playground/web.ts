/**
 * The playground's web server: the page (plain HTML, JS and CSS, no build step, nothing from a
 * network), the events of the local Bot API server as Server-Sent Events, the user's actions as
 * JSON calls, and the sandbox's control calls as buttons. Listens on 127.0.0.1 only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Sandbox } from '../sandbox/server.js';
import type { BotApiServer } from './bot-api/index.js';
import type { ChatEvent } from './events.js';
import { createMiniAppLauncher, type PlaygroundMiniApp } from './mini-app-launch.js';
import type { PlaygroundChat, PlaygroundPerson } from './people.js';

export interface PlaygroundWebOptions {
  /** 0 = a free port. */
  port: number;
  botApi: BotApiServer;
  sandbox: Sandbox;
  chats: readonly PlaygroundChat[];
  people: readonly PlaygroundPerson[];
  /** The bot's Mini App, which the page opens in a panel as Telegram's clients do; none: no panel. */
  miniApp?: PlaygroundMiniApp | undefined;
}

export interface PlaygroundWeb {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 12 * 1024 * 1024;

/** What the page folder may hold, by extension: anything else in it is never served. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The page's files live beside this module in `src/`; the built program (in `dist/`) reads them
 * from `src/` too, since tsc copies no assets.
 */
function pageDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'page');
  if (existsSync(path.join(beside, 'index.html'))) return beside;
  return path.resolve(here, '..', '..', 'src', 'playground', 'page');
}

/**
 * URL path → file of the page folder, listed once at start: the page's ES modules import each other
 * by name, and only a name found in the folder is served, so no URL can reach outside it.
 */
function pageAssets(dir: string): Map<string, { file: string; type: string }> {
  const assets = new Map([['/', { file: 'index.html', type: 'text/html; charset=utf-8' }]]);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[path.extname(entry.name)];
    if (entry.isFile() && type) assets.set(`/${entry.name}`, { file: entry.name, type });
  }
  return assets;
}

const language = z.enum(['ru', 'en']);
const id = z.number().int();

/** One JSON call of the page: its body checked, then run; a refusal of the sandbox is a 409. */
type Route = (raw: unknown) => { status: number; body: unknown };

function route<S extends z.ZodType>(schema: S, run: (body: z.output<S>) => unknown): Route {
  return (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return { status: 400, body: { error: z.prettifyError(parsed.error) } };
    try {
      return { status: 200, body: run(parsed.data) ?? {} };
    } catch (error) {
      // A control call the sandbox refuses (an invoice already paid, …) is the user's to read.
      return { status: 409, body: { error: error instanceof Error ? error.message : String(error) } };
    }
  };
}

export async function startPlaygroundWeb(options: PlaygroundWebOptions): Promise<PlaygroundWeb> {
  const { botApi, sandbox } = options;
  const dir = pageDir();
  const assets = pageAssets(dir);
  const streams = new Set<ServerResponse>();
  const launch = options.miniApp
    ? createMiniAppLauncher({
        app: options.miniApp,
        botToken: botApi.token,
        botUsername: botApi.botInfo.username,
        people: options.people,
        chats: options.chats,
      })
    : undefined;

  const routes: Record<string, Route> = {
    send: route(
      z.object({
        chatId: id,
        userId: id,
        text: z.string().min(1).max(8_192),
        lang: language,
        replyTo: id.optional(),
      }),
      (b) => {
        botApi.sendText(b.text, {
          ...where(options, b.chatId),
          userId: b.userId,
          languageCode: b.lang,
          ...(b.replyTo === undefined ? {} : { replyToMessageId: b.replyTo }),
        });
      },
    ),
    // A press names its button by label, so a disabled button (or another member's ephemeral
    // message) is refused here, 409, and nothing reaches the bot.
    press: route(
      z
        .object({
          chatId: id,
          userId: id,
          messageId: id.optional(),
          ephemeralMessageId: id.optional(),
          text: z.string().min(1).max(256),
          data: z.string().min(1).max(64).optional(),
          lang: language,
        })
        .refine((b) => (b.messageId === undefined) !== (b.ephemeralMessageId === undefined), {
          message: 'name the message by messageId or ephemeralMessageId',
        }),
      // The callback query's id is the answer: a test can act as the bot answering that press.
      (b) => {
        const update = botApi.pressButton(b.data ?? '', {
          chatId: b.chatId,
          userId: b.userId,
          text: b.text,
          languageCode: b.lang,
          ...(b.messageId === undefined ? {} : { messageId: b.messageId }),
          ...(b.ephemeralMessageId === undefined ? {} : { ephemeralMessageId: b.ephemeralMessageId }),
        });
        return { callbackQueryId: (update.callback_query as { id: string }).id };
      },
    ),
    upload: route(
      z.object({
        chatId: id,
        userId: id,
        fileName: z.string().min(1).max(255),
        base64: z.string().max(MAX_BODY_BYTES),
        caption: z.string().max(1_024).optional(),
      }),
      (b) => {
        botApi.sendDocument(Buffer.from(b.base64, 'base64'), b.fileName, {
          ...where(options, b.chatId),
          userId: b.userId,
          ...(b.caption ? { caption: b.caption } : {}),
        });
      },
    ),
    inline: route(z.object({ userId: id, query: z.string().max(256), lang: language }), (b) => ({
      queryId: botApi.sendInlineQuery(b.query, {
        userId: b.userId,
        languageCode: b.lang,
        chatType: 'private',
      }),
    })),
    choose: route(
      z.object({ queryId: z.string().min(1), resultId: z.string().min(1), userId: id, chatId: id }),
      (b) => {
        botApi.chooseInlineResult(b.queryId, b.resultId, { userId: b.userId, chatId: b.chatId });
      },
    ),
    share: route(z.object({ chatId: id, userId: id, requestId: id, sharedChatId: id }), (b) => {
      botApi.shareChat(b.requestId, b.sharedChatId, { userId: b.userId, chatId: b.chatId });
    }),
    // A Mini App's shareMessage(id): where the user may send it (the page offers those chats), and
    // the chat picked. A refusal (409) is what the app is told: MESSAGE_EXPIRED, MESSAGE_SEND_FAILED.
    prepared: route(z.object({ id: z.string().min(1).max(64), userId: id }), (b) => ({
      allowed: botApi.preparedMessage(b.id, b.userId),
    })),
    sendPrepared: route(z.object({ id: z.string().min(1).max(64), userId: id, chatId: id }), (b) => {
      const chat = options.chats.find((c) => c.id === b.chatId && c.members.includes(b.userId));
      if (!chat) throw new Error('MESSAGE_SEND_FAILED');
      const kind = chat.kind === 'group' ? 'group' : chat.id === b.userId ? 'bot' : 'user';
      botApi.sendPreparedMessage(b.id, { userId: b.userId, chatId: b.chatId, kind });
    }),
    // A Mini App button tapped: the URL to load in the panel, its launch signed here as Telegram
    // signs it (the bot's token never reaches the page). A launch refused is a 409 with the reason.
    launch: route(
      z.object({
        chatId: id,
        userId: id,
        // The menu button's launch names no URL: it is the one the bot set for the chat.
        url: z.string().max(2_048),
        kind: z.enum(['web_app', 'url', 'menu']),
        lang: language,
      }),
      (b) => {
        if (!launch) throw new Error('the bot has no Mini App (MINI_APP_URL is empty)');
        if (b.kind !== 'menu') return launch(b);
        const button = botApi.menuButton(b.chatId);
        const url = (button.web_app as { url?: unknown } | undefined)?.url;
        if (button.type !== 'web_app' || typeof url !== 'string') {
          throw new Error('the bot has set no Mini App menu button for this chat');
        }
        return launch({ ...b, url });
      },
    ),
    pay: route(z.object({ invoiceId: id }), (b) => sandbox.payInvoice(b.invoiceId)),
    complete: route(z.object({ orderId: id }), (b) => {
      sandbox.completeOrder(b.orderId);
    }),
    renew: route(z.object({ orderId: id }), (b) => sandbox.createInvoice(b.orderId)),
    clock: route(z.object({ now: z.string().regex(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/) }), (b) => {
      sandbox.setClock(b.now);
      return { now: sandbox.now() };
    }),
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Another site open in the same browser must not drive the bot or the sandbox: a foreign Host
    // (DNS rebinding) is refused, and actions take only JSON, which a cross-site form cannot send.
    if (!isLocalHost(req.headers.host)) {
      sendJson(res, 421, { error: 'the playground answers only 127.0.0.1 and localhost' });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const asset = assets.get(url.pathname);
    if (asset && req.method === 'GET') {
      const content = readFileSync(path.join(dir, asset.file));
      res.writeHead(200, {
        'content-type': asset.type,
        'cache-control': 'no-store',
        'content-length': content.length,
      });
      res.end(content);
      return;
    }
    if (url.pathname === '/api/state' && req.method === 'GET') {
      sendJson(res, 200, state(options));
      return;
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      openStream(req, res, Number(url.searchParams.get('after') ?? 0));
      return;
    }
    const file = /^\/api\/files\/([^/]+)$/.exec(url.pathname);
    if (file && req.method === 'GET') {
      const found = botApi.fileContent(decodeURIComponent(file[1] ?? ''));
      if (!found) {
        sendJson(res, 404, { error: 'no such file' });
        return;
      }
      res.writeHead(200, {
        'content-type': found.mimeType.startsWith('text/')
          ? `${found.mimeType}; charset=utf-8`
          : found.mimeType,
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(found.fileName)}`,
        'content-length': found.content.length,
      });
      res.end(found.content);
      return;
    }
    const name = /^\/api\/(\w+)$/.exec(url.pathname)?.[1] ?? '';
    const action = Object.hasOwn(routes, name) ? routes[name] : undefined;
    if (action && req.method === 'POST') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        sendJson(res, 415, { error: 'actions take application/json' });
        return;
      }
      const { status, body } = action(await readJson(req));
      sendJson(res, status, body);
      return;
    }
    sendJson(res, 404, { error: 'not found' });
  }

  function openStream(req: IncomingMessage, res: ServerResponse, after: number): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const write = (event: ChatEvent): void => {
      res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    for (const event of botApi.eventsSince(Number.isFinite(after) ? after : 0)) write(event);
    const unsubscribe = botApi.subscribe(write);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    streams.add(res);
    req.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      streams.delete(res);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** How the server should make a message in this chat: its type, for groups. */
function where(options: PlaygroundWebOptions, chatId: number): { chatId: number; chatType?: 'group' } {
  const chat = options.chats.find((c) => c.id === chatId);
  return chat?.kind === 'group' ? { chatId, chatType: 'group' } : { chatId };
}

/** What the page needs to draw itself: who, where, the bot, the sandbox and its open items. */
function state(options: PlaygroundWebOptions): unknown {
  const { botApi, sandbox } = options;
  return {
    bot: botApi.botInfo,
    // The local Bot API server the bot talks to (its token is the double's, not a secret): a test
    // or curl acts as the bot with it, e.g. to show a rich or ephemeral message on the page.
    botApi: { apiRoot: botApi.apiRoot, token: botApi.token },
    chats: options.chats,
    people: options.people,
    // Which buttons open the panel: `web_app` ones, and links to t.me/<bot>/<shortName>.
    miniApp: options.miniApp ? { shortName: options.miniApp.shortName ?? null } : null,
    // The menu button by the input of each of the bot's private chats (setChatMenuButton).
    menuButtons: Object.fromEntries(
      options.chats
        .filter((c) => c.kind === 'private' && c.members.includes(c.id))
        .map((c) => [c.id, botApi.menuButton(c.id)]),
    ),
    commands: {
      ru: botApi.myCommands({ languageCode: 'ru' }),
      en: botApi.myCommands({ languageCode: 'en' }),
    },
    descriptions: {
      ru: botApi.myDescription({ languageCode: 'ru' }),
      en: botApi.myDescription({ languageCode: 'en' }),
    },
    sandbox: {
      url: sandbox.url,
      token: sandbox.token,
      // The second partner's token (another account for the same chat), when the sandbox has one.
      secondToken: sandbox.partners[1]?.token ?? null,
      now: sandbox.now(),
      ...sandbox.openItems(),
    },
  };
}

function isLocalHost(host: string | undefined): boolean {
  return host !== undefined && /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('the request is too large');
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
