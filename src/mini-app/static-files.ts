/*
 * The built app's files (dist/app), under the Mini App's path. Only regular files inside the
 * folder are served: a path is decoded once, `..`, `\` and NUL are refused before it is joined,
 * and the file's real path (symbolic links followed) must still be inside the real folder. An app
 * not built answers a page that says so and what to run, not a bare "nothing here".
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { PAGE_CSP, securityHeaders } from './http-io.js';

/** Content types by extension; text types say their charset. Anything else is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

/** The file below `root` that `relative` (the URL path after the app's path) names; undefined when none may be. */
export async function locateAppFile(root: string, relative: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/');
  if (decoded.includes('\\') || decoded.includes('\0') || segments.some((part) => part === '..'))
    return undefined;
  const wanted = decoded === '' || decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  try {
    const realRoot = await realpath(root);
    const real = await realpath(join(realRoot, wanted));
    if (!real.startsWith(realRoot + sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Serves `file` (from `locateAppFile`) with its content type and the page headers; false when its type is not served. */
export async function sendAppFile(res: ServerResponse, file: string): Promise<boolean> {
  const type = CONTENT_TYPES[extname(file).toLowerCase()];
  if (type === undefined) return false;
  const { size } = await stat(file);
  res.writeHead(200, {
    ...securityHeaders(PAGE_CSP),
    'content-type': type,
    'content-length': String(size),
    // index.html names the hashed bundles; it must be asked again after a deploy.
    'cache-control': file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600',
  });
  await new Promise<void>((resolve, reject) => {
    createReadStream(file).on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
  });
  return true;
}

/** Whether `root` holds a built app (its index.html): a fresh clone has none until a build. */
export async function isAppBuilt(root: string | undefined): Promise<boolean> {
  if (root === undefined) return false;
  try {
    return (await stat(join(root, 'index.html'))).isFile();
  } catch {
    return false;
  }
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"]/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char,
  );

/**
 * The page for every path of an app that is not built (503, not cached, so a reload after the
 * build shows the app): what is wrong and what to run, in the user's language.
 */
export function sendNotBuiltPage(res: ServerResponse, lang: string, title: string, text: string): void {
  const page = `<!doctype html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>
`;
  res
    .writeHead(503, {
      ...securityHeaders(PAGE_CSP),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(page);
}
