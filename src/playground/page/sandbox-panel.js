// The provider's sandbox beside the chats: the token to paste, its clock, and the control buttons
// that do what a client or the provider would (pay, complete, renew, let days pass), for the bot's
// watchers to notice.

import { copy } from './notices.js';
import { $, state, words } from './state.js';
import { call } from './transport.js';

function describeItem(item) {
  const parts = [`№ ${item.number}`, item.domain ?? words().kinds[item.kind] ?? item.kind];
  if (item.amount !== undefined)
    parts.push(item.amount.toLocaleString(state.lang, { minimumFractionDigits: 2 }));
  return parts.join(' · ');
}

function fillSelect(select, items) {
  if (items.length === 0) {
    const none = document.createElement('option');
    none.value = '';
    none.textContent = words().none;
    select.replaceChildren(none);
    return;
  }
  const chosen = select.value;
  select.replaceChildren(
    ...items.map((item) => {
      const option = document.createElement('option');
      option.value = String(item.id);
      option.textContent = describeItem(item);
      return option;
    }),
  );
  if (items.some((item) => String(item.id) === chosen)) select.value = chosen;
}

export function drawSandbox() {
  const sandbox = state.info.sandbox;
  $('sandbox-token').textContent = sandbox.token;
  $('welcome-token').textContent = sandbox.token;
  // The second partner's token: another account to add in the same chat (/token again).
  const second = sandbox.secondToken ?? '';
  $('sandbox-token-2').textContent = second;
  $('welcome-token-2').textContent = second;
  $('second-token-line').hidden = second === '';
  $('welcome-second').hidden = second === '';
  $('sandbox-now').textContent = sandbox.now;
  fillSelect($('unpaid'), sandbox.unpaid);
  fillSelect($('pending'), sandbox.pending);
  fillSelect($('completed'), sandbox.completed);
  $('bot-description').textContent = state.info.descriptions[state.lang] || state.info.descriptions.ru || '';
}

/** A control call, its outcome in the panel, then `refresh`: its effect shows in the lists. */
async function control(refresh, action, body) {
  try {
    await call(action, body);
    $('sandbox-result').textContent = `${words().done}.`;
  } catch (error) {
    $('sandbox-result').textContent = `⚠ ${error.message}`;
  }
  await refresh();
}

/** `DD.MM.YYYY HH:MM` plus whole days. */
function laterBy(now, days) {
  const [date, time] = now.split(' ');
  const [d, m, y] = date.split('.').map(Number);
  const moved = new Date(Date.UTC(y, m - 1, d + days));
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(moved.getUTCDate())}.${pad(moved.getUTCMonth() + 1)}.${moved.getUTCFullYear()} ${time}`;
}

/** The panel folds: on a phone's width it starts folded, or it would take the chat's height. */
function wireFold() {
  const toggle = $('sandbox-toggle');
  const fold = (open) => {
    toggle.setAttribute('aria-expanded', String(open));
    $('sandbox-body').hidden = !open;
  };
  fold(!window.matchMedia('(max-width: 720px)').matches);
  toggle.addEventListener('click', () => fold(toggle.getAttribute('aria-expanded') !== 'true'));
}

/** `refresh` reloads the state and redraws: main.js owns it, as the server's events need it too. */
export function wireSandbox(refresh) {
  $('copy-token').addEventListener('click', () => copy(state.info.sandbox.token, $('copy-token')));
  $('copy-welcome-token').addEventListener('click', () =>
    copy(state.info.sandbox.token, $('copy-welcome-token')),
  );
  $('copy-token-2').addEventListener('click', () => copy(state.info.sandbox.secondToken, $('copy-token-2')));
  $('copy-welcome-token-2').addEventListener('click', () =>
    copy(state.info.sandbox.secondToken, $('copy-welcome-token-2')),
  );
  wireFold();
  const selected = (id) => Number($(id).value);
  $('pay').addEventListener(
    'click',
    () => $('unpaid').value && control(refresh, 'pay', { invoiceId: selected('unpaid') }),
  );
  $('complete').addEventListener(
    'click',
    () => $('pending').value && control(refresh, 'complete', { orderId: selected('pending') }),
  );
  $('renew').addEventListener(
    'click',
    () => $('completed').value && control(refresh, 'renew', { orderId: selected('completed') }),
  );
  $('day').addEventListener('click', () =>
    control(refresh, 'clock', { now: laterBy(state.info.sandbox.now, 1) }),
  );
  $('month').addEventListener('click', () =>
    control(refresh, 'clock', { now: laterBy(state.info.sandbox.now, 30) }),
  );
}
