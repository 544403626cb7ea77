/**
 * The schedule on Redis for several instances (`STORAGE=redis`), on BullMQ: one job scheduler per
 * token (`every` the interval, offset by the token's jitter), whose jobs any instance's worker
 * takes. BullMQ holds a job under a lock while one worker runs it, so a token is polled by one
 * instance at a time; when an instance dies mid-poll its lock expires and another worker's stalled
 * check hands the job on. The poll itself is safe to run twice (see `outbox.ts`), so a late
 * takeover costs a provider call, never a second message.
 */
import { Queue, Worker } from 'bullmq';
import { jitterOf, type WatchScheduler } from './scheduler.js';

export interface BullmqSchedulerOptions {
  /** The same Redis as `REDIS_URL`; BullMQ opens its own connections (blocking ones among them). */
  redisUrl: string;
  /** Key prefix of the queue; default `partner-bot:bull`. */
  prefix?: string;
  intervalMs: number;
  /** Polls one instance runs at once. Default 8. */
  concurrency?: number;
  /** At most this many polls start per second across every instance (BullMQ's queue limiter). */
  pollsPerS?: number;
  /** How long a poll's lock lasts without renewal: a dead instance's poll is taken over after it. */
  lockMs?: number;
  onError?: (id: string, error: unknown) => void;
}

const QUEUE = 'notify-poll';
const schedulerIdOf = (id: string) => `watch:${id}`;

export function createBullmqScheduler(options: BullmqSchedulerOptions): WatchScheduler {
  const { intervalMs, concurrency = 8, lockMs = 30_000, prefix = 'partner-bot:bull' } = options;
  // Workers block on Redis: BullMQ wants commands that never give up on a slow answer.
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const queue = new Queue<{ id: string }>(QUEUE, { connection, prefix });
  let worker: Worker<{ id: string }> | undefined;

  return {
    async ensure(id, { soon = false } = {}) {
      await queue.upsertJobScheduler(
        schedulerIdOf(id),
        { every: intervalMs, offset: jitterOf(id, intervalMs) },
        { name: 'poll', data: { id }, opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
      if (soon) {
        await queue.add('poll', { id }, { removeOnComplete: true, removeOnFail: 100 });
      }
    },
    async remove(id) {
      await queue.removeJobScheduler(schedulerIdOf(id));
    },
    async lagMs() {
      // The oldest job waiting for a worker: due at its creation time plus its delay.
      const [oldest] = await queue.getJobs(['wait'], 0, 0, true);
      if (oldest === undefined) return 0;
      return Math.max(0, Date.now() - (oldest.timestamp + (oldest.delay ?? 0)));
    },
    async start(run) {
      worker = new Worker<{ id: string }>(
        QUEUE,
        async (job) => {
          const id = job.data.id;
          if (typeof id !== 'string') return;
          await run(id);
        },
        {
          connection,
          prefix,
          concurrency,
          lockDuration: lockMs,
          stalledInterval: Math.max(1_000, Math.floor(lockMs / 2)),
          // A poll that keeps killing its instance is not worth more than a few tries.
          maxStalledCount: 3,
          ...(options.pollsPerS === undefined
            ? {}
            : options.pollsPerS >= 1
              ? { limiter: { max: Math.floor(options.pollsPerS), duration: 1_000 } }
              : { limiter: { max: 1, duration: Math.ceil(1_000 / options.pollsPerS) } }),
        },
      );
      worker.on('failed', (job, error) => {
        if (job) options.onError?.(job.data.id, error);
      });
      worker.on('error', (error) => options.onError?.('-', error));
      await worker.waitUntilReady();
    },
    async stop() {
      await worker?.close();
      await queue.close();
    },
  };
}
