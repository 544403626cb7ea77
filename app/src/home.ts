/*
 * The home: what the app opens on when no screen is named. Three blocks asked at once and each
 * filled as it answers — «Сейчас к оплате» (totals per currency, the latest unpaid invoices, each
 * opening «Счета» at it), «Истекают домены» (each with «Продлить»), «Последние изменения DNS» —
 * each showing its own failure without hiding the others, and only those the role may see. Below
 * them, the ways into the app's screens the role may use; once, the offer to add the app to the
 * home screen.
 */
import type { AppScreen } from '../../src/core/mini-app-launch.js';
import type { DnsChangeEntry, ExpiringDomain, Owed, Session } from '../../src/mini-app/contract.js';
import { type AppApi, failureText } from './api.js';
import { el } from './dom.js';
import { addToHome, homeScreenStatus } from './telegram.js';
import { type Words, withLabel } from './words.js';

/** Where the home leads: a screen, with what it opens at. */
export interface Going {
  invoiceId?: number;
  domain?: string;
  /** A domain whose renewal the order form was opened for. */
  renew?: string;
}

export interface HomeScreen {
  api: AppApi;
  words: Words;
  session: Session;
  header: HTMLElement;
  show(...nodes: Node[]): void;
  go(screen: AppScreen, at?: Going): void;
}

/** A block: its heading, its body (loading first), filled or told its failure when the call ends. */
function block<T>(
  words: Words,
  name: string,
  title: string,
  load: Promise<T>,
  fill: (answer: T) => Node[],
): HTMLElement {
  const body = el(
    'div',
    { class: 'block-body', 'aria-busy': 'true' },
    el('p', { class: 'quiet' }, words.loading),
  );
  load
    .then(
      (answer) => body.replaceChildren(...fill(answer)),
      (error: unknown) =>
        body.replaceChildren(
          el('p', { class: 'error', role: 'alert' }, `${words.failed}: ${failureText(words, error)}`),
        ),
    )
    .finally(() => body.setAttribute('aria-busy', 'false'));
  return el(
    'section',
    { class: 'block', 'data-block': name, 'aria-labelledby': `${name}-title` },
    el('h2', { id: `${name}-title` }, title),
    body,
  );
}

function button(
  text: string,
  onClick: () => void,
  attributes: Record<string, string> = {},
): HTMLButtonElement {
  const b = el('button', { type: 'button', ...attributes }, text);
  b.addEventListener('click', onClick);
  return b;
}

function owedView(screen: HomeScreen, owed: Owed): Node[] {
  const { words } = screen;
  if (owed.invoices.length === 0 && owed.totals.length === 0) return [el('p', {}, words.owedNone)];
  const totals = el(
    'ul',
    { class: 'totals' },
    ...owed.totals.map((total) =>
      el(
        'li',
        {},
        el('strong', {}, total.amount.text),
        ' ',
        el('span', { class: 'quiet' }, withLabel(words.owedCount, String(total.count))),
      ),
    ),
  );
  const invoices = el(
    'ul',
    { class: 'rows' },
    ...owed.invoices.map((invoice) =>
      el(
        'li',
        { 'data-invoice-id': String(invoice.id) },
        button(
          // An overdue one says so (the chat's words): still owed, but a new invoice is needed.
          [
            invoice.number,
            invoice.amount.text,
            invoice.domain ?? invoice.what ?? '',
            invoice.status === 'expired' ? invoice.statusText : '',
          ]
            .filter(Boolean)
            .join(' · '),
          () => screen.go('invoices', { invoiceId: invoice.id }),
          { class: 'row-link' },
        ),
      ),
    ),
  );
  return [totals, invoices];
}

function expiringView(screen: HomeScreen, domains: ExpiringDomain[]): Node[] {
  const { words, session } = screen;
  if (domains.length === 0) return [el('p', {}, words.expiringNone)];
  const mayOrder = session.customers === 'edit';
  return [
    el(
      'ul',
      { class: 'rows' },
      ...domains.map((d) =>
        el(
          'li',
          { class: 'row', 'data-domain': d.domain, ...(d.daysLeft < 0 ? { 'data-expired': '' } : {}) },
          el(
            'span',
            { class: 'what' },
            el('strong', {}, d.domainUnicode),
            ' ',
            el('span', { class: d.daysLeft < 0 ? 'error' : 'quiet' }, d.whenText),
          ),
          ...(mayOrder
            ? [
                button(words.renew, () => screen.go('order', { renew: d.domainUnicode }), {
                  class: 'secondary',
                  'aria-label': withLabel(words.renewOf, d.domainUnicode),
                }),
              ]
            : []),
        ),
      ),
    ),
  ];
}

function changesView(screen: HomeScreen, changes: DnsChangeEntry[]): Node[] {
  const { words, session } = screen;
  if (changes.length === 0) return [el('p', {}, words.changesNone)];
  const mayOpen = session.dns !== 'none';
  return [
    el(
      'ul',
      { class: 'rows changes' },
      ...changes.map((c) =>
        el(
          'li',
          { 'data-domain': c.domain },
          mayOpen
            ? button(c.domainUnicode, () => screen.go('dns', { domain: c.domain }), { class: 'link' })
            : el('strong', {}, c.domainUnicode),
          ' ',
          el('span', { class: 'quiet' }, `${c.atText} · ${c.by}`),
          el('div', { class: 'change' }, c.text),
        ),
      ),
    ),
  ];
}

/** The ways into the screens, those the role may use. */
function sectionsNav(screen: HomeScreen): HTMLElement {
  const { words, session } = screen;
  const ways: [string, AppScreen, boolean][] = [
    [words.toInvoices, 'invoices', session.capabilities.includes('billing')],
    [words.toZone, 'dns', session.dns !== 'none'],
    [words.toOrder, 'order', session.customers === 'edit'],
    [words.toCustomers, 'customers', session.customers === 'edit'],
  ];
  return el(
    'nav',
    { class: 'sections', 'aria-label': words.sections },
    ...ways
      .filter(([, , may]) => may)
      .map(([text, to]) => button(text, () => screen.go(to), { 'data-go': to })),
  );
}

const OFFERED_KEY = 'partnerBot.homeScreenOffered';

const remembered = (): boolean => {
  try {
    return localStorage.getItem(OFFERED_KEY) !== null;
  } catch {
    return true;
  }
};

const remember = (how: 'added' | 'dismissed') => {
  try {
    localStorage.setItem(OFFERED_KEY, how);
  } catch {
    // Not kept: offered again next time, no harm.
  }
};

/** The one-time offer to put the app on the home screen, when Telegram says it is not there. */
function homeScreenOffer(words: Words): HTMLElement {
  const bar = el('div', { class: 'offer', 'data-offer': 'home-screen', hidden: '' });
  if (remembered()) return bar;
  void homeScreenStatus().then((status) => {
    if (status !== 'missed' || remembered()) return;
    const add = button(words.addToHome, () => {
      if (addToHome()) remember('added');
      bar.remove();
    });
    const dismiss = button('×', () => {
      remember('dismissed');
      bar.remove();
    });
    dismiss.setAttribute('aria-label', words.dismissAddToHome);
    dismiss.className = 'secondary';
    bar.replaceChildren(add, dismiss);
    bar.hidden = false;
  });
  return bar;
}

/** Draws the home at once (skeleton), each block filled as its call answers. */
export function showHome(screen: HomeScreen): void {
  const { api, words, session } = screen;
  const may = (capability: Session['capabilities'][number]) => session.capabilities.includes(capability);
  const blocks: HTMLElement[] = [];
  if (may('billing')) {
    blocks.push(block(words, 'owed', words.owedTitle, api.get('home/owed', {}), (a) => owedView(screen, a)));
  }
  if (may('lookup')) {
    blocks.push(
      block(words, 'expiring', words.expiringTitle, api.get('home/expiring', {}), (a) =>
        expiringView(screen, a.domains),
      ),
      block(words, 'changes', words.changesTitle, api.get('home/changes', {}), (a) =>
        changesView(screen, a.changes),
      ),
    );
  }
  screen.show(
    screen.header,
    homeScreenOffer(words),
    el('h1', { class: 'visually-hidden' }, words.homeTitle),
    sectionsNav(screen),
    ...blocks,
  );
}
