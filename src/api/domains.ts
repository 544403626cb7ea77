import { type Caller, callGet, checkRequest, fillPath, type HttpMethod } from './http.js';
import { urlResponse } from './schemas/common.js';
import {
  customNameServersRequest,
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

    async listNameServers(orderId: number) {
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
