/**
 * Reads a `.cpuprofile` (V8's, from `node --cpu-prof`) and prints self time by bucket: garbage
 * collection, telegraf's composer chain, telegraf's session, i18next, this bot's code by folder,
 * and the rest — the buckets issue 25's profile was given in.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary <file.cpuprofile>');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

function bucketOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  if (url.includes('/telegraf/lib/composer')) return 'telegraf composer chain';
  if (url.includes('/telegraf/lib/session')) return 'telegraf session';
  if (url.includes('/telegraf/')) return 'telegraf (other)';
  if (url.includes('/i18next/')) return 'i18next';
  if (url.includes('/lowdb/') || url.includes('/steno/')) return 'lowdb';
  const own = /\/(src\/[^/]+(?:\/[^/]+)?)\//.exec(url);
  if (own && !url.includes('node_modules')) return own[1] ?? 'src';
  if (url.startsWith('node:') || url === '') return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? `package ${pkg[1]}` : 'other';
}

const totals = new Map<string, number>();
let all = 0;
for (const [i, id] of profile.samples.entries()) {
  const node = byId.get(id);
  const delta = profile.timeDeltas[i] ?? 0;
  if (!node) continue;
  const bucket = bucketOf(node);
  if (bucket === '(idle)') continue;
  totals.set(bucket, (totals.get(bucket) ?? 0) + delta);
  all += delta;
}
for (const [bucket, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(
    `${((100 * micros) / all).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${bucket}`,
  );
}
