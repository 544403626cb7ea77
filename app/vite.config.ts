import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/*
 * The Mini App's client, built into dist/app, which the bot's HTTP server serves under
 * MINI_APP_URL's path. `base: './'`: that path is the operator's, so every asset is relative.
 * No module-preload polyfill: one entry chunk, and Telegram's web views all support modules.
 * `node:url`: core's domain names (read by the invoice search the app bundles) take its two IDNA
 * functions from the browser's stand-in (app/src/node-url.ts).
 */
export default defineConfig({
  root: here,
  base: './',
  resolve: { alias: { 'node:url': fileURLToPath(new URL('src/node-url.ts', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../dist/app', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
});
