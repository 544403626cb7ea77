import type { OrderFlow } from '../../forms/types.js';
import { createContactSteps, createCustomerSteps } from './customer-steps.js';
import { saveCustomerProfile } from './profiles.js';

/** `/requisites` → Add: a customer entered and saved for later orders, nothing ordered. */
export function createProfileFlow(): OrderFlow {
  return {
    kind: 'profile',
    confirmKey: 'order:saveProfileButton',
    cancelKey: 'order:profileCancelled',
    submittingKey: 'common:savingProfile',
    midFlowKey: 'common:commandMidProfile',
    // The customer is new by definition: /requisites starts it with customerSource answered.
    steps: (draft) => [...createCustomerSteps(draft), ...createContactSteps()],
    async summaryHead({ ctx }) {
      return [ctx.t('order:summaryTitle.profile')];
    },
    async finish(env) {
      await saveCustomerProfile(env);
      await env.ctx.reply(env.ctx.t('order:profileSaved'));
    },
  };
}
