import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_DIR } from '../../src/mini-app/index.js';

const APP_SOURCES = fileURLToPath(new URL('../../app/src/', import.meta.url));

/*
 * The built Mini App (vitest's global setup runs `vite build`, as `npm run build` does): what the
 * bot's server will hand Telegram under a CSP of `script-src 'self'`, so no inline script and
 * nothing loaded from elsewhere.
 */
describe('the built Mini App (dist/app)', () => {
  it('is an index.html that loads one bundled module by a relative path, with no inline script', async () => {
    const html = await readFile(join(APP_DIR, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const [, attributes = '', body = ''] = scripts[0] ?? [];
    expect(body.trim()).toBe('');
    expect(attributes).toMatch(/type="module"/);
    expect(attributes).toMatch(/src="\.\/assets\/[\w-]+\.js"/);
    // No inline handlers or styles the CSP would block, and nothing from another origin (no CDN).
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('bundles the app and the tma.js SDK into its JS asset: no import from elsewhere', async () => {
    const assets = await readdir(join(APP_DIR, 'assets'));
    const scripts = assets.filter((name) => name.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const js = await readFile(join(APP_DIR, 'assets', scripts[0] ?? ''), 'utf8');
    // The app's own calls, by the contract's endpoint names.
    expect(js).toContain('zone/apply');
    expect(js).toContain('web_app_ready');
    expect(js).not.toMatch(/\bimport\s*\(?\s*["']https?:/);
    expect(js).not.toContain('telegram.org/js');
  });

  it("takes the server's contract as types only, core's pure code at most: no server code in the bundle", async () => {
    const sources = (await readdir(APP_SOURCES)).filter((name) => name.endsWith('.ts'));
    const fromServer = [];
    for (const name of sources) {
      const text = await readFile(join(APP_SOURCES, name), 'utf8');
      fromServer.push(
        ...[...text.matchAll(/^import\b[^;]*?from '\.\.\/\.\.\/src\/[^']+';/gms)].map((m) => m[0]),
      );
    }
    expect(fromServer.length).toBeGreaterThan(0);
    // core is pure (no I/O) and shared: «Счета» runs its invoice search as the chat does. Anything
    // else of src/ — the contract's schemas, the server — is a type only.
    for (const statement of fromServer) {
      if (!statement.includes("'../../src/core/")) expect(statement).toMatch(/^import type /);
    }
    const assets = await readdir(join(APP_DIR, 'assets'));
    const js = await readFile(join(APP_DIR, 'assets', assets.find((n) => n.endsWith('.js')) ?? ''), 'utf8');
    // Neither zod nor a schema of the contract was bundled.
    expect(js).not.toMatch(/ZodError|strictObject|\$ZodType/);
  });
});
