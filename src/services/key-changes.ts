/*
 * What every change a robot makes with a key goes through, whatever its protocol (dyndns2, httpreq,
 * acme-dns): the account the key acts for (its chat's token, never seen by the robot), and, once
 * the provider accepted the change, one history entry (↩ Undo) and the chat told — at most one
 * message per key per hour, the changes in between folded into the next one.
 */
import { ApiHttpError, type PartnerApi } from '../api/index.js';
import type { HistoryEntry } from '../core/dns-history.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import type { GatewayState } from '../storage/gateway-state.js';
import { accountOfKey, type RobotKey } from '../storage/robot-keys.js';
import { watchIdOf } from '../storage/watch-store.js';
import type { ChangesOutcome } from './dns-apply.js';
import type { DnsRecorder } from './dns-journal.js';
import type { KeyReportPort, KeyStopReason } from './key-reports.js';

/** The partner API calls a key's change makes. */
export type KeyChangeApi = Pick<
  PartnerApi,
  'listDnsRecords' | 'addDnsRecord' | 'deleteDnsRecord' | 'listNameServers'
>;

/** At most one message per key in this time; the changes in between are folded. */
export const KEY_REPORT_INTERVAL_MS = 60 * 60_000;
/** How long "this key's account is stopped" is remembered, so the chat is told once. */
const STOP_TOLD_MS = 30 * 24 * 60 * 60_000;

export interface KeyChangeDeps {
  chatData: Pick<ChatData, 'getAccount'>;
  /** The provider's client for a token: the one the chat's own updates use (its transport, timeouts and retries). */
  apiFor: (token: string) => KeyChangeApi;
  recorder: DnsRecorder;
  reports: KeyReportPort | undefined;
  state: GatewayState;
  logger: Logger;
}

/**
 * The account a key acts for (its provider client, and its id: `watchIdOf` the token, what the
 * history and the zone generations are kept under), or why it cannot act now.
 */
export type KeyAccount =
  | { ok: true; api: KeyChangeApi; accountId: string }
  | { ok: false; reason: KeyStopReason };

export function createKeyChanges(deps: KeyChangeDeps) {
  const { state, logger } = deps;

  /** Tells the chat once that its key stopped (until the key works again). */
  const stopped = async (key: RobotKey, reason: KeyStopReason): Promise<void> => {
    const told = `stopped:${key.id}`;
    if ((await state.cached(told)) === '1') return;
    await state.cache(told, '1', STOP_TOLD_MS);
    await deps.reports
      ?.reportKeyStopped({ key, reason })
      .catch((error: unknown) =>
        logger.warn({ chatId: key.chatId, err: errorForLog(error) }, 'key stop not reported'),
      );
  };

  return {
    /** The key's account's token as a provider client; an account gone stops its keys (told once). */
    async accountOf(key: RobotKey): Promise<KeyAccount> {
      const token = (await deps.chatData.getAccount(key.chatId, accountOfKey(key)))?.token;
      if (token === undefined) {
        await stopped(key, 'disconnected');
        return { ok: false, reason: 'disconnected' };
      }
      return { ok: true, api: deps.apiFor(token), accountId: watchIdOf(token) };
    },

    /**
     * Whether a provider error means the account's token was refused; if so the chat is told once.
     * Call it with whatever a change of the key threw or failed with.
     */
    async refusedAccount(key: RobotKey, error: unknown): Promise<boolean> {
      if (!(error instanceof ApiHttpError) || !error.isTokenRejected) return false;
      await stopped(key, 'refused');
      return true;
    },

    /**
     * After a key's change: its history entry, and the chat told (or the change folded into the
     * next message) — unless `told` is false: a change the chat itself asked for and words itself
     * (acme-dns's registration from /keys) is recorded only, and leaves the hour's message to the
     * robot's first change. Never throws: the change is made whatever the chat is told.
     */
    async endChange(
      key: RobotKey,
      outcome: ChangesOutcome,
      options: { told?: boolean } = {},
    ): Promise<HistoryEntry | undefined> {
      // The key works: a later stop is told again.
      if ((await state.cached(`stopped:${key.id}`)) === '1') await state.cache(`stopped:${key.id}`, '0', 1);
      if (outcome.applied.length === 0 && outcome.failures.length === 0) return undefined;
      const who = {
        chatId: key.chatId,
        userId: key.createdBy.userId,
        name: key.createdBy.name,
        key: key.name,
        account: accountOfKey(key),
      };
      const entry = await deps.recorder.record(who, key.orderId, 'auto', { records: outcome.applied });
      if (options.told === false) return entry;
      try {
        const foldedKey = `folded:${key.id}`;
        if (await state.claim(`report:${key.id}`, KEY_REPORT_INTERVAL_MS)) {
          const folded = Number((await state.cached(foldedKey)) ?? '0') || 0;
          await state.cache(foldedKey, '0', 1);
          await deps.reports?.reportKeyUse({ key, domain: key.domain, outcome, entry, folded });
        } else {
          const folded = Number((await state.cached(foldedKey)) ?? '0') || 0;
          await state.cache(foldedKey, String(folded + 1), 2 * KEY_REPORT_INTERVAL_MS);
        }
      } catch (error) {
        logger.warn({ chatId: key.chatId, err: errorForLog(error) }, 'key use not reported');
      }
      return entry;
    },
  };
}

export type KeyChanges = ReturnType<typeof createKeyChanges>;
