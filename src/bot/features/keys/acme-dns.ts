import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { ACME_LABEL } from '../../../core/robot-keys.js';
import type { AcmeDnsAccount, ChallengeRefusal, RegisterResult } from '../../../services/robot-challenges.js';
import type { RobotKey } from '../../../storage/robot-keys.js';
import { copyTextButton } from '../../kit/bot-api-today.js';
import type { Translate } from '../../kit/i18n.js';

/**
 * acme-dns registration as the keys feature sees it (the challenges service's `registerAcmeDns`):
 * the `_acme-challenge` CNAME made in the partner's zone and the account JSON, or why not.
 */
export interface AcmeDnsPort {
  register(key: RobotKey, secret: string): Promise<RegisterResult>;
}

/** Which client a certificate key is made for: httpreq (lego, acme.sh, certbot) or acme-dns. */
export const CERT_CLIENTS = ['httpreq', 'acmeDns'] as const;
export type CertClient = (typeof CERT_CLIENTS)[number];

/** The name of the Secret the cert-manager lines create (and the solver refers to). */
const SECRET_NAME = 'partner-bot-acme-dns';

/**
 * The words of each refusal (i18n keys under `keys:acmeDnsRefused`). The ones a chat-made
 * registration cannot meet (a value, a scope) read as the provider's failure: try again.
 */
const REFUSAL_WORDS = {
  occupied: 'occupied',
  delegated: 'delegated',
  disconnected: 'disconnected',
  refused: 'refused',
  provider: 'provider',
  scope: 'provider',
  value: 'provider',
  tooMany: 'provider',
  notRegistered: 'provider',
} as const satisfies Record<ChallengeRefusal, string>;

/** Why the registration was refused, and what to do, in the chat's words (HTML). */
export function describeAcmeDnsRefusal(
  t: Translate,
  key: RobotKey,
  refusal: ChallengeRefusal,
  standing: readonly string[] = [],
): string {
  return t(`keys:acmeDnsRefused.${REFUSAL_WORDS[refusal]}`, {
    name: escapeHtml(toUnicodeDomain(`${ACME_LABEL}.${key.scope}`)),
    types: escapeHtml(standing.join(', ') || 'TXT'),
    domain: escapeHtml(toUnicodeDomain(key.domain)),
  });
}

/**
 * The acme-dns part of a key's one secret message: what stands in the zone now, the account JSON
 * (copied with a button when it fits Telegram's copy limit), and the cert-manager lines.
 */
export function renderAcmeDnsAccount(
  t: Translate,
  key: RobotKey,
  registered: { account: AcmeDnsAccount; created: boolean },
  /** Where robots reach the bot (GATEWAY_URL, or the placeholder). */
  gatewayUrl: string,
) {
  const { account, created } = registered;
  const json = JSON.stringify(account);
  const base = gatewayUrl.replace(/\/+$/, '');
  const secret = `kubectl -n cert-manager create secret generic ${SECRET_NAME} --from-file=acmedns.json`;
  const solver = [
    '- dns01:',
    '    acmeDNS:',
    `      host: ${base}`,
    '      accountSecretRef:',
    `        name: ${SECRET_NAME}`,
    '        key: acmedns.json',
  ].join('\n');
  const lines = [
    t(created ? 'keys:acmeDnsMade' : 'keys:acmeDnsStands', {
      name: escapeHtml(toUnicodeDomain(`${ACME_LABEL}.${key.scope}`)),
      target: escapeHtml(toUnicodeDomain(account.fulldomain)),
    }),
    '',
    t('keys:acmeDnsJson'),
    `<pre>${escapeHtml(json)}</pre>`,
    '',
    t('keys:acmeDnsCertManager', { domain: escapeHtml(key.scope) }),
    `<pre>${escapeHtml(secret)}</pre>`,
    t('keys:acmeDnsSolver'),
    `<pre>${escapeHtml(solver)}</pre>`,
  ];
  const copies = [copyTextButton(t('keys:copyAcmeDnsJson'), json)].filter((b) => b !== undefined);
  return { lines, copies };
}
