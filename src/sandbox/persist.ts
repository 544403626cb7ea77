/**
 * Keeps the sandbox's token and data in a folder (`DATA_DIR/sandbox` under `npm run dev` and
 * `npm run sandbox`), so a restart answers the token the bot already stored and still knows the
 * orders, invoices and DNS records made before it. Delete the folder to start from the seed again.
 * The first partner's are `token` and `state.json`; partner n's (`options.partners`) `token-<n>` and
 * `state-<n>.json`.
 */

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPartnerSeed, createSeed } from './seed.js';
import { type PartnerOptions, type Sandbox, type SandboxOptions, startSandbox } from './server.js';
import type { SandboxState } from './state.js';

/** Where the token and the data were taken from. */
export interface KeptSandboxFiles {
  /** `env` when SANDBOX_TOKEN was given (it wins, and the file is left alone). */
  tokenFrom: 'env' | 'kept' | 'new';
  /** `kept` when the data of an earlier run was restored. */
  dataFrom: 'kept' | 'seed';
  tokenFile: string;
  stateFile: string;
  /** Why a kept snapshot was not used (unreadable, or of an older shape), when it was not. */
  notice?: string;
  /** The same for partners 2, 3, … (`options.partners`), in order. */
  partners: KeptPartnerFiles[];
}

export interface KeptPartnerFiles {
  /** 2, 3, … */
  n: number;
  tokenFrom: 'env' | 'kept' | 'new';
  dataFrom: 'kept' | 'seed';
  tokenFile: string;
  stateFile: string;
  notice?: string;
}

export interface KeptSandbox {
  sandbox: Sandbox;
  files: KeptSandboxFiles;
}

const TOKEN_FILE = 'token';
const STATE_FILE = 'state.json';

/** Reads the kept token, or makes one and keeps it (mode 0600: it opens the sandbox). */
function keptToken(dir: string, name = TOKEN_FILE): { token: string; from: 'kept' | 'new' } {
  const file = path.join(dir, name);
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token !== '') return { token, from: 'kept' };
  }
  const token = randomBytes(24).toString('base64url');
  writeAtomically(file, `${token}\n`, 0o600);
  return { token, from: 'new' };
}

/** A snapshot is used only when it has every part of today's state with the same kind of value. */
function restoredState(file: string): { state?: SandboxState; notice?: string } {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { notice: `${file} is unreadable (${(error as Error).message}); starting from the seed data` };
  }
  const seed = createSeed() as unknown as Record<string, unknown>;
  const kept = parsed as Record<string, unknown> | null;
  const fits =
    typeof kept === 'object' &&
    kept !== null &&
    Object.entries(seed).every(
      ([key, value]) =>
        Array.isArray(value) === Array.isArray(kept[key]) && typeof value === typeof kept[key],
    );
  if (!fits) return { notice: `${file} is from another sandbox version; starting from the seed data` };
  return { state: parsed as SandboxState };
}

function writeAtomically(file: string, text: string, mode = 0o644): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode });
  renameSync(temp, file);
  chmodSync(file, mode);
}

/**
 * Starts the sandbox with the token and data kept in `dir` (created when missing), and writes the
 * data back there after every request that may change it. `options.token` (SANDBOX_TOKEN) wins
 * over the kept token.
 */
export async function startKeptSandbox(
  dir: string,
  options: Omit<SandboxOptions, 'state' | 'onChange' | 'partners'> & {
    /** More partners (their tokens: given, else kept in `token-<n>`); their data in `state-<n>.json`. */
    partners?: Array<Omit<PartnerOptions, 'state'>>;
  } = {},
): Promise<KeptSandbox> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tokenFile = path.join(dir, TOKEN_FILE);
  const stateFile = path.join(dir, STATE_FILE);
  const { token, from: tokenFrom } = options.token
    ? { token: options.token, from: 'env' as const }
    : keptToken(dir);
  const { state, notice } = restoredState(stateFile);
  const partners = (options.partners ?? []).map((partner, index) => {
    const n = index + 2;
    const kept = partner.token
      ? { token: partner.token, from: 'env' as const }
      : keptToken(dir, `${TOKEN_FILE}-${n}`);
    const file = path.join(dir, `state-${n}.json`);
    const restored = restoredState(file);
    return {
      options: { token: kept.token, state: restored.state ?? createPartnerSeed(n) },
      files: {
        n,
        tokenFrom: kept.from,
        dataFrom: restored.state ? ('kept' as const) : ('seed' as const),
        tokenFile: path.join(dir, `${TOKEN_FILE}-${n}`),
        stateFile: file,
        ...(restored.notice ? { notice: restored.notice } : {}),
      },
    };
  });
  const save = (current: SandboxState, n = 1): void => {
    const file = n === 1 ? stateFile : path.join(dir, `state-${n}.json`);
    try {
      writeAtomically(file, JSON.stringify(current));
    } catch (error) {
      // The sandbox keeps answering; only the next restart would lose this change.
      process.stderr.write(`sandbox: could not keep the data in ${file}: ${(error as Error).message}\n`);
    }
  };
  const initial = state ?? createSeed();
  save(initial);
  for (const partner of partners) save(partner.options.state, partner.files.n);
  const sandbox = await startSandbox({
    ...options,
    token,
    state: initial,
    partners: partners.map((partner) => partner.options),
    onChange: save,
  });
  return {
    sandbox,
    files: {
      tokenFrom,
      dataFrom: state ? 'kept' : 'seed',
      tokenFile,
      stateFile,
      ...(notice ? { notice } : {}),
      partners: partners.map((partner) => partner.files),
    },
  };
}
