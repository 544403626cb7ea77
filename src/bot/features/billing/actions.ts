import type { ActionTable } from '../../kit/callback-data.js';

/** Billing's buttons: the public links of documents, and an order's invoices. */
export const BILLING_ACTIONS = {
  /** The public link of an invoice / statement / partner statement. */
  invoiceLink: { code: 'il', args: ['int'], need: 'billing' },
  statementLink: { code: 'sl', args: ['int'], need: 'billing' },
  partnerStatementLink: { code: 'pl', args: ['int'], need: 'billing' },
  /** Invoices of an order: order id. */
  orderInvoices: { code: 'oi', args: ['int'], need: 'billing' },
  /** Invoices of another account of the chat (number), the active one left as it is. */
  accountInvoices: { code: 'ia', args: ['int'], need: 'billing' },
} as const satisfies ActionTable;
