/*
 * The playground page's files over real HTTP: every ES module of the page folder is served as
 * JavaScript (the browser refuses a module of another type), and nothing outside the folder's own
 * files is reachable, however the path is spelled.
 */
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { CHATS, PEOPLE } from '../../src/playground/people.js';
import { type PlaygroundWeb, startPlaygroundWeb } from '../../src/playground/web.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';

const PAGE_DIR = join('src', 'playground', 'page');

/** A GET with the path sent exactly as written (fetch would resolve `..` before sending it). */
function get(url: string, rawPath: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { path: rawPath }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the playground page over HTTP', () => {
  let botApi: BotApiServer;
  let sandbox: Sandbox;
  let web: PlaygroundWeb;

  beforeAll(async () => {
    botApi = await startBotApiServer({ port: 0 });
    sandbox = await startSandbox({ port: 0 });
    web = await startPlaygroundWeb({ port: 0, botApi, sandbox, chats: CHATS, people: PEOPLE });
  });

  afterAll(async () => {
    await web?.close();
    await sandbox?.close();
    await botApi?.close();
  });

  it('serves every module of the page folder as JavaScript, with its content', async () => {
    const modules = readdirSync(PAGE_DIR).filter((name) => name.endsWith('.js'));
    expect(modules.length).toBeGreaterThan(0);
    for (const name of modules) {
      const response = await fetch(`${web.url}${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
  });

  it('serves the page at / and its style sheet', async () => {
    expect((await get(web.url, '/')).type).toBe('text/html; charset=utf-8');
    expect((await get(web.url, '/style.css')).type).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for any path that is not one of the folder’s files', async () => {
    for (const path of [
      '/../web.ts',
      '/..%2fweb.ts',
      '/%2e%2e/web.ts',
      '/page/index.html',
      '/missing.js',
      '/__proto__',
      '/constructor',
      '/.%2e/.%2e/package.json',
    ]) {
      expect((await get(web.url, path)).status, path).toBe(404);
    }
  });
});
