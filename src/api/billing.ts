import { type Caller, callGet, fillPath } from './http.js';
import {
  type AsOfDateQuery,
  asOfDateQuery,
  currenciesResponse,
  type InvoiceQuery,
  invoiceQuery,
  invoicesResponse,
  type PartnerStatementQuery,
  type PaymentQuery,
  partnerStatementQuery,
  partnerStatementsResponse,
  paymentQuery,
  paymentsResponse,
  priceListsResponse,
  priceListTariffs,
  type StatementQuery,
  statementQuery,
  statementsResponse,
} from './schemas/billing.js';
import { urlResponse } from './schemas/common.js';

/** The ten billing operations: currencies, price lists, documents and their public links. */
export function createBillingApi(call: Caller) {
  const linkOf = async (operation: string, template: string, id: number) => {
    const path = fillPath({ operation, method: 'GET' }, template, { id });
    return (await callGet(call, operation, path, urlResponse)).url;
  };

  return {
    async listCurrencies() {
      return (await callGet(call, 'listCurrencies', '/v1/billing/currencies', currenciesResponse)).currencies;
    },

    async listPriceLists(query: AsOfDateQuery = {}) {
      const schema = asOfDateQuery;
      return (
        await callGet(call, 'listPriceLists', '/v1/billing/pricelists', priceListsResponse, {
          schema,
          value: query,
        })
      ).pricelists;
    },

    async getPriceListTariffs(number: number, query: AsOfDateQuery = {}) {
      const operation = 'getPriceListTariffs';
      const path = fillPath({ operation, method: 'GET' }, '/v1/billing/pricelists/{number}/tariffs', {
        number,
      });
      return callGet(call, operation, path, priceListTariffs, { schema: asOfDateQuery, value: query });
    },

    async listInvoices(query: InvoiceQuery = {}) {
      const schema = invoiceQuery;
      return (
        await callGet(call, 'listInvoices', '/v1/billing/invoices', invoicesResponse, {
          schema,
          value: query,
        })
      ).invoices;
    },

    async listPayments(query: PaymentQuery = {}) {
      const schema = paymentQuery;
      return (
        await callGet(call, 'listPayments', '/v1/billing/payments', paymentsResponse, {
          schema,
          value: query,
        })
      ).payments;
    },

    async listStatements(query: StatementQuery = {}) {
      const schema = statementQuery;
      const path = '/v1/billing/statements';
      return (await callGet(call, 'listStatements', path, statementsResponse, { schema, value: query }))
        .statements;
    },

    async listPartnerStatements(query: PartnerStatementQuery = {}) {
      const schema = partnerStatementQuery;
      const path = '/v1/billing/partner-statements';
      return (
        await callGet(call, 'listPartnerStatements', path, partnerStatementsResponse, {
          schema,
          value: query,
        })
      ).partner_statements;
    },

    async getInvoiceUrl(invoiceId: number) {
      return linkOf('getInvoiceUrl', '/v1/billing/invoices/{id}/url', invoiceId);
    },

    async getStatementUrl(statementId: number) {
      return linkOf('getStatementUrl', '/v1/billing/statements/{id}/url', statementId);
    },

    async getPartnerStatementUrl(partnerStatementId: number) {
      return linkOf('getPartnerStatementUrl', '/v1/billing/partner-statements/{id}/url', partnerStatementId);
    },
  };
}

export type BillingApi = ReturnType<typeof createBillingApi>;
