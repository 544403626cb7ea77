import { type FieldAnswer, STEP, toAnswerId } from '../../../core/customer-answers.js';
import { answersOfCard } from '../../../core/customer-form.js';
import { type CustomerType, POSTAL_ADDRESS_FIELDS } from '../../../core/requisites.js';
import { type PastedCard, parseRequisitesCard } from '../../../core/requisites-paste.js';
import { describeRefusal, fieldLabel } from '../../../core/requisites-words.js';
import { UserInputError } from '../../errors.js';
import type { OrderDraft, StepEnv } from '../../forms/types.js';
import { type CardEntry, listCardEntries, renderCustomerCard } from './requisites-views.js';

/**
 * Reads a pasted card (a message or a .txt file) where the customer is asked. Text that is no card
 * is refused (the step is asked again); a card is kept in the draft until the answer is filed.
 */
export function readPastedCard(draft: OrderDraft, text: string): CustomerType {
  const card = parseRequisitesCard(text);
  if (!card.type) throw new UserInputError('order:notACard');
  draft.pastedCard = text.slice(0, 20_000);
  return card.type;
}

/**
 * Fills the customer, WHOIS and contact answers a pasted card gives, and shows what was taken:
 * only what is missing or was refused is asked after it. An optional field the card leaves out
 * in a block it fills (a room, a middle name) is taken as skipped.
 */
export async function applyPastedCard(env: StepEnv): Promise<void> {
  const { ctx, draft } = env;
  const text = draft.pastedCard;
  draft.pastedCard = undefined;
  if (text === undefined) return;
  const card: PastedCard = parseRequisitesCard(text);
  if (!card.type) return;
  const answers = answersOfCard(card);
  // The postal address is the legal one: what was asked of it before goes.
  if (answers[STEP.postalSame] === true)
    for (const f of POSTAL_ADDRESS_FIELDS) delete draft.answers[toAnswerId(f.path)];
  for (const [id, value] of Object.entries(answers)) {
    // A field the card leaves out is taken as skipped only where nothing answers it yet.
    if (value === null && id in draft.answers) continue;
    draft.answers[id] = value;
  }
  const entries: CardEntry[] = listCardEntries(draft.answers);
  const problems = card.refused.map((r) => describeRefusal(ctx.t, r.path, r.check));
  await ctx.reply(renderCustomerCard(ctx.t, { title: ctx.t('order:cardTaken'), entries, problems }), {
    parse_mode: 'HTML',
  });
}

/** Lines a text must have to be taken for a card where one field is asked (an address is one line). */
const CARD_LINES = 2;

/**
 * Whether a text typed where one field of the customer is asked is a pasted card instead: several
 * lines that read as a customer's requisites.
 */
export function isPastedCard(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  return lines.length >= CARD_LINES && parseRequisitesCard(text).type !== undefined;
}

/**
 * A card pasted (or sent as a .txt) where one field of the customer is asked: everything it gives
 * is filled, as where the customer is chosen, and the field asked is answered by it. A card without
 * that field says so, and the field is asked.
 */
export async function takeCardAtField(
  env: StepEnv,
  text: string,
  field: { id: string; path: string; read: (value: unknown) => FieldAnswer | undefined },
): Promise<FieldAnswer> {
  readPastedCard(env.draft, text);
  await applyPastedCard(env);
  const answer = field.read(env.draft.answers[field.id]);
  if (answer !== undefined) return answer;
  throw new UserInputError('order:cardWithoutField', { label: fieldLabel(env.ctx.t, field.path) });
}
