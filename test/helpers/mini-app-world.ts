/*
 * One world for the Mini App's API tests (integration and browser): a chat store (lowdb in a temp
 * dir, a fresh key), the provider — the sandbox started here through the real client, or a
 * stand-in the test hands over — and the app's routes on the bot's HTTP server as main mounts them
 * (`startMiniAppApi`). The chats a test names get the provider's token, a team group its team;
 * what else a file needs (a second account, a recording service) it adds through `setUp` and
 * `services`. `close()` stops the server, the client and the sandbox and removes the folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiFactory, type PartnerApi, PartnerTransport } from '../../src/api/index.js';
import type { BotServer } from '../../src/http-server.js';
import type { Logger } from '../../src/logger.js';
import type { MembershipCheck } from '../../src/mini-app/access.js';
import type { MiniAppServices } from '../../src/mini-app/endpoint-types.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { type ChatData, createChatData, type TeamRecord } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { startMiniAppApi } from './mini-app-api.js';

/** A provider other than the sandbox: its address, the client per token, and the chats' token. */
export interface StandInProvider {
  url: string;
  apiFor: (token: string) => PartnerApi;
  token: string;
}

export interface MiniAppWorldOptions {
  botToken: string;
  /** Names the temp folder (`<name>-…`). */
  name: string;
  /** The sandbox's options (port 0 always), or a stand-in provider; default a sandbox of one partner. */
  provider?: Omit<SandboxOptions, 'port'> | { standIn: StandInProvider };
  /** Chats given the provider's token (the sandbox's first partner's), in this order. */
  chats?: readonly number[];
  /** A team group (one of `chats`) bound with this team, after the tokens. */
  team?: { group: number } & TeamRecord;
  /** After the tokens and the team, before the server starts: what else the chats (or the folder) hold. */
  setUp?: (world: MiniAppWorldParts) => Promise<unknown>;
  /** Services in place of the quiet ones (`quietServices`), built on the server's logger. */
  services?: (logger: Logger, world: MiniAppWorldParts) => Partial<MiniAppServices>;
  /** Who is still in a group (default everyone). */
  isGroupMember?: MembershipCheck;
  /** The app's files to serve, a folder below `dataDir` that `setUp` fills; default the built app. */
  appDir?: string;
  /** Receives every log line (default a list of the world's own). */
  lines?: string[];
}

/** What `setUp` and `services` are handed: the world before its server starts. */
export type MiniAppWorldParts = Pick<MiniAppWorld, 'chatData' | 'sandbox' | 'dataDir'>;

export interface MiniAppWorld {
  /** The sandbox; throws when the provider is a stand-in. */
  readonly sandbox: Sandbox;
  /** The partner API client's transport to the sandbox; throws when the provider is a stand-in. */
  readonly transport: PartnerTransport;
  chatData: ChatData;
  /** The world's temp folder (the chats' store is in `data/` below it). */
  dataDir: string;
  server: BotServer;
  /** The app's address on the server (`http://127.0.0.1:<port>/app/`). */
  base: string;
  lines: string[];
  close(): Promise<void>;
}

export async function startMiniAppWorld(options: MiniAppWorldOptions): Promise<MiniAppWorld> {
  const standIn = options.provider && 'standIn' in options.provider ? options.provider.standIn : undefined;
  const sandboxOptions = options.provider && !('standIn' in options.provider) ? options.provider : {};
  const sandbox = standIn ? undefined : await startSandbox({ ...sandboxOptions, port: 0 });
  const transport = sandbox ? new PartnerTransport({ baseUrl: sandbox.url, retryDelayMs: 1 }) : undefined;
  const sandboxOf = (): Sandbox => {
    if (!sandbox) throw new Error('this Mini App world has a stand-in provider, not the sandbox');
    return sandbox;
  };
  const transportOf = (): PartnerTransport => {
    if (!transport) throw new Error('this Mini App world has a stand-in provider, not the sandbox');
    return transport;
  };
  const dataDir = await mkdtemp(join(tmpdir(), `${options.name}-`));
  const lines = options.lines ?? [];
  let server: BotServer | undefined;
  const close = async (): Promise<void> => {
    await server?.close();
    await transport?.close();
    await sandbox?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const chatData = createChatData({
      store: createLowdbStore({ dataDir: join(dataDir, 'data') }),
      keyring: parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`),
    });
    const token = standIn?.token ?? sandboxOf().token;
    for (const chat of options.chats ?? []) await chatData.setToken(chat, token);
    if (options.team) {
      const { group, ...team } = options.team;
      await chatData.setTeam(group, team);
    }
    const parts: MiniAppWorldParts = {
      chatData,
      dataDir,
      get sandbox() {
        return sandboxOf();
      },
    };
    await options.setUp?.(parts);
    const services = options.services;
    const started = await startMiniAppApi({
      botToken: options.botToken,
      partnerApiUrl: standIn?.url ?? sandboxOf().url,
      chatData,
      apiFor: standIn?.apiFor ?? createApiFactory(transportOf()),
      lines,
      ...(services ? { services: (logger: Logger) => services(logger, parts) } : {}),
      ...(options.isGroupMember ? { isGroupMember: options.isGroupMember } : {}),
      ...(options.appDir === undefined ? {} : { appDir: join(dataDir, options.appDir) }),
    });
    server = started.server;
    return {
      get sandbox() {
        return sandboxOf();
      },
      get transport() {
        return transportOf();
      },
      chatData,
      dataDir,
      server,
      base: started.base,
      lines,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
