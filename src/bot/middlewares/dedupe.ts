import type { BotContext } from '../context.js';

/** Tells whether an update id is seen for the first time (webhook re-sends, polling replays). */
export interface UpdateDeduper {
  firstTime(updateId: number): Promise<boolean>;
}

/** Remembers the last `size` update ids of this process. */
export function createMemoryDeduper(size = 10_000): UpdateDeduper {
  const seen = new Set<number>();
  // A ring of the remembered ids, oldest at `next` once full: forgetting the oldest is O(1)
  // (an array's shift() moved all 10,000 ids on every update).
  const ring: (number | undefined)[] = new Array(size);
  let next = 0;
  return {
    async firstTime(updateId) {
      if (seen.has(updateId)) return false;
      const oldest = ring[next];
      if (oldest !== undefined) seen.delete(oldest);
      ring[next] = updateId;
      next = (next + 1) % size;
      seen.add(updateId);
      return true;
    },
  };
}

/** Drops an update whose id was already handled: it takes effect once. */
export function createDedupe(deduper: UpdateDeduper, onDuplicate: (updateId: number) => void) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    if (await deduper.firstTime(ctx.update.update_id)) return next();
    onDuplicate(ctx.update.update_id);
  };
}
