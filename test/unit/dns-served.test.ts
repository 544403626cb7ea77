import { describe, expect, it } from 'vitest';
import type { DnsProbe, Expectation } from '../../src/core/dns-check.js';
import { waitUntilServed } from '../../src/services/dns-served.js';

const expectation: Expectation = {
  name: '_acme-challenge.mysite.by',
  type: 'TXT',
  present: ['v1'],
  absent: [],
  exact: false,
  shown: ['v1'],
};

/** A clock that only moves when slept on, and the pauses asked of it. */
function fakeClock() {
  const slept: number[] = [];
  let at = 0;
  return {
    slept,
    clock: {
      now: () => at,
      sleep: async (ms: number) => {
        slept.push(ms);
        at += ms;
      },
    },
  };
}

/** Two servers; `b` serves the value from its `from`-th question on. */
function probe(from: number): DnsProbe & { asked: string[] } {
  const asked: string[] = [];
  let bAsked = 0;
  return {
    asked,
    addressesOf: async (server) => [server.ns === 'ns1' ? '192.0.2.1' : '192.0.2.2'],
    ask: async (address) => {
      asked.push(address);
      if (address === '192.0.2.1') return { kind: 'answer', values: ['v1', 'other'] };
      bAsked += 1;
      return bAsked >= from ? { kind: 'answer', values: ['v1'] } : { kind: 'answer', values: [] };
    },
  };
}

const api = (servers: { ns: string; ip: string | undefined }[]) => ({ listNameServers: async () => servers });
const two = api([
  { ns: 'ns1', ip: undefined },
  { ns: 'ns2', ip: undefined },
]);

describe('waitUntilServed', () => {
  it('is true once every server serves the value, asking again after each pause', async () => {
    const { clock, slept } = fakeClock();
    const p = probe(3);
    expect(await waitUntilServed({ probe: p, clock }, two, 1006, expectation, 60_000)).toBe(true);
    expect(slept).toEqual([2_000, 4_000]);
    expect(p.asked.filter((a) => a === '192.0.2.2')).toHaveLength(3);
  });

  it('is false when a server does not serve it within the limit, the last pause cut to what is left', async () => {
    const { clock, slept } = fakeClock();
    expect(await waitUntilServed({ probe: probe(99), clock }, two, 1006, expectation, 7_000)).toBe(false);
    expect(slept).toEqual([2_000, 4_000, 1_000]);
  });

  it('is false for a domain without name servers, asking nobody', async () => {
    const { clock } = fakeClock();
    const p = probe(1);
    expect(await waitUntilServed({ probe: p, clock }, api([]), 1006, expectation, 7_000)).toBe(false);
    expect(p.asked).toEqual([]);
  });
});
