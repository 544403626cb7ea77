/**
 * Public short links (`GET /s/<code>`, no token needed). A code names one document: the kind
 * letter, the id in base 36 and a short hash, so codes are stable per id and not guessable by
 * incrementing a number.
 */

import { createHash } from 'node:crypto';
import type { SandboxState } from './state.js';

export type LinkKind = 'invoice' | 'statement' | 'partner-statement' | 'certificate';

const LETTER: Record<LinkKind, string> = {
  invoice: 'i',
  statement: 's',
  'partner-statement': 'p',
  certificate: 'c',
};

function signature(kind: LinkKind, id: number): string {
  return createHash('sha256').update(`sandbox-link:${kind}:${id}`).digest('base64url').slice(0, 6);
}

export function linkCode(kind: LinkKind, id: number): string {
  return `${LETTER[kind]}${id.toString(36)}${signature(kind, id)}`;
}

/** The short link of a document under `linkBase` (no trailing slash). */
export function shortLink(linkBase: string, kind: LinkKind, id: number): string {
  return `${linkBase}/s/${linkCode(kind, id)}`;
}

function parseCode(code: string): { kind: LinkKind; id: number } | undefined {
  const match = /^([ispc])([0-9a-z]+)([A-Za-z0-9_-]{6})$/.exec(code);
  if (!match) return undefined;
  const kind = (Object.keys(LETTER) as LinkKind[]).find((k) => LETTER[k] === match[1]);
  const id = Number.parseInt(match[2] ?? '', 36);
  if (kind === undefined || !Number.isSafeInteger(id) || signature(kind, id) !== match[3]) return undefined;
  return { kind, id };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(title: string, lines: string[]): string {
  const items = lines.map((line) => `    <p>${escapeHtml(line)}</p>`).join('\n');
  return [
    '<!doctype html>',
    '<html lang="ru">',
    `  <head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '  <body>',
    `    <h1>${escapeHtml(title)}</h1>`,
    items,
    '    <p><small>Песочница партнёрского API: документ не имеет юридической силы.</small></p>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/** The HTML page behind a short link, or undefined for an unknown code. */
export function renderLink(code: string, state: SandboxState): string | undefined {
  const parsed = parseCode(code);
  if (parsed === undefined) return undefined;
  const currency = (id: number) => state.currencies.find((c) => c.currency_id === id)?.currency_code ?? '';
  switch (parsed.kind) {
    case 'invoice': {
      const invoice = state.invoices.find((i) => i.invoice_id === parsed.id);
      if (!invoice) return undefined;
      return page(`Счёт на оплату № ${invoice.invoice_number}`, [
        `Счёт ${invoice.invoice_id} к заказу ${invoice.order_id}`,
        `Сумма: ${invoice.amount.toFixed(2)} ${currency(invoice.currency_id)}`,
        `Выставлен: ${invoice.creation_date}, оплатить до: ${invoice.expiration_date}`,
        `Состояние: ${invoice.state}`,
      ]);
    }
    case 'statement': {
      const statement = state.statements.find((s) => s.statement_id === parsed.id);
      if (!statement) return undefined;
      return page(`Акт № ${statement.statement_number}`, [
        `Акт ${statement.statement_id} к заказу ${statement.order_id}`,
        `Период: ${statement.from_date} — ${statement.to_date}`,
        `Сумма: ${statement.amount.toFixed(2)} ${currency(statement.currency_id)}`,
      ]);
    }
    case 'partner-statement': {
      const statement = state.partnerStatements.find((s) => s.partner_statement_id === parsed.id);
      if (!statement) return undefined;
      return page(`Отчёт партнёра № ${statement.partner_statement_number}`, [
        `Отчёт ${statement.partner_statement_id}`,
        `Период: ${statement.from_date} — ${statement.to_date}`,
      ]);
    }
    case 'certificate': {
      const order = state.orders.find((o) => o.order_id === parsed.id);
      if (order?.details.kind !== 'domain') return undefined;
      return page(`Свидетельство о регистрации домена ${order.details.domain}`, [
        `Заказ ${order.order_id} (№ ${order.number})`,
        `Домен: ${order.details.domain}`,
        `Дата заказа: ${order.order_datetime}`,
      ]);
    }
  }
}
