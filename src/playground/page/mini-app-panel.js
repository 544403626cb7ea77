// The bot's Mini App in a panel over the chat, as Telegram's web client opens it: a `web_app` button
// or a link to t.me/<bot>/<short name> asks the server for the launch (signed there, as Telegram's
// servers sign it), and the panel loads it in an iframe with a header (✕, and «Назад» when the app
// shows its back button) and a footer (the app's main and secondary buttons). The app and the panel
// speak Telegram's web bridge: the app posts `{eventType, eventData}` as JSON to its parent; the
// panel takes messages from its iframe's window only and answers the same way, to the app's origin
// only. Haptic feedback the app asks for is recorded on the dialog as `data-haptics`
// ("notification:error impact:light"…).
//
// What Mini Apps 8.0 asks of the client, as Telegram's clients answer: shareMessage (a dialog
// offers the user's chats of the types the bot allowed; the picked one gets the card "via @bot"),
// downloadFile («Скачать файл …?», then the browser saves it), the home screen (checked and added,
// remembered per bot in localStorage); and the bot's menu button by the input, which opens the app
// with no screen named.

import { showError } from './notices.js';
import { $, chatName, sender, state, words } from './state.js';
import { call } from './transport.js';

/** The open launch: the iframe, the app's origin (answers go there only) and what the app set. */
let open;

/** Whether a `url` button's link is the bot's own Mini App (t.me/<bot>/<short name>). */
export function isMiniAppLink(link) {
  const shortName = state.info.miniApp?.shortName;
  if (!shortName) return false;
  let url;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  const [username, name, ...rest] = url.pathname.split('/').filter((part) => part !== '');
  return (
    url.protocol === 'https:' &&
    url.hostname === 't.me' &&
    rest.length === 0 &&
    username?.toLowerCase() === state.info.bot.username.toLowerCase() &&
    name?.toLowerCase() === shortName.toLowerCase()
  );
}

/** A tap on a Mini App button: `kind` is the button's (`web_app` or `url`), `url` its address. */
export async function openMiniApp(kind, url) {
  try {
    const userId = sender();
    const launch = await call('launch', {
      chatId: state.chatId,
      userId,
      url,
      kind,
      lang: state.lang,
    });
    show(launch, userId);
  } catch (error) {
    showError(error);
  }
}

function show(launch, userId) {
  const opener = open?.opener ?? document.activeElement;
  closePanel();
  const panel = $('mini-app');
  const frame = document.createElement('iframe');
  frame.id = 'mini-app-frame';
  frame.title = words().miniApp;
  // Scripts and its own origin (for its API calls): the app runs on the bot's port, another
  // origin than this page's, so it cannot reach into the page.
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups');
  frame.setAttribute('allow', 'clipboard-write');
  frame.src = launch.url;
  open = {
    frame,
    origin: new URL(launch.url).origin,
    theme: launch.theme,
    // Who opened it: a prepared message is theirs to send.
    userId,
    // Focus goes back to the button that opened the app when the panel closes.
    opener,
    needConfirmation: false,
    haptics: [],
    // Telegram tells the app when its viewport changes; before the app has loaded there is no one
    // to tell (the frame still holds about:blank, of this page's origin).
    loaded: false,
    resize: new ResizeObserver(() => {
      if (open?.loaded) sendViewport();
    }),
  };
  frame.addEventListener('load', () => {
    if (open?.frame === frame) open.loaded = true;
  });
  $('mini-app-title').textContent = state.info.bot.first_name || words().miniApp;
  panel.dataset.haptics = '';
  $('mini-app-body').replaceChildren(frame);
  setBackButton({ is_visible: false });
  setupButton($('mini-app-main'), { is_visible: false });
  setupButton($('mini-app-secondary'), { is_visible: false });
  panel.hidden = false;
  open.resize.observe(frame);
  $('mini-app-close').focus();
}

/** Closes the panel at once (✕ confirmed, or the app's web_app_close): the app is unloaded. */
function closePanel() {
  if (!open) return;
  const { opener } = open;
  open.resize.disconnect();
  open.frame.remove();
  open = undefined;
  $('mini-app').hidden = true;
  $('mini-app-popup').hidden = true;
  $('mini-app-confirm').hidden = true;
  closeAsk(undefined);
  if (opener?.isConnected) opener.focus();
}

/** ✕: asks first when the app said it has something to lose (web_app_setup_closing_behavior). */
function requestClose() {
  if (!open) return;
  if (!open.needConfirmation) {
    closePanel();
    return;
  }
  $('mini-app-confirm').hidden = false;
  $('mini-app-confirm-stay').focus();
}

/** An event to the app, as Telegram's web client sends it. */
function post(eventType, eventData) {
  open?.frame.contentWindow?.postMessage(JSON.stringify({ eventType, eventData }), open.origin);
}

function sendViewport() {
  if (!open) return;
  post('viewport_changed', {
    height: open.frame.clientHeight,
    width: open.frame.clientWidth,
    is_expanded: true,
    is_state_stable: true,
  });
}

const ZERO_INSETS = { top: 0, bottom: 0, left: 0, right: 0 };

function setBackButton(params) {
  $('mini-app-back').hidden = params?.is_visible !== true;
}

/** The main or secondary button as the app set it: text, colours, enabled, progress, shown. */
function setupButton(button, params) {
  const text = typeof params?.text === 'string' ? params.text.trim() : '';
  button.hidden = params?.is_visible !== true || text === '';
  button.textContent = text;
  button.disabled = params?.is_active === false;
  button.style.backgroundColor = params?.color ?? '';
  button.style.color = params?.text_color ?? '';
  button.classList.toggle('shine', params?.has_shine_effect === true);
  if (params?.is_progress_visible === true) button.setAttribute('aria-busy', 'true');
  else button.removeAttribute('aria-busy');
}

function recordHaptic(params) {
  const detail =
    params?.type === 'impact'
      ? params.impact_style
      : params?.type === 'notification'
        ? params.notification_type
        : undefined;
  open.haptics.push(detail ? `${params.type}:${detail}` : String(params?.type));
  $('mini-app').dataset.haptics = open.haptics.join(' ');
}

/** web_app_open_popup: a small dialog with the app's buttons; the one pressed is told back. */
function showPopup(params) {
  const popup = $('mini-app-popup');
  if (!popup.hidden) return;
  const title = typeof params?.title === 'string' ? params.title : '';
  $('mini-app-popup-title').textContent = title;
  $('mini-app-popup-title').hidden = title === '';
  $('mini-app-popup-text').textContent = params?.message ?? '';
  popup.setAttribute('aria-labelledby', title === '' ? 'mini-app-popup-text' : 'mini-app-popup-title');
  const buttons = (
    Array.isArray(params?.buttons) && params.buttons.length > 0 ? params.buttons : [{ id: '', type: 'close' }]
  ).map((spec) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent =
      spec.type === 'ok'
        ? 'OK'
        : spec.type === 'close'
          ? words().close
          : spec.type === 'cancel'
            ? words().cancel
            : String(spec.text ?? '');
    if (spec.type === 'destructive') button.dataset.style = 'danger';
    button.addEventListener('click', () => closePopup(String(spec.id ?? '')));
    return button;
  });
  $('mini-app-popup-buttons').replaceChildren(...buttons);
  popup.hidden = false;
  buttons[0].focus();
}

/** The popup closed: by a button (its id), or by Escape (no id), as Telegram tells the app. */
function closePopup(buttonId) {
  $('mini-app-popup').hidden = true;
  post('popup_closed', buttonId === undefined ? {} : { button_id: buttonId });
}

/** The open question of the panel (share, download, home screen): its answer's resolver. */
let asking;

/**
 * A question of the client's own over the app: `choices` are its buttons ({label, value, style});
 * resolves with the value chosen, or undefined for «Отмена» or Escape. A list (`stacked`) has one
 * choice a line, as a chat picker.
 */
function ask(text, choices, { stacked = false } = {}) {
  closeAsk(undefined);
  $('mini-app-ask-text').textContent = text;
  const buttons = [...choices, { label: words().cancel, value: undefined }].map((choice) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = choice.label;
    if (choice.style) button.dataset.style = choice.style;
    button.addEventListener('click', () => closeAsk(choice.value));
    return button;
  });
  $('mini-app-ask-buttons').replaceChildren(...buttons);
  $('mini-app-ask-buttons').classList.toggle('stacked', stacked);
  $('mini-app-ask').hidden = false;
  buttons[0].focus();
  return new Promise((resolve) => {
    asking = resolve;
  });
}

function closeAsk(value) {
  const resolve = asking;
  asking = undefined;
  $('mini-app-ask').hidden = true;
  resolve?.(value);
}

/** Which of the bot's allow_* flags a chat of the page needs, for this user. */
function preparedKind(c, userId) {
  if (c.kind === 'group') return 'group';
  return c.id === userId ? 'bot' : 'user';
}

/**
 * web_app_send_prepared_message: the user's chats the bot allowed, to pick one; the card is posted
 * there by the server (as an inline result picked there), then the app is told.
 */
async function sendPreparedMessage(params) {
  const launch = open;
  const id = typeof params?.id === 'string' ? params.id : '';
  const fail = (error) => {
    if (open === launch) post('prepared_message_failed', { error });
  };
  let allowed;
  try {
    ({ allowed } = await call('prepared', { id, userId: launch.userId }));
  } catch (error) {
    fail(error instanceof Error && /^[A-Z_]+$/.test(error.message) ? error.message : 'UNKNOWN_ERROR');
    return;
  }
  const chats = state.info.chats.filter(
    (c) => c.members.includes(launch.userId) && allowed[preparedKind(c, launch.userId)],
  );
  const chatId = await ask(
    words().shareTo,
    chats.map((c) => ({ label: `${c.kind === 'group' ? '👥' : '👤'} ${chatName(c)}`, value: c.id })),
    { stacked: true },
  );
  if (chatId === undefined) {
    fail('USER_DECLINED');
    return;
  }
  try {
    await call('sendPrepared', { id, userId: launch.userId, chatId });
  } catch (error) {
    fail(error instanceof Error && /^[A-Z_]+$/.test(error.message) ? error.message : 'MESSAGE_SEND_FAILED');
    return;
  }
  if (open === launch) post('prepared_message_sent');
}

/**
 * web_app_request_file_download: asked first; yes → the browser saves the file under the app's
 * name for it (fetched and saved from a blob; an address that does not allow this page to read it
 * is loaded in a hidden frame, where its `attachment` header saves it).
 */
async function requestFileDownload(params) {
  const launch = open;
  const url = typeof params?.url === 'string' ? params.url : '';
  const fileName = typeof params?.file_name === 'string' ? params.file_name : '';
  const yes = await ask(words().downloadAsk(fileName), [{ label: words().download, value: true }]);
  if (open === launch) post('file_download_requested', { status: yes ? 'downloading' : 'cancelled' });
  if (yes) await saveFile(url, fileName).catch(showError);
}

async function saveFile(url, fileName) {
  if (!/^https?:\/\//.test(url)) throw new Error(`not a file address: ${url}`);
  let blob;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${url}`);
    blob = await response.blob();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // Not readable from this page (another origin without CORS): the browser saves it itself.
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.src = url;
    document.body.append(frame);
    setTimeout(() => frame.remove(), 60_000);
    return;
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** Whether the user added this bot's app to the home screen, as the page remembers it. */
const homeScreenKey = () => `playground-home-screen:${state.info.bot.username}`;

async function addToHomeScreen() {
  const launch = open;
  const yes = await ask(words().homeAsk(state.info.bot.first_name), [
    { label: words().homeAdd, value: true },
  ]);
  if (yes) localStorage.setItem(homeScreenKey(), 'added');
  if (open === launch) post(yes ? 'home_screen_added' : 'home_screen_failed');
}

/** The bot's menu button by the input (MenuButtonWebApp), in the bot's private chat. */
export function drawMenuButton() {
  const button = $('menu-app');
  const menu = state.info.menuButtons?.[state.chatId];
  const shown = menu?.type === 'web_app' && state.info.miniApp !== null;
  button.hidden = !shown;
  button.textContent = shown ? menu.text : '';
}

/** What the panel does for each of the app's calls; any other is ignored, as a client would. */
const METHODS = {
  web_app_ready: () => {
    $('mini-app').dataset.appReady = 'true';
  },
  web_app_expand: () => sendViewport(),
  web_app_request_theme: () => post('theme_changed', { theme_params: open.theme }),
  web_app_request_viewport: () => sendViewport(),
  web_app_request_safe_area: () => post('safe_area_changed', ZERO_INSETS),
  web_app_request_content_safe_area: () => post('content_safe_area_changed', ZERO_INSETS),
  web_app_setup_main_button: (params) => setupButton($('mini-app-main'), params),
  web_app_setup_secondary_button: (params) => setupButton($('mini-app-secondary'), params),
  web_app_setup_back_button: (params) => setBackButton(params),
  web_app_setup_closing_behavior: (params) => {
    open.needConfirmation = params?.need_confirmation === true;
  },
  web_app_trigger_haptic_feedback: (params) => recordHaptic(params),
  web_app_open_popup: (params) => showPopup(params),
  web_app_open_link: (params) => {
    if (typeof params?.url === 'string' && /^https?:\/\//.test(params.url))
      window.open(params.url, '_blank', 'noopener');
  },
  web_app_close: () => closePanel(),
  web_app_send_prepared_message: (params) => sendPreparedMessage(params),
  web_app_request_file_download: (params) => requestFileDownload(params),
  web_app_check_home_screen: () =>
    post('home_screen_checked', {
      status: localStorage.getItem(homeScreenKey()) === 'added' ? 'added' : 'missed',
    }),
  web_app_add_to_home_screen: () => addToHomeScreen(),
};

function onMessage(event) {
  if (!open || event.source !== open.frame.contentWindow) return;
  let message = event.data;
  if (typeof message === 'string') {
    try {
      message = JSON.parse(message);
    } catch {
      return;
    }
  }
  const method = Object.hasOwn(METHODS, message?.eventType) ? METHODS[message.eventType] : undefined;
  let params = message.eventData;
  if (typeof params === 'string') {
    try {
      params = JSON.parse(params);
    } catch {
      params = undefined;
    }
  }
  method?.(params);
}

export function wireMiniApp() {
  window.addEventListener('message', onMessage);
  $('mini-app-close').addEventListener('click', requestClose);
  $('mini-app-back').addEventListener('click', () => post('back_button_pressed'));
  $('mini-app-main').addEventListener('click', () => post('main_button_pressed'));
  $('mini-app-secondary').addEventListener('click', () => post('secondary_button_pressed'));
  $('mini-app-confirm-close').addEventListener('click', closePanel);
  $('mini-app-confirm-stay').addEventListener('click', () => {
    $('mini-app-confirm').hidden = true;
  });
  $('mini-app-popup').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closePopup(undefined);
  });
  $('mini-app-ask').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeAsk(undefined);
  });
  // The menu button: the app with no screen named, signed for whoever taps it.
  $('menu-app').addEventListener('click', () => openMiniApp('menu', ''));
}
