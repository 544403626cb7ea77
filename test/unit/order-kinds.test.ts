import { describe, expect, it } from 'vitest';
import en from '../../locales/en/order.json' with { type: 'json' };
import ru from '../../locales/ru/order.json' with { type: 'json' };
import { ORDER_KINDS, TARIFF_KINDS } from '../../src/bot/features/ordering/kinds.js';
import { DRAFT_VERSION, readDraft } from '../../src/bot/forms/types.js';
import { PRODUCT_KINDS, productKindOf } from '../../src/core/product-kinds.js';

describe('the order-kind registry', () => {
  it('has one entry per product kind, each with its flow of the same kind', () => {
    expect(Object.keys(ORDER_KINDS).sort()).toEqual([...PRODUCT_KINDS].sort());
    for (const kind of PRODUCT_KINDS) {
      const entry = ORDER_KINDS[kind];
      expect(entry.flow.kind).toBe(kind);
      expect(entry.flow.submit).toBeTypeOf('function');
      expect(entry.flow.listOrders).toBeTypeOf('function');
      expect(entry.labelKey).toBe(`order:kind.${kind}`);
    }
  });

  it('lists tariffs for every kind but the domain (priced by its zone)', () => {
    expect(TARIFF_KINDS).toEqual(['hosting', 'mail', 'ssl']);
    expect(ORDER_KINDS.domain.tariffs).toBeNull();
  });

  it('has the menu labels in both languages', () => {
    for (const kind of PRODUCT_KINDS) {
      expect(en.kind[kind]).toBeTruthy();
      expect(ru.kind[kind]).toBeTruthy();
    }
  });

  it('reads a typed word as a kind by comparison, never as a property', () => {
    expect(productKindOf('mail')).toBe('mail');
    for (const word of ['__proto__', 'constructor', 'toString', 'all', 'profile', 'dnsAdd', undefined])
      expect(productKindOf(word)).toBeUndefined();
  });
});

describe('a stored draft is parsed on read', () => {
  const draft = {
    version: DRAFT_VERSION,
    kind: 'mail',
    answers: { tariff: 3 },
    previous: {},
    screen: 4,
    options: [1, 2],
    status: 'editing',
  };

  it('reads this version’s draft as itself (the engine changes it in place)', () => {
    expect(readDraft(draft)).toBe(draft);
  });

  it('calls a draft of another version, or of no version, outdated', () => {
    expect(readDraft({ ...draft, version: DRAFT_VERSION - 1 })).toBe('outdated');
    const { version: _, ...unversioned } = draft;
    expect(readDraft(unversioned)).toBe('outdated');
    expect(readDraft({ ...draft, kind: 'vps' })).toBe('outdated');
    expect(readDraft({ ...draft, status: 'sent' })).toBe('outdated');
  });

  it('finds no draft in an empty or foreign state', () => {
    expect(readDraft({})).toBeUndefined();
    expect(readDraft({ purpose: 'ns', orderId: 3 })).toBeUndefined();
  });
});
