import { domainToASCII as a, domainToUnicode as u } from 'node:url';
import { expect, it } from 'vitest';
import { domainToASCII, domainToUnicode } from '../../app/src/node-url.js';

it('matches node', () => {
  for (const d of [
    'пример.бел',
    'shop.by',
    'мой-сайт.рф',
    'bücher.de',
    'xn--e1afmkfd.xn--90ais',
    'a.b',
    '日本語.jp',
    'Пример.БЕЛ',
    'bad domain',
  ]) {
    expect([d, domainToASCII(d)]).toEqual([d, a(d)]);
    expect([d, domainToUnicode(d)]).toEqual([d, u(d)]);
  }
});
