import { minskHour } from './minsk-time.js';
import type { NotificationEvent } from './notify.js';

/*
 * Delivery rules of notifications: several events at once arrive as one digest, and nothing is
 * sent in a chat's quiet hours.
 */

/** How events are sent: one message for one event, or one digest for many. */
export type Delivery =
  | { readonly kind: 'single'; readonly event: NotificationEvent }
  | { readonly kind: 'digest'; readonly events: readonly NotificationEvent[] };

/** More than `digestOver` events at once arrive as one digest; otherwise one message each. */
export function groupForDelivery(
  events: readonly NotificationEvent[],
  options: { readonly digestOver: number },
): Delivery[] {
  if (events.length > options.digestOver) return [{ kind: 'digest', events: [...events] }];
  return events.map((event) => ({ kind: 'single', event }));
}

/** A chat's quiet hours, when nothing is sent and events wait until they end. */
export interface QuietHours {
  /** Minsk hour (0-23) the quiet starts at, inclusive. */
  readonly from: number;
  /** Minsk hour (0-24) the quiet ends at, exclusive; below `from` means it wraps midnight. */
  readonly to: number;
}

/** Whether `now` falls into the quiet hours (Minsk time); `from === to` means no quiet hours. */
export function isQuietHour(now: Date, quiet: QuietHours): boolean {
  const { from, to } = quiet;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || from > 23 || to < 0 || to > 24) {
    throw new RangeError(`quiet hours ${from}-${to} are not hours of a day`);
  }
  const hour = minskHour(now);
  if (from === to) return false;
  return from < to ? hour >= from && hour < to : hour >= from || hour < to;
}
