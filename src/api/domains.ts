import { toAsciiHostName } from '../core/dns-host-names.js';
import type { DnsRecordData } from '../core/dns-records.js';
import { type Caller, callGet, checkRequest, fillPath, type HttpMethod } from './http.js';
import { urlResponse } from './schemas/common.js';
import {
  customNameServersRequest,
  DNS_RECORD_KINDS,
  type DnsRecordInput,
  type DnsRecordKind,
  dnsRecordInput,
  dnsRecordKind,
  dnsRecordsResponse,
  domainCheckRequest,
  domainCheckResponse,
  type NameServerInput,
  nameServersResponse,
} from './schemas/domains.js';

/** A name as the provider gets it: punycode, no trailing dot (the API asks for "full domain"). */
function apiName(name: string): string {
  const ascii = toAsciiHostName(name);
  return ascii.length > 1 && ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
}

/**
 * The add-record call's input for a record: lower-case kind plus the body fields of
 * partner-api.md, typed by the request schema (a renamed body field fails the type check).
 * Unicode hosts and targets go out in punycode and targets lose their trailing dot; everything
 * else is sent as the record holds it.
 */
export function toDnsRecordBody(record: DnsRecordData): DnsRecordInput {
  const base = { ttl: record.ttl, host: toAsciiHostName(record.host) };
  switch (record.type) {
    case 'A':
      return { kind: 'a', ...base, ipv4: record.ipv4 };
    case 'AAAA':
      return { kind: 'aaaa', ...base, ipv6: record.ipv6 };
    case 'CNAME':
      return { kind: 'cname', ...base, canonical: apiName(record.canonical) };
    case 'NS':
      return { kind: 'ns', ...base, ns: apiName(record.ns) };
    case 'MX':
      return { kind: 'mx', ...base, mail_server: apiName(record.mail_server), priority: record.priority };
    case 'TXT':
      return { kind: 'txt', ...base, text: record.text };
    case 'SRV':
      return {
        kind: 'srv',
        ...base,
        service: record.service,
        protocol: record.protocol,
        target: apiName(record.target),
        port: record.port,
        priority: record.priority,
        weight: record.weight,
      };
  }
}

/** The kind path segment of a listed record's type, or undefined for a type the API cannot delete. */
export function dnsRecordKindOf(type: string): DnsRecordKind | undefined {
  const lower = type.trim().toLowerCase();
  return DNS_RECORD_KINDS.find((kind) => kind === lower);
}

/** Domain checks, the ownership certificate, name servers and DNS records of a domain order. */
export function createDomainsApi(call: Caller) {
  const orderPath = (operation: string, method: HttpMethod, template: string, orderId: number) =>
    fillPath({ operation, method }, template, { orderId });

  /** Operations that answer 200 without a body. */
  const send = async (operation: string, method: HttpMethod, path: string, body?: unknown) => {
    await call({ operation, method, path, body, response: undefined });
  };

  return {
    async checkDomains(domains: string[]) {
      const info = { operation: 'checkDomains', method: 'POST', path: '/v1/domains/check' } as const;
      const body = checkRequest(info, domainCheckRequest, { domains });
      return (await call({ ...info, body, response: domainCheckResponse })).results;
    },

    async getDomainCertificateUrl(orderId: number) {
      const path = orderPath('getDomainCertificateUrl', 'GET', '/v1/domains/{orderId}/certificate', orderId);
      return (await callGet(call, 'getDomainCertificateUrl', path, urlResponse)).url;
    },

    /**
     * The domain's name servers. The cached client keeps them per order until the bot changes them
     * (`fresh` asks the provider all the same: a screen that shows them, or a check before a change).
     */
    async listNameServers(orderId: number, _query: { fresh?: boolean } = {}) {
      const path = orderPath('listNameServers', 'GET', '/v1/domains/{orderId}/dns/servers', orderId);
      return (await callGet(call, 'listNameServers', path, nameServersResponse)).servers;
    },

    async deleteNameServers(orderId: number) {
      const path = orderPath('deleteNameServers', 'DELETE', '/v1/domains/{orderId}/dns/servers', orderId);
      return send('deleteNameServers', 'DELETE', path);
    },

    async setHostingNameServers(orderId: number) {
      const path = orderPath(
        'setHostingNameServers',
        'PUT',
        '/v1/domains/{orderId}/dns/servers/hosting',
        orderId,
      );
      return send('setHostingNameServers', 'PUT', path);
    },

    async setEditorNameServers(orderId: number) {
      const path = orderPath(
        'setEditorNameServers',
        'PUT',
        '/v1/domains/{orderId}/dns/servers/editor',
        orderId,
      );
      return send('setEditorNameServers', 'PUT', path);
    },

    async setCustomNameServers(orderId: number, servers: NameServerInput[]) {
      const operation = 'setCustomNameServers';
      const path = orderPath(operation, 'PUT', '/v1/domains/{orderId}/dns/servers/custom', orderId);
      const body = checkRequest({ operation, method: 'PUT', path }, customNameServersRequest, { servers });
      return send(operation, 'PUT', path, body);
    },

    async listDnsRecords(orderId: number) {
      const path = orderPath('listDnsRecords', 'GET', '/v1/domains/{orderId}/dns/records', orderId);
      return (await callGet(call, 'listDnsRecords', path, dnsRecordsResponse)).records;
    },

    /** Adds one record; the provider answers without its id (read it from `listDnsRecords`). */
    async addDnsRecord(orderId: number, record: DnsRecordInput) {
      const operation = 'addDnsRecord';
      const template = '/v1/domains/{orderId}/dns/records/{kind}';
      const { kind, ...body } = checkRequest(
        { operation, method: 'POST', path: template },
        dnsRecordInput,
        record,
      );
      const path = fillPath({ operation, method: 'POST' }, template, { orderId, kind });
      return send(operation, 'POST', path, body);
    },

    /** Deletes a record; `kind` is the lower-cased `type` of the listed record. */
    async deleteDnsRecord(orderId: number, kind: DnsRecordKind, recordId: number) {
      const operation = 'deleteDnsRecord';
      const template = '/v1/domains/{orderId}/dns/records/{kind}/{id}';
      const checkedKind = checkRequest({ operation, method: 'DELETE', path: template }, dnsRecordKind, kind);
      const path = fillPath({ operation, method: 'DELETE' }, template, {
        orderId,
        kind: checkedKind,
        id: recordId,
      });
      return send(operation, 'DELETE', path);
    },
  };
}

export type DomainsApi = ReturnType<typeof createDomainsApi>;
