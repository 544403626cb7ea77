/**
 * `GET /readyz`: whether the bot can serve now, with the reasons in words when it cannot. Liveness
 * (`/healthz`) only says the process answers; readiness says Telegram and storage answer too, so a
 * platform sends traffic (or counts an instance as up) only when partners would get answers.
 */
import type { UpdateMode } from './config.js';

export interface ReadinessOptions {
  /** Polling is ready when getUpdates answers; a webhook when Telegram has our URL and no error. */
  updates: UpdateMode;
  /** Polling: a `getUpdates` must have been answered within this window. */
  pollWindowMs: number;
  /** Resolves when storage answers (Redis PING, the data dir writable); rejects otherwise. */
  checkStorage(): Promise<unknown>;
  /** Webhook mode: Telegram's view of the webhook (`getWebhookInfo`). */
  webhookInfo?: () => Promise<{
    url?: string | undefined;
    last_error_date?: number | undefined;
    last_error_message?: string | undefined;
  }>;
  now?: () => number;
}

export interface Readiness {
  /** `getMe` answered: the bot knows who it is. */
  started(): void;
  /** A `getUpdates` was answered. */
  polled(): void;
  stopping(): void;
  /** Why the bot cannot serve now (empty = ready). */
  reasons(): Promise<string[]>;
}

/** A storage check longer than this counts as "not answering". */
const STORAGE_TIMEOUT_MS = 2_000;
/** Telegram's webhook view is asked at most this often. */
const WEBHOOK_INFO_TTL_MS = 30_000;
/** A webhook error Telegram reports within this window makes the bot not ready. */
const WEBHOOK_ERROR_WINDOW_MS = 5 * 60_000;

export function createReadiness(options: ReadinessOptions): Readiness {
  const now = options.now ?? Date.now;
  let startedAt: number | undefined;
  let polledAt: number | undefined;
  let stopping = false;
  let webhook: { at: number; reason: string | undefined } | undefined;

  async function storageReason(): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), STORAGE_TIMEOUT_MS);
    });
    try {
      await Promise.race([options.checkStorage(), timeout]);
      return undefined;
    } catch {
      return 'storage does not answer';
    } finally {
      clearTimeout(timer);
    }
  }

  async function webhookReason(url: string): Promise<string | undefined> {
    if (webhook && now() - webhook.at < WEBHOOK_INFO_TTL_MS) return webhook.reason;
    let reason: string | undefined;
    try {
      const info = await options.webhookInfo?.();
      if (!info || info.url !== url) reason = 'Telegram has another webhook URL set';
      else if (
        info.last_error_date !== undefined &&
        now() - info.last_error_date * 1000 < WEBHOOK_ERROR_WINDOW_MS
      ) {
        reason = `Telegram could not deliver to the webhook in the last 5 minutes (${info.last_error_message ?? 'no reason given'})`;
      }
    } catch {
      reason = 'Telegram does not answer getWebhookInfo';
    }
    webhook = { at: now(), reason };
    return reason;
  }

  return {
    started() {
      startedAt = now();
    },
    polled() {
      polledAt = now();
    },
    stopping() {
      stopping = true;
    },
    async reasons() {
      if (stopping) return ['stopping'];
      if (startedAt === undefined) return ['starting: Telegram has not answered getMe yet'];
      const reasons: string[] = [];
      const storage = await storageReason();
      if (storage) reasons.push(storage);
      if (options.updates.mode === 'polling') {
        const seconds = Math.round(options.pollWindowMs / 1000);
        if (polledAt === undefined || now() - polledAt > options.pollWindowMs) {
          reasons.push(`Telegram has answered no getUpdates in the last ${seconds} s`);
        }
      } else {
        const hook = await webhookReason(options.updates.url);
        if (hook) reasons.push(hook);
      }
      return reasons;
    },
  };
}
