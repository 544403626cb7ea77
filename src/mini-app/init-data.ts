/*
 * The Mini App's launch data, checked: every API call carries the `initData` string Telegram gave
 * the app (as `Authorization: tma <initData>`), signed with HMAC-SHA256 under a key made from the
 * bot token. The check is @tma.js/init-data-node's; nothing here computes a hash. What the browser
 * reads as `initDataUnsafe` never reaches the server and is never trusted.
 */
import {
  AuthDateInvalidError,
  ExpiredError,
  parse,
  SignatureInvalidError,
  SignatureMissingError,
  validate,
} from '@tma.js/init-data-node';

/** The user Telegram vouched for, as initData names them. */
export interface LaunchUser {
  id: number;
  firstName: string;
  languageCode: string | undefined;
}

/** What a checked initData says: who opened the app, from where, and when Telegram signed it. */
export interface LaunchData {
  userId: number;
  user: LaunchUser;
  /** The `startapp` parameter of the link or button that opened the app. */
  startParam: string | undefined;
  authDate: Date;
}

/**
 * Why initData was refused (each answered 401):
 * - `missing`: no `Authorization: tma …` header;
 * - `malformed`: not initData (no hash, no readable auth_date, fields of the wrong shape);
 * - `badSignature`: the hash does not match — forged, changed, or signed for another bot;
 * - `expired`: signed longer ago than the limit (MINI_APP_INIT_DATA_MAX_AGE_S);
 * - `noUser`: signed, but names no user (a launch the app cannot act for).
 */
export type InitDataRefusal = 'missing' | 'malformed' | 'badSignature' | 'expired' | 'noUser';

export type InitDataCheck = { ok: true; launch: LaunchData } | { ok: false; reason: InitDataRefusal };

/** The initData of an `Authorization: tma <initData>` header; undefined for any other header. */
export function initDataOfHeader(header: string | undefined): string | undefined {
  const match = /^tma (.+)$/s.exec(header ?? '');
  return match?.[1];
}

/** Checks the signature and the age of `raw`, then reads it. */
export function checkInitData(
  raw: string | undefined,
  botToken: string,
  options: { maxAgeS: number },
): InitDataCheck {
  if (raw === undefined || raw.trim() === '') return { ok: false, reason: 'missing' };
  try {
    validate(raw, botToken, { expiresIn: options.maxAgeS });
  } catch (error) {
    return { ok: false, reason: refusalOf(error) };
  }
  let data: ReturnType<typeof parse>;
  try {
    data = parse(raw);
  } catch {
    // Signed by the bot's key, yet not initData's shape: only a test or a bug makes one.
    return { ok: false, reason: 'malformed' };
  }
  const user = data.user;
  if (user === undefined || !Number.isSafeInteger(user.id) || user.id <= 0)
    return { ok: false, reason: 'noUser' };
  return {
    ok: true,
    launch: {
      userId: user.id,
      user: { id: user.id, firstName: user.first_name, languageCode: user.language_code },
      startParam: data.start_param === '' ? undefined : data.start_param,
      authDate: data.auth_date,
    },
  };
}

function refusalOf(error: unknown): InitDataRefusal {
  if (SignatureInvalidError.is(error)) return 'badSignature';
  if (ExpiredError.is(error)) return 'expired';
  if (SignatureMissingError.is(error) || AuthDateInvalidError.is(error)) return 'malformed';
  // A hash of the wrong length or any other complaint of the library: not initData we accept.
  return 'malformed';
}
