/*
 * The Mini App's small rules: its configuration, the launch parameter of a bound group, the
 * membership check's cache, and that nothing is mounted without MINI_APP_URL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, miniAppPath } from '../../src/config.js';
import { APP_SCREENS, formatGroupStartParam, parseStartParam } from '../../src/core/mini-app-launch.js';
import { createLogger } from '../../src/logger.js';
import { miniAppRoutes } from '../../src/mini-app/index.js';
import { createMembershipCheck } from '../../src/mini-app/membership.js';
import { createSavedCustomers } from '../../src/services/saved-customers.js';
import { createZoneEditing } from '../../src/services/zone-editing.js';

const BASE = {
  BOT_TOKEN: '123456:AAH-a-bot-token-for-config-tests',
  PARTNER_API_URL: 'https://api.example.by',
};

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ ...BASE, ...env });
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [String(error)];
  }
};

describe('MINI_APP_URL', () => {
  it('is optional; empty means no app', () => {
    expect(loadConfig({ ...BASE, MINI_APP_URL: '' }).MINI_APP_URL).toBeUndefined();
    expect(loadConfig(BASE).MINI_APP_INIT_DATA_MAX_AGE_S).toBe(3_600);
  });

  it('takes https with a path of its own, and http on a loopback host only', () => {
    expect(problemsOf({ MINI_APP_URL: 'https://bot.example.by/app/' })).toEqual([]);
    expect(problemsOf({ MINI_APP_URL: 'http://127.0.0.1:8080/app' })).toEqual([]);
    for (const url of ['http://bot.example.by/app/', 'https://bot.example.by/', 'https://bot.example.by']) {
      expect(problemsOf({ MINI_APP_URL: url }), url).toEqual([
        expect.stringMatching(/^MINI_APP_URL must be https/),
      ]);
    }
  });

  it("must not hold the webhook's path", () => {
    const problems = problemsOf({
      MINI_APP_URL: 'https://bot.example.by/tg/',
      WEBHOOK_URL: 'https://bot.example.by/tg/hook',
      WEBHOOK_SECRET: 'a-webhook-secret-of-enough-length',
    });
    expect(problems).toEqual([expect.stringMatching(/^MINI_APP_URL must not hold the webhook's path/)]);
  });

  it('MINI_APP_SHORT_NAME: BotFather’s short name, only beside MINI_APP_URL', () => {
    const url = 'https://bot.example.by/app/';
    expect(
      loadConfig({ ...BASE, MINI_APP_URL: url, MINI_APP_SHORT_NAME: 'zone_editor' }).MINI_APP_SHORT_NAME,
    ).toBe('zone_editor');
    expect(loadConfig({ ...BASE, MINI_APP_SHORT_NAME: '' }).MINI_APP_SHORT_NAME).toBeUndefined();
    for (const name of ['ab', 'zone-editor', 'a'.repeat(31)]) {
      expect(problemsOf({ MINI_APP_URL: url, MINI_APP_SHORT_NAME: name }), name).toEqual([
        expect.stringMatching(/^MINI_APP_SHORT_NAME must be 3-30 characters/),
      ]);
    }
    expect(problemsOf({ MINI_APP_SHORT_NAME: 'zone_editor' })).toEqual([
      expect.stringMatching(/^MINI_APP_SHORT_NAME needs MINI_APP_URL/),
    ]);
  });

  it('mounts the app under its path with one trailing slash', () => {
    expect(miniAppPath('https://bot.example.by/app')).toBe('/app/');
    expect(miniAppPath('https://bot.example.by/a/b///')).toBe('/a/b/');
  });

  it('unset: no route at all', () => {
    const routes = miniAppRoutes({
      config: loadConfig(BASE),
      chatData: {
        getTeam: async () => undefined,
        getAccount: async () => undefined,
        currentAccount: async () => undefined,
        accountNumbers: async () => [],
        listAccounts: async () => [],
      },
      apiFor: () => {
        throw new Error('not called');
      },
      services: {
        zoneEditing: createZoneEditing({
          recorder: { record: async () => undefined, list: async () => [] },
          reports: undefined,
          logger: createLogger({ level: 'silent' }),
        }),
        orderPlacing: { place: async () => ({ kind: 'submitting' }) },
        invoiceCards: { prepare: async () => ({ id: 'x', expiresAt: new Date() }) },
        dnsHistory: { list: async () => [] },
        customers: createSavedCustomers({
          getProfiles: async () => [],
          saveProfile: async () => undefined,
          deleteProfile: async () => false,
        }),
      },
      translate: (_locale, key) => key,
      logger: createLogger({ level: 'silent' }),
    });
    expect(routes).toEqual([]);
  });
});

describe('the launch parameter of a bound group', () => {
  it('round-trips a group id in the characters Telegram allows', () => {
    for (const id of [-1001234567890, -42]) {
      const param = formatGroupStartParam(id);
      expect(param).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(parseStartParam(param)).toEqual({ kind: 'group', chatId: id });
    }
  });

  it('carries the screen the button opens', () => {
    for (const screen of APP_SCREENS) {
      const param = formatGroupStartParam(-1001234567890, screen);
      expect(param).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(parseStartParam(param)).toEqual({ kind: 'group', chatId: -1001234567890, screen });
    }
  });

  it('names nothing for anything else', () => {
    for (const param of [
      '',
      'g',
      'g42',
      'g-',
      'g-12x',
      'promo',
      `g-${'9'.repeat(20)}`,
      'g-42_',
      'g-42_admin',
    ]) {
      expect(parseStartParam(param), param).toBeUndefined();
    }
  });
});

describe('the membership check', () => {
  it('counts members, admins and restricted members still in; keeps an answer for a minute', async () => {
    let clock = 0;
    let calls = 0;
    const statuses: Record<number, { status: string; is_member?: boolean }> = {
      1: { status: 'member' },
      2: { status: 'left' },
      3: { status: 'restricted', is_member: true },
      4: { status: 'restricted', is_member: false },
      5: { status: 'kicked' },
      6: { status: 'administrator' },
    };
    const check = createMembershipCheck(
      async (_chat, user) => {
        calls++;
        return statuses[user] ?? { status: 'left' };
      },
      { now: () => clock },
    );
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((user) => check(-1, user)));
    expect(answers).toEqual([true, false, true, false, false, true]);
    await check(-1, 1);
    expect(calls).toBe(6);
    clock += 60_001;
    await check(-1, 1);
    expect(calls).toBe(7);
  });

  it('refuses when Telegram fails, and asks again next time', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const check = createMembershipCheck(
      async () => {
        if (fail) throw new Error('Bad Request: chat not found');
        return { status: 'member' };
      },
      { onError: (error) => errors.push(error) },
    );
    expect(await check(-1, 1)).toBe(false);
    fail = false;
    expect(await check(-1, 1)).toBe(true);
    expect(errors).toHaveLength(1);
  });
});

describe('the seam between the chat and the Mini App', () => {
  const SRC = resolve(import.meta.dirname, '../../src');
  /** Every project module a folder's files import (relative specifiers, resolved under src/). */
  const importsOf = (folder: string): { file: string; target: string }[] =>
    readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => {
        const path = join(SRC, folder, file);
        const text = readFileSync(path, 'utf8');
        return [...text.matchAll(/from '(\.[^']+)'/g)].map((match) => ({
          file: relative(SRC, path),
          target: relative(SRC, resolve(path, '..', match[1] ?? '')),
        }));
      });

  it('the Mini App imports nothing of the bot, and the bot nothing of the Mini App', () => {
    expect(importsOf('mini-app').filter(({ target }) => target.startsWith('bot/'))).toEqual([]);
    expect(importsOf('bot').filter(({ target }) => target.startsWith('mini-app/'))).toEqual([]);
    expect(importsOf('mini-app').length).toBeGreaterThan(5);
  });

  it('what both run (services) imports only api, core, storage and the logger', () => {
    const imports = importsOf('services');
    expect(imports.length).toBeGreaterThan(3);
    expect(
      imports.filter(({ target }) => !/^(api|core|storage|services)\/|^logger\.js$/.test(target)),
    ).toEqual([]);
  });
});
