/**
 * Domain operations: availability check, ownership certificate link, name servers and DNS
 * records of a domain order. Records and name servers really change; `record_id`s increase.
 */

import { isIPv6 } from 'node:net';
import { forbidden, messages, notFound } from './api-errors.js';
import type { RouteContext } from './context.js';
import { checkDomain, isHostName } from './domain-rules.js';
import { shortLink } from './links.js';
import type { DnsRecord, DnsType, NameServer, Order, OrderDetails } from './state.js';
import {
  bodyObject,
  type IntegerSchema,
  pathInteger,
  requiredString,
  type Schema,
  type StringSchema,
  validate,
  validateBody,
} from './validation.js';

/** Most domains one check request may carry. */
export const MAX_DOMAINS_PER_CHECK = 100;

export function checkDomains(ctx: RouteContext): object {
  const body = bodyObject(ctx.body);
  validateBody(body, {
    domains: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_DOMAINS_PER_CHECK,
      items: { type: 'string', allowEmpty: true },
    },
  });
  const domains = body.domains as string[];
  return { results: domains.map((domain) => checkDomain(domain, ctx.state)) };
}

type DomainDetails = Extract<OrderDetails, { kind: 'domain' }>;

/** The domain order of the `orderId` path parameter: 400 not an integer, 404 unknown or not a domain, 403 foreign. */
function domainOrder(ctx: RouteContext): { order: Order; details: DomainDetails } {
  const id = pathInteger(ctx.params.orderId ?? '', 'orderId');
  const order = ctx.state.orders.find((o) => o.order_id === id);
  if (!order) throw notFound();
  if (order.owner !== 'self') throw forbidden();
  if (order.details.kind !== 'domain') throw notFound();
  return { order, details: order.details };
}

export function certificateUrl(ctx: RouteContext): object {
  const { order } = domainOrder(ctx);
  return { url: shortLink(ctx.linkBase, 'certificate', order.order_id) };
}

export function getNameServers(ctx: RouteContext): object {
  const { details } = domainOrder(ctx);
  return { servers: details.servers.map((s) => ({ ns: s.ns, ip: s.ip })) };
}

export function deleteNameServers(ctx: RouteContext): undefined {
  domainOrder(ctx).details.servers = [];
  return undefined;
}

export function setHostingNameServers(ctx: RouteContext): undefined {
  domainOrder(ctx).details.servers = ctx.state.hostingServers.map((s) => ({ ...s }));
  return undefined;
}

export function setEditorNameServers(ctx: RouteContext): undefined {
  domainOrder(ctx).details.servers = ctx.state.editorServers.map((s) => ({ ...s }));
  return undefined;
}

function isIPv4(value: string): boolean {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  return match?.slice(1).every((octet) => Number(octet) <= 255) ?? false;
}

const serverName: StringSchema = {
  type: 'string',
  check: (value, field) =>
    isHostName(value.replace(/\.$/, '').toLowerCase())
      ? undefined
      : messages.invalidFormat(field, 'ожидается имя сервера'),
};

const serverIp: StringSchema = {
  type: 'string',
  optional: true,
  check: (value, field) =>
    isIPv4(value) || isIPv6(value)
      ? undefined
      : messages.invalidFormat(field, 'ожидается IPv4- или IPv6-адрес'),
};

export function setCustomNameServers(ctx: RouteContext): undefined {
  const { details } = domainOrder(ctx);
  const body = bodyObject(ctx.body);
  validateBody(body, {
    servers: {
      type: 'array',
      minItems: 1,
      maxItems: 13,
      items: { type: 'object', fields: { ns: serverName, ip: serverIp } },
    },
  });
  const servers = body.servers as Array<{ ns: string; ip?: string | null }>;
  details.servers = servers.map(
    (s): NameServer => ({ ns: s.ns, ip: typeof s.ip === 'string' && s.ip.trim() !== '' ? s.ip : null }),
  );
  return undefined;
}

export function listRecords(ctx: RouteContext): object {
  const { details } = domainOrder(ctx);
  return {
    records: details.records.map((r) => ({
      record_id: r.record_id,
      type: r.type,
      ttl: r.ttl,
      value: r.value,
    })),
  };
}

// ---- adding and deleting records ----------------------------------------------------------

const noSpaces: StringSchema = {
  type: 'string',
  check: (value, field) =>
    /\s/.test(value) ? messages.invalidFormat(field, 'значение не должно содержать пробелов') : undefined,
};

const ttl: IntegerSchema = { type: 'integer', min: 1, max: 2_147_483_647 };
const uint16: IntegerSchema = { type: 'integer', min: 0, max: 65_535 };

const ipv4: StringSchema = {
  type: 'string',
  check: (value, field) =>
    isIPv4(value) ? undefined : messages.invalidFormat(field, 'ожидается IPv4-адрес вида x.x.x.x'),
};

const ipv6: StringSchema = {
  type: 'string',
  check: (value, field) =>
    isIPv6(value) ? undefined : messages.invalidFormat(field, 'ожидается IPv6-адрес'),
};

interface RecordKind {
  type: DnsType;
  fields: Record<string, Schema>;
  /** The rdata part of the listed value. */
  rdata: (body: Record<string, unknown>) => string;
}

const s = (value: unknown): string => String(value);

const RECORD_KINDS: Record<string, RecordKind> = {
  ns: { type: 'NS', fields: { ttl, host: noSpaces, ns: noSpaces }, rdata: (b) => s(b.ns) },
  a: { type: 'A', fields: { ttl, host: noSpaces, ipv4 }, rdata: (b) => s(b.ipv4) },
  aaaa: { type: 'AAAA', fields: { ttl, host: noSpaces, ipv6 }, rdata: (b) => s(b.ipv6) },
  cname: {
    type: 'CNAME',
    fields: { ttl, host: noSpaces, canonical: noSpaces },
    rdata: (b) => s(b.canonical),
  },
  mx: {
    type: 'MX',
    fields: { ttl, host: noSpaces, mail_server: noSpaces, priority: uint16 },
    rdata: (b) => `${s(b.priority)} ${s(b.mail_server)}`,
  },
  txt: { type: 'TXT', fields: { ttl, host: noSpaces, text: requiredString }, rdata: (b) => s(b.text) },
  srv: {
    type: 'SRV',
    fields: {
      ttl,
      host: noSpaces,
      service: noSpaces,
      protocol: noSpaces,
      target: noSpaces,
      port: uint16,
      priority: uint16,
      weight: uint16,
    },
    rdata: (b) => [b.service, b.protocol, b.priority, b.weight, b.port, b.target].map(s).join(' '),
  },
};

/** The record kind of the `kind` path parameter (routing guarantees a known one). */
function recordKind(ctx: RouteContext): RecordKind {
  const kind = RECORD_KINDS[ctx.params.kind ?? ''];
  if (!kind) throw notFound();
  return kind;
}

export const RECORD_KIND_NAMES = Object.keys(RECORD_KINDS);

export function addRecord(ctx: RouteContext): undefined {
  const kind = recordKind(ctx);
  const { details } = domainOrder(ctx);
  const body = bodyObject(ctx.body);
  validate(body, { type: 'object', fields: kind.fields }, '');
  const record: DnsRecord = {
    record_id: ctx.state.nextIds.record++,
    type: kind.type,
    ttl: body.ttl as number,
    value: `${s(body.host)} ${kind.rdata(body)}`,
  };
  details.records.push(record);
  return undefined;
}

export function deleteRecord(ctx: RouteContext): undefined {
  const kind = recordKind(ctx);
  const { details } = domainOrder(ctx);
  const id = pathInteger(ctx.params.id ?? '', 'id');
  const index = details.records.findIndex((r) => r.record_id === id && r.type === kind.type);
  if (index < 0) throw notFound();
  details.records.splice(index, 1);
  return undefined;
}
