/*
 * Telegram's side of the app through tma.js: theme, readiness, the back button, the main button,
 * haptics, the closing confirmation and popups. Every call is checked with `isAvailable()` and
 * kept from throwing: an old client, or a plain browser tab with launch data but no Telegram to
 * post to, still gets a working page (the in-page Apply button stands in for the main button).
 */
import {
  addToHomeScreen,
  backButton,
  checkHomeScreenStatus,
  closingBehavior,
  downloadFile,
  hapticFeedback,
  init,
  mainButton,
  miniApp,
  openLink,
  popup,
  setTargetOrigin,
  shareMessage,
  themeParams,
} from '@tma.js/sdk';

/** Runs a bridge call; false when the bridge refused it. */
function attempt(call: () => unknown): boolean {
  try {
    call();
    return true;
  } catch {
    return false;
  }
}

export function startBridge(): void {
  // Telegram Web frames the app from web.telegram.org, the playground from 127.0.0.1: the calls go
  // to whichever client framed it, as Telegram's own telegram-web-app.js posts them ('*'). They
  // carry method calls only (buttons, haptics); the launch's initData never travels this way.
  attempt(() => setTargetOrigin('*'));
  // Telegram's custom styles would be an inline <style>, which the page's CSP refuses.
  attempt(() => init({ acceptCustomStyles: false }));
  if (themeParams.mount.isAvailable() && attempt(() => themeParams.mount())) {
    if (themeParams.bindCssVars.isAvailable()) attempt(() => themeParams.bindCssVars());
  }
  if (backButton.mount.isAvailable()) attempt(() => backButton.mount());
  if (mainButton.mount.isAvailable()) attempt(() => mainButton.mount());
  if (closingBehavior.mount.isAvailable()) attempt(() => closingBehavior.mount());
  if (miniApp.ready.isAvailable()) attempt(() => miniApp.ready());
}

let offBack: VoidFunction | undefined;

/** Telegram's back button, calling `onBack`; hidden without one. */
export function setBackButton(onBack: (() => void) | undefined): void {
  offBack?.();
  offBack = undefined;
  if (!backButton.show.isAvailable()) return;
  if (onBack) {
    attempt(() => {
      offBack = backButton.onClick(onBack);
    });
    attempt(() => backButton.show());
  } else {
    attempt(() => backButton.hide());
  }
}

export function haptic(kind: 'error' | 'success' | 'selection'): void {
  if (kind === 'selection') {
    if (hapticFeedback.selectionChanged.isAvailable()) attempt(() => hapticFeedback.selectionChanged());
  } else if (hapticFeedback.notificationOccurred.isAvailable()) {
    attempt(() => hapticFeedback.notificationOccurred(kind));
  }
}

/** Closes the app (Telegram returns to the chat); a plain tab stays as it is. */
export function closeApp(): void {
  if (miniApp.close.isAvailable()) attempt(() => miniApp.close());
}

/** Telegram asks before closing the app while `on` (edits are pending). */
export function confirmClosing(on: boolean): void {
  if (on && closingBehavior.enableConfirmation.isAvailable()) {
    attempt(() => closingBehavior.enableConfirmation());
  } else if (!on && closingBehavior.disableConfirmation.isAvailable()) {
    attempt(() => closingBehavior.disableConfirmation());
  }
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A yes/cancel question: Telegram's popup (its limits: 256 characters, 64 a button), else the browser's. */
export async function ask(question: string, yes: string): Promise<boolean> {
  if (popup.show.isAvailable() && !popup.isOpened()) {
    try {
      const id = await popup.show({
        message: clip(question, 256),
        buttons: [{ id: 'yes', type: 'destructive', text: clip(yes, 64) }, { type: 'cancel' }],
      });
      return id === 'yes';
    } catch {
      // The bridge could not show it: the browser's dialog below.
    }
  }
  return window.confirm(question);
}

export interface ApplyState {
  visible: boolean;
  enabled: boolean;
  busy: boolean;
  text: string;
}

/**
 * The Apply control: Telegram's main button while the bridge takes its calls, else `fallback`, a
 * button in the page (a browser tab with launch data but no Telegram to post to). `probeText`
 * differs from the SDK's default text, so the first call really posts and a refusal shows at once.
 * `dispose` hides the main button and drops the listener.
 */
export function applyControl(fallback: HTMLButtonElement, probeText: string, onPress: () => void) {
  let offClick: VoidFunction | undefined;
  let usesMain =
    mainButton.setParams.isAvailable() &&
    mainButton.onClick.isAvailable() &&
    attempt(() => mainButton.setParams({ text: probeText, isVisible: false })) &&
    attempt(() => {
      offClick = mainButton.onClick(onPress);
    });
  const useFallback = () => {
    usesMain = false;
    offClick?.();
    offClick = undefined;
    fallback.addEventListener('click', onPress);
  };
  fallback.hidden = true;
  if (!usesMain) useFallback();
  return {
    set(state: ApplyState): void {
      const params = {
        text: state.text,
        isVisible: state.visible,
        isEnabled: state.enabled && !state.busy,
        isLoaderVisible: state.busy,
      };
      if (usesMain && !attempt(() => mainButton.setParams(params))) useFallback();
      if (usesMain) return;
      fallback.textContent = state.text;
      fallback.hidden = !state.visible;
      fallback.disabled = !params.isEnabled;
      fallback.setAttribute('aria-busy', String(state.busy));
    },
    dispose(): void {
      offClick?.();
      fallback.removeEventListener('click', onPress);
      if (usesMain) attempt(() => mainButton.setParams({ isVisible: false, isLoaderVisible: false }));
    },
  };
}

export type ApplyControl = ReturnType<typeof applyControl>;

/** Whether the bridge offers a call here (false, not a throw, outside Telegram). */
function available(call: { isAvailable(): boolean }): boolean {
  try {
    return call.isAvailable();
  } catch {
    return false;
  }
}

/** Opens a web address in the browser: Telegram's in-app one, else a new tab. */
export function openUrl(url: string): void {
  if (available(openLink) && attempt(() => openLink(url))) return;
  window.open(url, '_blank', 'noopener');
}

/** Whether this client can share a prepared message (Mini Apps 8.0): without it, no Share button. */
export const canShare = (): boolean => available(shareMessage);

/** Telegram's chat picker for a prepared message: sent, declined by the user, or failed. */
export async function shareCard(id: string): Promise<'sent' | 'declined' | 'failed'> {
  if (!canShare()) return 'failed';
  try {
    await shareMessage(id);
    return 'sent';
  } catch (error) {
    // Telegram's `prepared_message_failed {error: 'USER_DECLINED'}`, as tma.js's ShareMessageError
    // (by name: the bundle's class is not always the one thrown).
    const declined =
      error instanceof Error && error.name === 'ShareMessageError' && /DECLINED/i.test(error.message);
    return declined ? 'declined' : 'failed';
  }
}

/**
 * Telegram's download of a file (Mini Apps 8.0), asked of the user; an old client opens the
 * address in the browser instead (the server sends it as an attachment).
 */
export async function saveFile(
  url: string,
  fileName: string,
): Promise<'downloading' | 'cancelled' | 'opened'> {
  if (available(downloadFile)) {
    try {
      await downloadFile(url, fileName);
      return 'downloading';
    } catch {
      return 'cancelled';
    }
  }
  openUrl(url);
  return 'opened';
}

/** Whether the app is on the device's home screen ('missed': it can be added); undefined: not known. */
export async function homeScreenStatus(): Promise<string | undefined> {
  if (!available(checkHomeScreenStatus)) return undefined;
  try {
    return await checkHomeScreenStatus();
  } catch {
    return undefined;
  }
}

/** Asks Telegram to add the app to the home screen; false when the client cannot. */
export const addToHome = (): boolean => available(addToHomeScreen) && attempt(() => addToHomeScreen());
