/*
 * The Mini App's entry: reads the launch (tma.js), starts Telegram's bridge, and shows the screen
 * the bot's button opened (`?screen=` in a private chat's address, the signed start parameter's in
 * a group's), the home when none is named (home.ts: what is owed, expiring, changed, and the ways
 * into the other screens, which then offer «← Главная»), «Счета» (`invoices`, invoices.ts), the order form (`order`, the chat's /order), the saved customers (`customers`, a
 * role that may work with them — the chat's /requisites — else told who may), or the zone of
 * `?domain=` or a domain picker. A role that may
 * edit DNS gets the editor, one that may read it the table alone. Telegram's back button returns
 * from a zone to the picker, asking first while edits are pending.
 *
 * With several partner accounts in the chat, the header offers a switcher: the app opens on the
 * chat's active account; a choice asks the screen on show first (pending edits), names the
 * account in every later call and opens the screen again on it (the DNS screen at its picker).
 */
import { retrieveLaunchParams, retrieveRawInitData } from '@tma.js/sdk';
import type { AppScreen } from '../../src/core/mini-app-launch.js';
import type { Session } from '../../src/mini-app/contract.js';
import { guardLeaving, mayLeave, offerAccounts } from './account-switch.js';
import { type AppApi, createApi, failureText } from './api.js';
import { customerEditor } from './customer-editor.js';
import { showCustomers } from './customers.js';
import { el } from './dom.js';
import { zoneEditor } from './editor.js';
import { type Going, showHome } from './home.js';
import { showInvoices } from './invoices.js';
import { type CustomerEditing, orderForm } from './order-form.js';
import { type OrderWords, orderWordsFor } from './order-words.js';
import { closeApp, confirmClosing, setBackButton, startBridge } from './telegram.js';
import { type Lang, langOf, type Words, withLabel, wordsFor } from './words.js';
import { domainList, pickerView, readOnlyZone, sessionView } from './zone-view.js';

const root = document.getElementById('app') as HTMLElement;

/** The launch as tma.js reads it; undefined outside Telegram (a plain browser tab). */
function readLaunch(): { initData: string; languageCode: string | undefined } | undefined {
  try {
    const params = retrieveLaunchParams();
    const initData = retrieveRawInitData();
    if (!initData) return undefined;
    return { initData, languageCode: params.tgWebAppData?.user?.language_code };
  } catch {
    return undefined;
  }
}

/** The screen on show and how it was reached: from the home, its screens offer the way back. */
const on: { screen: AppScreen; fromHome: boolean; home?: HTMLButtonElement } = {
  screen: 'home',
  fromHome: false,
};

function show(...nodes: Node[]): void {
  const back = on.fromHome && on.screen !== 'home' ? on.home : undefined;
  root.replaceChildren(...(back === undefined ? nodes : [back, ...nodes]));
}

function failure(words: Words, error: unknown): HTMLElement {
  return el('p', { class: 'error', role: 'alert' }, `${words.failed}: ${failureText(words, error)}`);
}

async function showZone(api: AppApi, words: Words, session: Session, domain: string): Promise<void> {
  const header = sessionView(words, session);
  let leave: () => Promise<boolean> = async () => true;
  guardLeaving(() => leave());
  let leaving = false;
  setBackButton(async () => {
    if (leaving) return;
    leaving = true;
    if (await leave()) showPicker(api, words, session, domain);
    leaving = false;
  });
  show(header, el('p', { role: 'status' }, words.loading));
  try {
    const zone = await api.get('zone', { domain });
    if (session.dns === 'edit') {
      const editor = zoneEditor(api, words, zone);
      leave = editor.leave;
      show(header, editor.element);
    } else {
      show(header, readOnlyZone(words, zone, session.readOnlyReason));
    }
  } catch (error) {
    show(
      header,
      pickerView(words, domain, (next) => void showZone(api, words, session, next)),
      failure(words, error),
    );
  }
}

function showPicker(api: AppApi, words: Words, session: Session, value: string): void {
  setBackButton(undefined);
  guardLeaving(undefined);
  const open = (domain: string) => void showZone(api, words, session, domain);
  const domains = domainList(words, open);
  show(sessionView(words, session), pickerView(words, value, open), domains);
  // The session's account's domains, one tap each; the field takes any other.
  api.get('zone/domains', {}).then(
    (answer) => domains.fill(answer.domains),
    () => undefined,
  );
}

/**
 * The order form; a new customer, or one to complete, is entered in the customer editor in its
 * place, and Telegram's back button (or the page's) returns to the form.
 */
function showOrder(api: AppApi, words: Words, o: OrderWords, session: Session, renew?: string): void {
  const line = sessionView(words, session);
  // «Продлить» from the home: the form places new orders; the note says so and where to look.
  const header =
    renew === undefined
      ? line
      : el(
          'div',
          {},
          line,
          el('p', { class: 'note', role: 'note', 'data-renew': renew }, withLabel(words.renewNote, renew)),
        );
  const customers: CustomerEditing = {
    edit: (start) =>
      new Promise((resolve) => {
        let leaving = false;
        const back = async () => {
          if (leaving) return;
          leaving = true;
          if (await editor.leave()) {
            resolve(undefined);
            toForm();
          }
          leaving = false;
        };
        const editor = customerEditor({
          api,
          words,
          ...start,
          onDone: (saved) => {
            resolve(saved.id);
            toForm();
          },
        });
        setBackButton(() => void back());
        const backButton = el('button', { type: 'button', class: 'secondary' }, o.backToOrder);
        backButton.addEventListener('click', () => void back());
        show(header, backButton, editor.element);
      }),
  };
  const form = orderForm({ api, words, o, customers, onClose: closeApp });
  // Left for the home or another account: Confirm (Telegram's main button) goes with the form.
  guardLeaving(async () => {
    form.dispose();
    confirmClosing(false);
    return true;
  });
  const toForm = () => {
    setBackButton(undefined);
    show(header, form.element);
  };
  toForm();
}

async function start(): Promise<void> {
  const launch = readLaunch();
  const lang = langOf(launch?.languageCode ?? navigator.language);
  const words = wordsFor(lang);
  document.documentElement.lang = lang;
  if (!launch) {
    show(el('p', { class: 'error', role: 'alert' }, words.notInTelegram));
    return;
  }
  startBridge();
  const api = createApi(launch.initData, lang);
  show(el('p', { role: 'status' }, words.loading));
  let session: Session;
  try {
    session = await api.get('session', {});
  } catch (error) {
    show(failure(words, error));
    return;
  }
  // Every call names the session's account from now on (the chat's active one at first).
  api.useAccount(session.account.n);
  const asked = new URLSearchParams(location.search).get('screen') ?? session.screen;
  const screen = isScreen(asked) ? asked : 'home';
  const opened: Opened = { api, words, lang, session };
  on.home = el('button', { type: 'button', class: 'secondary home-link', 'data-go': 'home' }, words.toHome);
  on.home.addEventListener('click', () => void goHome(opened));
  // The switcher's list is asked alongside the first screen's calls, not before them.
  const switching = session.account.accounts > 1 ? offerSwitch(opened) : undefined;
  on.screen = screen;
  if (switching !== undefined && screen !== 'home') await switching;
  await SCREENS[screen](opened);
  if (switching !== undefined && screen === 'home') {
    await switching;
    // The home was drawn before the list came: its header gains the switcher (the blocks stay).
    if (on.screen === 'home')
      root.querySelector('.session, .session-bar')?.replaceWith(sessionView(words, opened.session));
  }
}

/** Opens `screen` from the home (at an invoice, a domain), which it then offers the way back to. */
function go(opened: Opened, screen: AppScreen, at: Going = {}): void {
  on.screen = screen;
  on.fromHome = true;
  void SCREENS[screen]({ ...opened, at });
}

async function goHome(opened: Opened): Promise<void> {
  if (!(await mayLeave())) return;
  setBackButton(undefined);
  guardLeaving(undefined);
  on.screen = 'home';
  await SCREENS.home(opened);
}

/** The header's switcher: the chat's accounts, each choice opening the screen on show again on it. */
async function offerSwitch(opened: Opened): Promise<void> {
  const { api, words } = opened;
  const list = await api.get('accounts', {}).catch(() => undefined);
  if (list === undefined) return;
  let switching = false;
  offerAccounts(list.accounts, async (n) => {
    if (switching || !(await mayLeave())) return;
    switching = true;
    const was = opened.session;
    api.useAccount(n);
    try {
      const session = await api.get('session', {});
      guardLeaving(undefined);
      // The address's domain (an invoice, a domain from the home) was the other account's: the
      // screen opens afresh, the DNS screen at its picker.
      opened.session = session;
      await SCREENS[on.screen]({ ...opened, switched: true });
    } catch (error) {
      opened.session = was;
      api.useAccount(was.account.n);
      root.prepend(failure(words, error));
    } finally {
      switching = false;
    }
  });
}

/** What a screen is opened with: the API, the user's words and language, the server's session. */
interface Opened {
  api: AppApi;
  words: Words;
  lang: Lang;
  session: Session;
  /** Opened again on another account (not by the bot's button). */
  switched?: boolean;
  /** Where the home sent it: an invoice, a domain, a renewal. */
  at?: Going;
}

/**
 * The screens a bot's button opens (core's APP_SCREENS: a screen core adds fails `tsc` here until
 * it is given one), each refusing a role that may not use it in the server's words.
 */
const SCREENS: Record<AppScreen, (opened: Opened) => Promise<void> | void> = {
  home: (opened) => {
    const { api, words, session } = opened;
    setBackButton(undefined);
    guardLeaving(undefined);
    showHome({
      api,
      words,
      session,
      header: sessionView(words, session),
      show,
      go: (screen, at) => go(opened, screen, at),
    });
  },
  invoices: (opened) => {
    const { api, words, session, at } = opened;
    guardLeaving(undefined);
    setBackButton(on.fromHome ? () => void goHome(opened) : undefined);
    showInvoices({
      api,
      words,
      session,
      header: sessionView(words, session),
      show,
      invoiceId: at?.invoiceId,
    });
  },
  dns: async ({ api, words, session, switched, at }) => {
    if (session.dns !== 'edit' && session.dns !== 'read') {
      show(sessionView(words, session), el('p', { role: 'alert' }, words.noDnsRole));
      return;
    }
    const domain =
      at?.domain ?? (switched ? '' : (new URLSearchParams(location.search).get('domain')?.trim() ?? ''));
    if (domain === '') showPicker(api, words, session, '');
    else await showZone(api, words, session, domain);
  },
  // Ordering is the chat's /order: the role that may keep saved customers may order.
  order: ({ api, words, lang, session, at }) => {
    const o = orderWordsFor(lang);
    if (session.customers !== 'edit') {
      show(sessionView(words, session), el('p', { role: 'alert' }, session.orderRefusal ?? o.noRole));
      return;
    }
    showOrder(api, words, o, session, at?.renew);
  },
  customers: async ({ api, words, session }) => {
    if (session.customers !== 'edit') {
      show(
        sessionView(words, session),
        el('p', { role: 'alert' }, session.customersRefusal ?? words.noCustomersRole),
      );
      return;
    }
    await showCustomers({ api, words, session, show });
  },
};

const isScreen = (name: string | undefined): name is AppScreen =>
  name !== undefined && Object.hasOwn(SCREENS, name);

void start();
