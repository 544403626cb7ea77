import { describe, expect, it } from 'vitest';
import { sandboxInstant } from '../../src/sandbox/dates.js';

describe('the watchers’ clock under npm run dev', () => {
  it('reads the sandbox’s Minsk wall-clock time as the instant it names', () => {
    expect(sandboxInstant('24.11.2026 08:00').toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(sandboxInstant('01.01.2027 00:30').toISOString()).toBe('2026-12-31T21:30:00.000Z');
  });
});
