import { Composer, Markup } from 'telegraf';
import { parseDomainList, toAsciiDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { MESSAGE_LIMIT } from '../../../core/paging.js';
import { joinLinesWithin } from '../../../core/text.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { inRows } from '../../kit/keyboards.js';
import { accountsHoldingDomains } from '../../kit/other-accounts.js';
import type { Feature } from '../../registry.js';
import { callbackFits, encodeCallback } from '../../registry.js';
import { CHECK_SCENE, createCheckScene } from './check-scene.js';
import { type CheckedDomain, formatInvalidNames, renderCheckReport } from './views.js';

/** How many names one /check takes; a batch of the check call carries at most `BATCH`. */
export const MAX_DOMAINS_PER_CHECK = 50;
const BATCH = 25;
/** Telegram's limit on an inline keyboard; every free name of a /check gets its button. */
const KEYBOARD_LIMIT = 100;

/** Each label of a name's Unicode form is letters, digits and hyphens: never an emoji or a symbol. */
const WORDLIKE_LABEL = /^[\p{L}\p{M}\p{N}-]+$/u;

/**
 * The names of a paste to ask about, and the pieces that are not domain names. A URL gives its
 * host (`https://www.shop.by/path` → `shop.by`: nobody registers `www.`); a name with an emoji or
 * a symbol in a label is not a domain name, whatever punycode makes of it.
 */
export function namesToCheck(text: string): { valid: string[]; invalid: string[] } {
  const parsed = parseDomainList(text);
  const invalid = [...parsed.invalid];
  const valid: string[] = [];
  const seen = new Set<string>();
  for (const name of parsed.valid) {
    const bare = /^www\.[^.]+\.[^.]/i.test(name) ? name.slice(4) : name;
    if (!bare.split('.').every((label) => WORDLIKE_LABEL.test(label))) {
      invalid.push(name);
      continue;
    }
    const key = toAsciiDomain(bare) ?? bare;
    if (seen.has(key)) continue;
    seen.add(key);
    valid.push(bare);
  }
  return { valid, invalid };
}

/** Checks pasted names and replies with the verdicts; every free one gets an Order button. */
export async function checkDomains(ctx: BotContext, text: string): Promise<void> {
  const { valid, invalid } = namesToCheck(text);
  if (valid.length === 0) {
    throw new UserInputError('domains:nothingToCheck', { names: formatInvalidNames(invalid) || '—' });
  }
  if (valid.length > MAX_DOMAINS_PER_CHECK) {
    throw new UserInputError('domains:tooMany', { max: MAX_DOMAINS_PER_CHECK, count: valid.length });
  }
  const api = await ctx.partnerApi();
  const byAscii = new Map<string, CheckedDomain>();
  for (const name of valid) byAscii.set(toAsciiDomain(name) ?? name, { name, result: undefined });
  const names = [...byAscii.keys()];
  for (let i = 0; i < names.length; i += BATCH) {
    // Names go out in ASCII (punycode): every registry takes that form; answers may use either.
    const results = await api.checkDomains(names.slice(i, i + BATCH));
    for (const result of results) {
      const entry = byAscii.get(toAsciiDomain(result.domain) ?? result.domain.toLowerCase());
      if (entry) entry.result = result;
    }
  }
  const checked = [...byAscii.values()];
  // In a chat of several accounts, a taken name that is one of them is said to be theirs, and which.
  const taken = [...byAscii.entries()].filter(([, c]) => c.result !== undefined && !c.result.is_available);
  const holders = await accountsHoldingDomains(
    ctx,
    taken.map(([ascii]) => ascii),
  );
  const ownLines = taken.flatMap(([ascii, c]) => {
    const label = holders.get(ascii);
    return label === undefined
      ? []
      : [ctx.t('accounts:checkOwn', { domain: escapeHtml(c.name), label: escapeHtml(label), ascii })];
  });
  // Whole lines only: a cut inside a line could split an HTML tag or an emoji.
  const report = joinLinesWithin(
    [
      ...renderCheckReport(ctx.t, checked, invalid).split('\n'),
      ...(ownLines.length > 0 ? ['', ...ownLines] : []),
    ],
    MESSAGE_LIMIT,
  );
  const orderable = [...byAscii.entries()]
    .filter(([ascii, c]) => c.result?.is_available && callbackFits('orderDomain', ascii))
    .slice(0, KEYBOARD_LIMIT)
    .map(([ascii, c]) =>
      Markup.button.callback(
        ctx.t('domains:orderButton', { domain: c.name }),
        encodeCallback('orderDomain', ascii),
      ),
    );
  await ctx.reply(report, { parse_mode: 'HTML', ...Markup.inlineKeyboard(inRows(orderable, 1)) });
}

/** /check <domains…>; without names it asks for them in the check scene. */
export function createDomainsFeature(): Feature {
  const composer = new Composer<BotContext>();
  composer.command('check', async (ctx) => {
    const text = ctx.payload.trim();
    if (text === '') {
      // Fail early without a token rather than after the user typed the list.
      await ctx.partnerApi();
      await ctx.scene.enter(CHECK_SCENE);
      return;
    }
    await checkDomains(ctx, text);
  });
  return { name: 'domains', composer, callbacks: [], scenes: [createCheckScene(checkDomains)] };
}
