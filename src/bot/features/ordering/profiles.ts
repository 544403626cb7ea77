import { randomBytes } from 'node:crypto';
import {
  customerLabelOf,
  isCustomerAnswer,
  readSavedCustomer,
  type SavedCustomer,
  STEP,
  savedCustomer,
  WHOIS_PREFIX,
} from '../../../core/customer-answers.js';
import { answerOf, type StepEnv } from '../../forms/types.js';
import { CUSTOMER_SOURCE } from './answers.js';

/** Saves the entered customer (and contacts when known) as a profile, labelled by its name. */
export async function saveCustomerProfile({ ctx, chatData, account, draft }: StepEnv): Promise<void> {
  const data: SavedCustomer = {};
  for (const [key, value] of Object.entries(draft.answers)) {
    if (key === STEP.saveProfile || !isCustomerAnswer(key)) continue;
    const answer = savedCustomer.valueType.safeParse(value);
    if (answer.success) data[key] = answer.data;
  }
  const label = customerLabelOf(data) ?? ctx.t('order:unnamedCustomer');
  // Keyed by the draft: "Да" taken again after a kill overwrites the same profile, never a second one.
  await chatData.saveProfile(account, { id: draft.id ?? randomBytes(4).toString('hex'), label, data });
}

/**
 * Keeps the WHOIS answers of an order for a saved customer with that customer's profile, so the
 * next order in a zone that needs them asks only what the profile still lacks. Answers already in
 * the profile are overwritten by this order's (an Edit in the summary corrects them).
 */
export async function rememberWhois({ chatData, account, draft }: StepEnv): Promise<void> {
  const id = answerOf(draft, CUSTOMER_SOURCE);
  if (id === undefined || id === 'new') return;
  const profile = (await chatData.getProfiles(account)).find((p) => p.id === id);
  const saved = profile ? readSavedCustomer(profile.data) : undefined;
  if (!profile || !saved || saved[STEP.customerType] !== draft.answers[STEP.customerType]) return;
  const data: SavedCustomer = { ...saved };
  for (const [key, value] of Object.entries(draft.answers)) {
    if (!key.startsWith(WHOIS_PREFIX)) continue;
    const answer = savedCustomer.valueType.safeParse(value);
    if (answer.success) data[key] = answer.data;
  }
  if (JSON.stringify(data) !== JSON.stringify(saved))
    await chatData.saveProfile(account, { ...profile, data });
}
