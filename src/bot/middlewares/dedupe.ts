import type { BotContext } from '../context.js';

/** Tells whether an update id is seen for the first time (webhook re-sends, polling replays). */
export interface UpdateDeduper {
  firstTime(updateId: number): Promise<boolean>;
}

/** Remembers the last `size` update ids of this process. */
export function createMemoryDeduper(size = 10_000): UpdateDeduper {
  const seen = new Set<number>();
  const order: number[] = [];
  return {
    async firstTime(updateId) {
      if (seen.has(updateId)) return false;
      seen.add(updateId);
      order.push(updateId);
      if (order.length > size) seen.delete(order.shift() as number);
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
