import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml, formatInstant } from '../../../core/format.js';
import { ACME_LABEL, KEY_LIMITS, type KeyKind, type KeyUseAction } from '../../../core/robot-keys.js';
import { cutGraphemes, joinLinesWithin } from '../../../core/text.js';
import type { RegisterResult } from '../../../services/robot-challenges.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { IssuedKey, RobotKey } from '../../../storage/robot-keys.js';
import { copyTextButton, styled } from '../../kit/bot-api-today.js';
import type { Translate } from '../../kit/i18n.js';
import { encodeCallback } from '../../registry.js';
import { describeAcmeDnsRefusal, renderAcmeDnsAccount } from './acme-dns.js';

/** The words of a key's last use in `keys:use.*` (locale keys are camelCase: `911` has a name). */
const USE_WORDS = {
  good: 'good',
  nochg: 'nochg',
  badauth: 'badauth',
  nohost: 'nohost',
  notfqdn: 'notfqdn',
  numhost: 'numhost',
  abuse: 'abuse',
  dnserr: 'dnserr',
  '911': 'unreachable',
  present: 'present',
  cleanup: 'cleanup',
  update: 'update',
} as const satisfies Record<KeyUseAction, string>;

/** How much of a key's name its buttons show (two buttons to a row on a phone). */
const BUTTON_NAME = 14;

/** What a key changes, in words: «адрес хоста office.client.by». */
export function describeScope(t: Translate, kind: KeyKind, scope: string): string {
  return t(`keys:scope.${kind}`, { name: escapeHtml(toUnicodeDomain(scope)) });
}

/** One key of the list: its name, what it changes, its networks, who made it, its last use. */
function renderKey(t: Translate, locale: Locale, key: RobotKey, n: number): string {
  const lines = [
    t('keys:listName', { n, icon: t(`keys:icon.${key.kind}`), name: escapeHtml(key.name) }),
    `${describeScope(t, key.kind, key.scope)} · ${
      key.networks.length === 0
        ? t('keys:networksAny')
        : t('keys:networks', { list: escapeHtml(key.networks.join(', ')) })
    }`,
    t('keys:madeBy', {
      who: escapeHtml(key.createdBy.name || t('keys:someone')),
      when: formatInstant(key.createdAt, locale),
    }),
    key.lastUse
      ? t('keys:lastUse', {
          when: formatInstant(key.lastUse.at, locale),
          from: escapeHtml(key.lastUse.from),
          what: t(`keys:use.${USE_WORDS[key.lastUse.action]}`, { detail: escapeHtml(key.lastUse.detail) }),
        })
      : t('keys:neverUsed'),
  ];
  return lines.join('\n');
}

/** `/keys`: the chat's keys, each with 🔄 and 🗑, and ➕ while the chat may make another. */
export function renderKeyList(
  t: Translate,
  locale: Locale,
  keys: readonly RobotKey[],
): { text: string; keyboard: InlineKeyboardButton[][] } {
  const newRow =
    keys.length < KEY_LIMITS.perChat
      ? [[Markup.button.callback(t('keys:newButton'), encodeCallback('keyNew'))]]
      : [];
  if (keys.length === 0) return { text: t('keys:empty'), keyboard: newRow };
  const text = joinLinesWithin(
    [
      t('keys:title', { count: keys.length }),
      ...keys.map((key, index) => `\n${renderKey(t, locale, key, index + 1)}`),
      ...(keys.length >= KEY_LIMITS.perChat
        ? [`\n${t('keys:limitReached', { count: KEY_LIMITS.perChat })}`]
        : []),
    ],
    4000,
  );
  const rows = keys.map((key) => {
    const name = cutGraphemes(key.name, BUTTON_NAME);
    return [
      Markup.button.callback(t('keys:rotateButton', { name }), encodeCallback('keyRotate', key.id)),
      styled(
        Markup.button.callback(t('keys:revokeButton', { name }), encodeCallback('keyRevoke', key.id)),
        'danger',
      ),
    ];
  });
  return { text, keyboard: [...rows, ...newRow] };
}

/** Where robots reach the bot, and whether it is only a placeholder the operator has yet to set. */
export interface GatewayAddress {
  /** An origin, `https://bot.example.by`; a placeholder when `known` is false. */
  url: string;
  known: boolean;
}

/** The gateway address for the configs: the configured one, else a placeholder in the chat's words. */
export function gatewayAddress(t: Translate, url: string | undefined): GatewayAddress {
  return url === undefined ? { url: t('keys:placeholderUrl'), known: false } : { url, known: true };
}

/**
 * A ready config for one client: its lines (plain), and what its copy button copies — the lines
 * with the secret (a certificate client's command beside them can be long for Telegram's copy).
 */
interface ClientConfig {
  id: 'ddclient' | 'router' | 'lego' | 'acmesh';
  text: string;
  copy: string;
}

/** The configs of the usual clients of a key's kind, with its login and password filled in. */
export function clientConfigs(key: RobotKey, secret: string, gateway: GatewayAddress): ClientConfig[] {
  const base = gateway.url.replace(/\/+$/, '');
  if (key.kind === 'address') {
    const host = base.replace(/^https?:\/\//, '');
    const tls = !base.startsWith('http://');
    const ddclient = [
      'protocol=dyndns2',
      `ssl=${tls ? 'yes' : 'no'}`,
      `server=${host}`,
      // Where ddclient reads the address it reports; the partner names the router's own interface.
      'use=if, if=eth0',
      `login=${key.id}`,
      `password='${secret}'`,
      key.scope,
    ].join('\n');
    const router = `${tls ? 'https' : 'http'}://${key.id}:${secret}@${host}/nic/update?hostname=${key.scope}&myip=<ipaddr>`;
    return [
      { id: 'ddclient', text: ddclient, copy: ddclient },
      { id: 'router', text: router, copy: router },
    ];
  }
  const domains = `-d '${key.scope}' -d '*.${key.scope}'`;
  const lego = [`HTTPREQ_ENDPOINT=${base}`, `HTTPREQ_USERNAME=${key.id}`, `HTTPREQ_PASSWORD=${secret}`].join(
    '\n',
  );
  const acmesh = [
    `export ACMEPROXY_ENDPOINT=${base}`,
    `export ACMEPROXY_USERNAME=${key.id}`,
    `export ACMEPROXY_PASSWORD=${secret}`,
  ].join('\n');
  return [
    // lego keeps its ACME account under an email address and will not run without one.
    { id: 'lego', text: `${lego}\nlego --email admin@${key.scope} --dns httpreq ${domains} run`, copy: lego },
    { id: 'acmesh', text: `${acmesh}\nacme.sh --issue --dns dns_acmeproxy ${domains}`, copy: acmesh },
  ];
}

/**
 * The one message that shows a key's secret (made or rotated): login and password with copy
 * buttons, the clients' configs (or, with an acme-dns account, its JSON and the cert-manager
 * lines), and a button to delete the message once it is saved.
 */
export function renderSecret(
  t: Translate,
  issued: IssuedKey,
  options: {
    rotated: boolean;
    gateway: GatewayAddress;
    group?: string | undefined;
    /** The key's acme-dns registration just made (or refused) with this secret. */
    acmeDns?: RegisterResult | undefined;
  },
): { text: string; keyboard: InlineKeyboardButton[][] } {
  const { key, secret } = issued;
  const registered = options.acmeDns?.ok ? options.acmeDns : undefined;
  const acmeDns = registered && renderAcmeDnsAccount(t, key, registered, options.gateway.url);
  const configs = acmeDns ? [] : clientConfigs(key, secret, options.gateway);
  // A rotated key whose account could not be given again: httpreq still works; the reason is said.
  const refusal =
    options.acmeDns && !options.acmeDns.ok
      ? [
          '',
          t('keys:acmeDnsNotGiven', {
            why: describeAcmeDnsRefusal(t, key, options.acmeDns.refusal, options.acmeDns.standing),
          }),
        ]
      : [];
  const lines = [
    t(options.rotated ? 'keys:secretRotated' : 'keys:secretMade', { name: escapeHtml(key.name) }),
    ...(options.group ? [t('keys:secretOfGroup', { group: escapeHtml(options.group) })] : []),
    t('keys:changes', { what: describeScope(t, key.kind, key.scope) }),
    '',
    t('keys:login', { login: key.id }),
    t('keys:password', { password: escapeHtml(secret) }),
    ...configs.flatMap((config) => [
      '',
      t(`keys:config.${config.id}`),
      `<pre>${escapeHtml(config.text)}</pre>`,
    ]),
    ...(acmeDns ? ['', ...acmeDns.lines] : []),
    ...refusal,
    ...(key.kind === 'certificate' && !acmeDns
      ? ['', t('keys:certificateNote', { label: ACME_LABEL, domain: escapeHtml(toUnicodeDomain(key.scope)) })]
      : []),
    ...(options.gateway.known
      ? []
      : ['', t('keys:placeholderNote', { url: escapeHtml(options.gateway.url) })]),
    '',
    t('keys:secretOnce'),
  ];
  const copies = [
    copyTextButton(t('keys:copyLogin'), key.id),
    copyTextButton(t('keys:copyPassword'), secret),
    ...configs.map((config) => copyTextButton(t(`keys:copy.${config.id}`), config.copy)),
    ...(acmeDns?.copies ?? []),
  ].filter((button) => button !== undefined);
  // Two copy buttons to a row: «📋 Логин | 📋 Пароль», then the configs.
  const pairs: InlineKeyboardButton[][] = [];
  for (let index = 0; index < copies.length; index += 2) pairs.push(copies.slice(index, index + 2));
  const keyboard = [
    ...pairs,
    [styled(Markup.button.callback(t('keys:hideButton'), encodeCallback('keyHide')), 'danger')],
  ];
  return { text: lines.join('\n'), keyboard };
}
