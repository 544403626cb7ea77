/*
 * One invoice of «Счета» (number, days, sum, status, what it is for, its payments, and its three
 * actions) and one statement (with «Сохранить»). The actions ask the server when tapped: the
 * link (billing/link) to open or copy, the prepared card (billing/share) to share, the signed
 * file address (billing/statement-file) to download.
 */
import type { InvoiceEntry, StatementEntry } from '../../src/mini-app/contract.js';
import { type AppApi, failureText } from './api.js';
import { el } from './dom.js';
import { canShare, haptic, openUrl, saveFile, shareCard } from './telegram.js';
import { type Words, withLabel } from './words.js';

export interface Acting {
  api: AppApi;
  words: Words;
  /** Tells what an action did (role status) or why it failed (role alert). */
  say(text: string, kind?: 'status' | 'alert'): void;
}

/** A button whose action runs once at a time (busy meanwhile); a failure is told in words. */
function action(acting: Acting, text: string, label: string, run: () => Promise<void>): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'secondary', 'aria-label': label }, text);
  b.addEventListener('click', async () => {
    if (b.disabled) return;
    b.disabled = true;
    b.setAttribute('aria-busy', 'true');
    // What the last action said goes: a declined share comes back quietly.
    acting.say('');
    try {
      await run();
    } catch (error) {
      haptic('error');
      acting.say(`${acting.words.failed}: ${failureText(acting.words, error)}`, 'alert');
    } finally {
      b.disabled = false;
      b.setAttribute('aria-busy', 'false');
    }
  });
  return b;
}

/** The link shown to copy by hand, when the clipboard is refused. */
function copyByHand(words: Words, url: string): HTMLElement {
  const input = el('input', { type: 'text', readonly: '', value: url, 'aria-label': words.invoiceLink });
  queueMicrotask(() => {
    input.focus();
    input.select();
  });
  return el('div', { class: 'copy-by-hand' }, el('p', { class: 'quiet' }, words.copyByHand), input);
}

export function invoiceView(acting: Acting, invoice: InvoiceEntry): HTMLElement {
  const { api, words, say } = acting;
  const link = async () => (await api.post('billing/link', { invoiceId: invoice.id })).url;
  const extra = el('div', {});
  const actions = el(
    'div',
    { class: 'actions' },
    action(acting, words.openInvoice, withLabel(words.openOf, invoice.number), async () => {
      openUrl(await link());
    }),
    action(acting, words.copyLink, withLabel(words.copyOf, invoice.number), async () => {
      const url = await link();
      try {
        await navigator.clipboard.writeText(url);
        haptic('success');
        say(words.copied);
      } catch {
        extra.replaceChildren(copyByHand(words, url));
      }
    }),
  );
  if (canShare()) {
    actions.append(
      action(acting, words.share, withLabel(words.shareOf, invoice.number), async () => {
        const prepared = await api.post('billing/share', { invoiceId: invoice.id });
        const outcome = await shareCard(prepared.id);
        if (outcome === 'sent') {
          haptic('success');
          say(words.shared);
        } else if (outcome === 'failed') {
          say(words.shareFailed, 'alert');
        }
      }),
    );
  }
  const about = [invoice.domain, invoice.what, invoice.customer].filter(
    (part) => part !== undefined && part !== '',
  );
  const payments =
    invoice.payments.length === 0
      ? []
      : [
          el(
            'div',
            { class: 'payments' },
            `${words.payments}: `,
            invoice.payments.map((p) => `${p.dateText} — ${p.amount.text}`).join('; '),
          ),
        ];
  return el(
    'li',
    { class: 'invoice', 'data-invoice-id': String(invoice.id), 'data-status': invoice.status },
    el(
      'div',
      { class: 'head' },
      el('strong', { class: 'number' }, invoice.number),
      el('span', { class: `status status-${invoice.status}` }, invoice.statusText),
    ),
    el('div', { class: 'sum' }, el('strong', {}, invoice.amount.text), ` · ${invoice.createdText}`),
    ...(about.length === 0 ? [] : [el('div', { class: 'about' }, about.join(' · '))]),
    ...payments,
    actions,
    extra,
  );
}

export function statementView(acting: Acting, statement: StatementEntry): HTMLElement {
  const { api, words, say } = acting;
  const about = [statement.periodText, statement.amount.text, statement.domain ?? ''].filter((p) => p !== '');
  return el(
    'li',
    { class: 'statement', 'data-statement-id': String(statement.id) },
    el('div', { class: 'head' }, el('strong', { class: 'number' }, statement.number)),
    el('div', { class: 'about' }, about.join(' · ')),
    el(
      'div',
      { class: 'actions' },
      action(acting, words.saveStatement, withLabel(words.saveOf, statement.number), async () => {
        const file = await api.post('billing/statement-file', { statementId: statement.id });
        if ((await saveFile(file.url, file.fileName)) === 'downloading') say(words.fileSaving);
      }),
    ),
  );
}
