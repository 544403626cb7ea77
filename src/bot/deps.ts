import type { ApiFactory } from '../api/index.js';
import type { Logger } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import type { Locale } from '../storage/chat-store.js';
import type { DnsHistory } from '../storage/dns-history.js';
import type { ChatLock } from '../storage/redis-coordination.js';
import type { RobotKeys } from '../storage/robot-keys.js';
import type { WatchPort } from './context.js';
import type { LiveCheckPort } from './features/dns/live-check/live-check.js';
import type { AcmeDnsPort } from './features/keys/acme-dns.js';
import type { Translations } from './kit/i18n.js';
import type { MiniAppLinks } from './kit/mini-app-button.js';
import type { UpdateDeduper } from './middlewares/dedupe.js';

/** Everything the bot needs, built by main.ts (or a test). */
export interface BotDeps {
  botToken: string;
  telegramApiRoot?: string;
  chatData: ChatData;
  apiFor: ApiFactory;
  translations: Translations;
  logger: Logger;
  defaultLocale: Locale;
  allowedUserIds?: ReadonlySet<number> | undefined;
  /** Remembers handled update ids (per process by default; Redis when several run). */
  deduper?: UpdateDeduper;
  /** Keeps other instances out of a chat while this one handles it (Redis). */
  chatLock?: ChatLock;
  /** The watchers behind /notify (absent when NOTIFY_INTERVAL_S=0). */
  watches?: WatchPort | undefined;
  /** The DNS change history behind `/dns <domain> history` and the Undo buttons. */
  dnsHistory?: DnsHistory | undefined;
  /** Told of every zone change the chat makes (the robots' gateway drops its cached addresses). */
  zoneChanged?: ((accountId: string, orderId: number) => Promise<void>) | undefined;
  /** The live check after DNS changes and on `/dns <domain> check` (absent: not offered). */
  liveChecks?: LiveCheckPort | undefined;
  /** `TELEGRAM_LOCAL_FILES_DIR`: where a `--local` Bot API server's files are visible to the bot. */
  localFilesDir?: string | undefined;
  /**
   * `RICH_MESSAGES`: tables and documents as rich messages (Bot API 10.1; on unless told), or as
   * HTML for a self-hosted Bot API server older than that.
   */
  richMessages?: boolean;
  /**
   * The Mini App (`MINI_APP_URL`, `MINI_APP_SHORT_NAME`): screens offer to open it; absent, they
   * do not. Only where it is: the bot never imports the app's server.
   */
  miniApp?: MiniAppLinks | undefined;
  /** Robots' keys behind /keys (routers, certificate clients). */
  robotKeys: RobotKeys;
  /** `GATEWAY_URL`: where robots reach this server, shown in their configs (else the Mini App's origin). */
  gatewayUrl?: string | undefined;
  /** acme-dns registration for certificate keys (the challenges service); absent, /keys offers httpreq only. */
  acmeDns?: AcmeDnsPort | undefined;
}
