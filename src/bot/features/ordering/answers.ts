import { readCustomerType, STEP } from '../../../core/customer-answers.js';
import { readBoolean, readNumber, readString } from '../../forms/types.js';

/** Readers of the shared answers other steps, the requests and the saved customers depend on. */
export const PERIOD = { id: STEP.period, read: readNumber };
export const CURRENCY = { id: STEP.currency, read: readNumber };
export const CUSTOMER_SOURCE = { id: STEP.customerSource, read: readString };
export const CUSTOMER_TYPE = { id: STEP.customerType, read: readCustomerType };
export const POSTAL_SAME = { id: STEP.postalSame, read: readBoolean };
export const BANK_WANTED = { id: STEP.bankWanted, read: readBoolean };
