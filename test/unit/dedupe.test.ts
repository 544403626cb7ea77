import { describe, expect, it } from 'vitest';
import { createMemoryDeduper } from '../../src/bot/middlewares/dedupe.js';

describe('createMemoryDeduper', () => {
  it('tells a repeated update id within the last `size` ids, and forgets the oldest beyond them', async () => {
    const deduper = createMemoryDeduper(3);
    expect(await deduper.firstTime(1)).toBe(true);
    expect(await deduper.firstTime(1)).toBe(false);
    expect(await deduper.firstTime(2)).toBe(true);
    expect(await deduper.firstTime(3)).toBe(true);
    // A repeat does not count as a new id: 1 is still remembered.
    expect(await deduper.firstTime(1)).toBe(false);
    expect(await deduper.firstTime(4)).toBe(true);
    // 1 was the oldest: forgotten, so it is new again, and remembering it pushes 2 out.
    expect(await deduper.firstTime(1)).toBe(true);
    expect(await deduper.firstTime(3)).toBe(false);
    expect(await deduper.firstTime(4)).toBe(false);
    expect(await deduper.firstTime(2)).toBe(true);
  });

  it('keeps exactly the last 10,000 ids by default over many updates', async () => {
    const deduper = createMemoryDeduper();
    for (let id = 1; id <= 25_000; id++) await deduper.firstTime(id);
    expect(await deduper.firstTime(15_001)).toBe(false);
    expect(await deduper.firstTime(25_000)).toBe(false);
    expect(await deduper.firstTime(15_000)).toBe(true);
  });
});
