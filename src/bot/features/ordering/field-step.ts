import type { FieldAnswer } from '../../../core/customer-answers.js';
import { siblingPath } from '../../../core/requisites.js';
import { checkField, type FieldSpec } from '../../../core/requisites-fields.js';
import { describeFieldForm, fieldLabel, lineLabel } from '../../../core/requisites-words.js';
import { UserInputError } from '../../errors.js';
import {
  answerOf,
  type OrderDraft,
  orSkipped,
  readBoolean,
  readString,
  type Section,
  type Step,
  type StepEnv,
} from '../../forms/types.js';
import { isPastedCard, takeCardAtField } from './pasted-card.js';
import { buildRefusal, describeAnswer, yesNoOptions } from './requisites-views.js';

/** Reads a field's answer by its kind; `null` only where the field may be skipped. */
function pickFieldReader(field: FieldSpec): (value: unknown) => FieldAnswer | undefined {
  const read: (value: unknown) => FieldAnswer | undefined =
    field.kind === 'boolean' ? readBoolean : readString;
  return field.optional === true ? orSkipped(read) : read;
}

/** A step asking for one requisites or WHOIS field, typed (or Yes/No for a boolean). */
export function createFieldStep(prefix: string, section: Section, field: FieldSpec): Step<FieldAnswer> {
  const id = `${prefix}${field.path}`;
  // The country of the same address, which the postal code is checked against.
  const country = { id: `${prefix}${siblingPath(field.path, 'country_code')}`, read: readString };
  const postalId = `${prefix}${siblingPath(field.path, 'postal_code')}`;
  const countryOf = (draft: OrderDraft): string | undefined => answerOf(draft, country);
  const read = pickFieldReader(field);
  return {
    id,
    section,
    read,
    async ask({ ctx, draft }) {
      const label = fieldLabel(ctx.t, field.path);
      if (field.kind === 'boolean')
        return { text: ctx.t('order:askChoice', { label }), options: yesNoOptions(ctx.t) };
      const hint = describeFieldForm(ctx.t, field, countryOf(draft));
      return {
        text: ctx.t('order:askField', { label }) + (hint ? `\n<i>${hint}</i>` : ''),
        skippable: field.optional === true,
      };
    },
    ...(field.kind === 'boolean'
      ? {}
      : {
          async parseText(env: StepEnv, text: string): Promise<FieldAnswer> {
            // A whole card pasted at one of its fields fills them all, as where the customer is chosen.
            if (isPastedCard(text)) return takeCardAtField(env, text, { id, path: field.path, read });
            const checked = checkField(field, text, { country: countryOf(env.draft) });
            if (!checked.ok) throw buildRefusal(env.ctx.t, fieldLabel(env.ctx.t, field.path), checked);
            return checked.value;
          },
          async parseFile(env: StepEnv, content: string): Promise<FieldAnswer> {
            if (!isPastedCard(content)) throw new UserInputError('order:notACard');
            return takeCardAtField(env, content, { id, path: field.path, read });
          },
        }),
    ...(field.kind === 'country'
      ? {
          // A postal code kept from before (Edit, Back, "Keep") may not fit a new country: it is
          // asked again rather than offered.
          async afterAnswer({ draft }: StepEnv, value: FieldAnswer) {
            const country = typeof value === 'string' ? value : undefined;
            for (const store of [draft.answers, draft.previous]) {
              const code = store[postalId];
              if (typeof code !== 'string') continue;
              const postal: FieldSpec = { path: 'postal_code', kind: 'postalCode' };
              if (!checkField(postal, code, { country }).ok) delete store[postalId];
            }
          },
        }
      : {}),
    describe: ({ ctx }, value) => `${lineLabel(ctx.t, field.path)}: ${describeAnswer(ctx.t, value)}`,
    keepText: ({ ctx }, value) =>
      value === true ? ctx.t('order:yes') : value === false ? ctx.t('order:no') : (value ?? undefined),
  };
}

/** A Yes/No step of the customer section (the postal address, the bank, saving the customer). */
export function createYesNoStep(
  reader: { id: string; read(value: unknown): boolean | undefined },
  askKey: string,
  more: Pick<Step<boolean>, 'auto' | 'afterAnswer' | 'describe'> = {},
): Step<boolean> {
  return {
    ...reader,
    section: 'customer',
    async ask({ ctx }) {
      return { text: ctx.t(askKey), options: yesNoOptions(ctx.t) };
    },
    describe: () => undefined,
    ...more,
  };
}
