/**
 * The partners of one sandbox: each partner's world (its token and its data), which world a
 * request's token opens, the one clock they share, and which ids are another partner's (403).
 */

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ControlError, controlId } from './control.js';
import { sharePartners } from './domain-rules.js';
import { digest, headerValues, TOKEN_HEADERS } from './http-io.js';
import { createPartnerSeed, createSeed } from './seed.js';
import type { SandboxState } from './state.js';

/** One more partner of the sandbox (`SandboxOptions.partners`). */
export interface PartnerOptions {
  /** Default: a random token. Must differ from every other partner's. */
  token?: string;
  /** Its data to start from (a kept snapshot); default its fresh seed (`createPartnerSeed(n)`). */
  state?: SandboxState;
}

/** One partner's world inside the server. */
export interface World {
  n: number;
  token: string;
  digest: Buffer;
  state: SandboxState;
}

/** Every partner's world of one sandbox, and the lookups the server routes by. */
export interface PartnerWorlds {
  /** The first partner first. */
  worlds: World[];
  first: World;
  /** The partner whose token the request carries, if any. */
  worldOf(req: IncomingMessage): World | undefined;
  worldOfToken(value: string): World | undefined;
  /** The partner a control call names with `?partner=n` (default the first). */
  controlWorld(query: URLSearchParams): World;
  /** One clock for everyone: the first partner's offset (moved by the clock call) wins. */
  syncClock(): void;
  /**
   * 403 for a per-order or link call on an id of another partner of this sandbox, as for the
   * seed's foreign orders (a partner never learns more about the other's ids than "not yours").
   */
  ownedByAnother(world: World, route: string, params: Record<string, string>): boolean;
  /** What the DNS server answers from: every partner's domain orders, live. */
  dnsView(): SandboxState;
}

/** The worlds of the first partner (`firstPartner`) and of partners 2, 3, … (`more`, in order). */
export function createPartnerWorlds(
  firstPartner: PartnerOptions,
  more: readonly PartnerOptions[] = [],
): PartnerWorlds {
  const newToken = (): string => randomBytes(24).toString('base64url');
  const worlds: World[] = [
    { n: 1, token: firstPartner.token ?? newToken(), state: firstPartner.state ?? createSeed() },
    ...more.map((partner, index) => ({
      n: index + 2,
      token: partner.token ?? newToken(),
      state: partner.state ?? createPartnerSeed(index + 2),
    })),
  ].map((world) => ({ ...world, digest: digest(world.token) }));
  if (new Set(worlds.map((world) => world.token)).size !== worlds.length) {
    throw new Error('every sandbox partner needs a token of its own');
  }
  const first = worlds[0] as World;
  const state = first.state;
  const syncClock = (): void => {
    for (const world of worlds) {
      if (world === first) continue;
      if (state.clockOffsetMs === undefined) delete world.state.clockOffsetMs;
      else world.state.clockOffsetMs = state.clockOffsetMs;
    }
  };
  syncClock();
  sharePartners(worlds.map((world) => world.state));

  const worldOfToken = (value: string): World | undefined => {
    const sent = digest(value);
    // Compares with every partner's, so the time taken does not tell which one matched.
    let found: World | undefined;
    for (const world of worlds) if (timingSafeEqual(sent, world.digest)) found ??= world;
    return found;
  };
  const worldOf = (req: IncomingMessage): World | undefined => {
    for (const name of TOKEN_HEADERS) {
      for (const value of headerValues(req, name)) {
        const world = worldOfToken(value);
        if (world) return world;
      }
    }
    return undefined;
  };
  const worldNumbered = (n: number): World => {
    const world = worlds.find((w) => w.n === n);
    if (!world) throw new ControlError(404, `partner ${n} not found`);
    return world;
  };
  const controlWorld = (query: URLSearchParams): World => {
    const named = query.get('partner');
    return named === null ? first : worldNumbered(controlId(named, 'partner'));
  };

  const ownedByAnother = (world: World, route: string, params: Record<string, string>): boolean => {
    const id = (value: string | undefined): number | undefined =>
      value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : undefined;
    const others = worlds.filter((w) => w !== world).map((w) => w.state);
    const orderId = id(params.orderId);
    if (orderId !== undefined) {
      return (
        !world.state.orders.some((o) => o.order_id === orderId) &&
        others.some((s) => s.orders.some((o) => o.order_id === orderId && o.owner === 'self'))
      );
    }
    const docId = id(params.id);
    if (docId === undefined) return false;
    if (route === '/v1/billing/invoices/:id/url') {
      return (
        !world.state.invoices.some((i) => i.invoice_id === docId) &&
        others.some((s) => s.invoices.some((i) => i.invoice_id === docId && i.owner === 'self'))
      );
    }
    if (route === '/v1/billing/statements/:id/url') {
      return (
        !world.state.statements.some((x) => x.statement_id === docId) &&
        others.some((s) => s.statements.some((x) => x.statement_id === docId && x.owner === 'self'))
      );
    }
    if (route === '/v1/billing/partner-statements/:id/url') {
      return (
        !world.state.partnerStatements.some((x) => x.partner_statement_id === docId) &&
        others.some((s) => s.partnerStatements.some((x) => x.partner_statement_id === docId))
      );
    }
    return false;
  };

  const dnsView = (): SandboxState =>
    worlds.length === 1
      ? state
      : {
          ...state,
          orders: worlds.flatMap((world) => world.state.orders),
          // The zones' serial moves when any partner adds a record.
          nextIds: {
            ...state.nextIds,
            record: worlds.reduce((sum, world) => sum + world.state.nextIds.record, 0),
          },
        };

  return {
    worlds,
    first,
    worldOf,
    worldOfToken,
    controlWorld,
    syncClock,
    ownedByAnother,
    dnsView,
  };
}
