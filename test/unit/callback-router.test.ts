import { describe, expect, it } from 'vitest';
import { CallbackRouter } from '../../src/bot/kit/callback-router.js';
import { callbackCodec } from '../../src/bot/registry.js';
import type { Logger } from '../../src/logger.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

describe('CallbackRouter', () => {
  it('refuses a second handler for one action at registration', () => {
    const router = new CallbackRouter(silent, callbackCodec);
    router.on('dns', async () => {});
    expect(() => router.on('dns', async () => {})).toThrow(/"dns" is registered twice/);
  });

  it('takes different actions', () => {
    const router = new CallbackRouter(silent, callbackCodec);
    expect(() => router.on('dns', async () => {}).on('dnsAdd', async () => {})).not.toThrow();
  });
});
