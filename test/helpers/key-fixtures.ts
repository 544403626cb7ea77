/*
 * Robots' keys and the record they change, as the stories of every face make them: an address key
 * for `office.mysite.by`, a certificate key for `mysite.by` (the sandbox's order 1006), each with
 * overrides (another chat's domain, name or maker), and the A record `office 198.51.100.7` the
 * address stories start from.
 */
import { createPartnerApi, PartnerTransport } from '../../src/api/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { NewRobotKey } from '../../src/storage/robot-keys.js';

/** The sandbox's domain order the keys' zone is, and its domain. */
export const KEY_ORDER = 1006;
const KEY_DOMAIN = 'mysite.by';

/** An address key for `office.mysite.by` of `chatId`, with overrides. */
export function addressKey(chatId: number, over: Partial<NewRobotKey> = {}): NewRobotKey {
  return {
    chatId,
    kind: 'address',
    name: 'Роутер офиса',
    scope: `office.${KEY_DOMAIN}`,
    orderId: KEY_ORDER,
    domain: KEY_DOMAIN,
    networks: [],
    createdBy: { userId: chatId, name: 'P' },
    ...over,
  };
}

/** A certificate key for `mysite.by` of `chatId`, with overrides. */
export function certificateKey(chatId: number, over: Partial<NewRobotKey> = {}): NewRobotKey {
  return { ...addressKey(chatId), kind: 'certificate', name: 'Сертификат', scope: KEY_DOMAIN, ...over };
}

/** The address the seeded `office` A record has. */
export const OFFICE_ADDRESS = '198.51.100.7';

/** Adds `office A 198.51.100.7` (ttl 600) to the keys' zone in the sandbox. */
export async function seedOfficeRecord(sandbox: Sandbox): Promise<void> {
  const transport = new PartnerTransport({ baseUrl: sandbox.url, maxRetries: 0 });
  try {
    await createPartnerApi(transport, sandbox.token).addDnsRecord(KEY_ORDER, {
      kind: 'a',
      host: 'office',
      ttl: 600,
      ipv4: OFFICE_ADDRESS,
    });
  } finally {
    await transport.close();
  }
}
