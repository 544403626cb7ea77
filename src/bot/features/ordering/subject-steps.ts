import { toAsciiDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { looksLikeCsr } from '../../../core/requisites.js';
import { echoInput } from '../../../core/text.js';
import { UserInputError } from '../../errors.js';
import { orSkipped, readString, type Step } from '../../forms/types.js';

/** Step ids the word after `/order hosting|ssl` answers. */
export const HOSTING_DOMAIN = 'orderDomain';
export const SSL_SUBJECT = 'sslSubject';

/** The hosting's domain, or `null` when skipped (the hosting is ordered without one). */
export function createHostingDomainStep(): Step<string | null> {
  return {
    id: HOSTING_DOMAIN,
    section: 'subject',
    read: orSkipped(readString),
    async ask({ ctx }) {
      return { text: ctx.t('order:askHostingDomain'), skippable: true };
    },
    async parseText(_env, text) {
      const ascii = toAsciiDomain(text.trim());
      if (!ascii) throw new UserInputError('order:invalid.domain', { value: escapeHtml(echoInput(text)) });
      return ascii;
    },
    describe: ({ ctx }, value) =>
      ctx.t('order:summaryDomain', { domain: value ? escapeHtml(toUnicodeDomain(value)) : '—' }),
  };
}

/** What an SSL certificate is for: a domain, or a CSR naming it. */
export type SslSubject = { domain: string } | { csr: string };

/** Reads the SSL subject answer back: a domain or a CSR, else nothing. */
export function readSslSubject(value: unknown): SslSubject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if ('csr' in value && typeof value.csr === 'string') return { csr: value.csr };
  if ('domain' in value && typeof value.domain === 'string') return { domain: value.domain };
  return undefined;
}

/** What an SSL certificate is for, typed (a domain, a wildcard, a pasted CSR) or sent as a CSR file. */
export function createSslSubjectStep(): Step<SslSubject> {
  const readCsr = (text: string): SslSubject => {
    if (!looksLikeCsr(text)) throw new UserInputError('order:invalid.csr');
    return { csr: text.trim() };
  };
  return {
    id: SSL_SUBJECT,
    section: 'subject',
    read: readSslSubject,
    async ask({ ctx }) {
      return { text: ctx.t('order:askSslSubject') };
    },
    async parseText(_env, text) {
      if (text.includes('-----BEGIN')) return readCsr(text);
      const ascii = toAsciiDomain(text.trim().replace(/^\*\./, 'wildcard.'));
      if (!ascii) throw new UserInputError('order:invalid.domainOrCsr');
      return { domain: text.trim().startsWith('*.') ? `*.${ascii.slice('wildcard.'.length)}` : ascii };
    },
    async parseFile(_env, content, fileName) {
      if (!/\.(csr|pem|txt)$/i.test(fileName)) throw new UserInputError('order:invalid.csrFile');
      return readCsr(content);
    },
    describe: ({ ctx }, subject) =>
      'csr' in subject
        ? ctx.t('order:summaryCsr', { length: subject.csr.length })
        : ctx.t('order:summaryDomain', { domain: escapeHtml(toUnicodeDomain(subject.domain)) }),
  };
}
