import { describe, expect, it } from 'vitest';
import {
  fromKeyNetworks,
  inKeyScope,
  isChallengeValue,
  readAddress,
  readHostList,
  readNetworks,
  readScopeName,
} from '../../src/core/robot-keys.js';

describe('what a key may touch', () => {
  const address = { kind: 'address', name: 'office.client.by' } as const;
  const certificate = { kind: 'certificate', name: 'client.by' } as const;

  it('an address key: its host only, however the robot spells it', () => {
    expect(inKeyScope(address, 'office.client.by')).toBe(true);
    expect(inKeyScope(address, 'OFFICE.Client.BY.')).toBe(true);
    expect(inKeyScope(address, 'client.by')).toBe(false);
    expect(inKeyScope(address, 'cam.office.client.by')).toBe(false);
    expect(inKeyScope(address, 'office.client.by.evil.by')).toBe(false);
  });

  it('a certificate key: _acme-challenge of the domain and its subdomains, nothing else', () => {
    expect(inKeyScope(certificate, '_acme-challenge.client.by.')).toBe(true);
    expect(inKeyScope(certificate, '_acme-challenge.shop.client.by')).toBe(true);
    expect(inKeyScope(certificate, 'client.by')).toBe(false);
    expect(inKeyScope(certificate, 'www.client.by')).toBe(false);
    expect(inKeyScope(certificate, '_acme-challenge.otherclient.by')).toBe(false);
    expect(inKeyScope(certificate, '_acme-challenge._acme-challenge.client.by')).toBe(false);
    expect(inKeyScope(certificate, 'x._acme-challenge.client.by')).toBe(false);
  });

  it('a scope is a full name without wildcards', () => {
    expect(readScopeName(' Office.Client.BY. ')).toEqual({ ok: true, name: 'office.client.by' });
    expect(readScopeName('офис.пример.бел')).toMatchObject({ ok: true });
    expect(readScopeName('*.client.by')).toEqual({ ok: false, reason: 'name' });
    expect(readScopeName('office')).toEqual({ ok: false, reason: 'name' });
  });
});

describe('what a robot sends', () => {
  it('reads addresses, IPv4-mapped ones as IPv4', () => {
    expect(readAddress('198.51.100.9')).toEqual({ ok: true, family: 4, address: '198.51.100.9' });
    expect(readAddress('::ffff:198.51.100.9')).toEqual({ ok: true, family: 4, address: '198.51.100.9' });
    expect(readAddress('2001:DB8::1')).toEqual({ ok: true, family: 6, address: '2001:db8::1' });
    for (const bad of ['', '198.51.100', '198.51.100.256', '01.2.3.4', 'fe80::1%eth0', 'office'])
      expect(readAddress(bad)).toEqual({ ok: false });
  });

  it('reads a hostname list of up to 20 full names', () => {
    expect(readHostList('a.client.by, B.client.by')).toEqual({
      ok: true,
      hosts: ['a.client.by', 'b.client.by'],
    });
    expect(readHostList(undefined)).toEqual({ ok: false, answer: 'notfqdn' });
    expect(readHostList('office')).toEqual({ ok: false, answer: 'notfqdn' });
    expect(readHostList('*.client.by')).toEqual({ ok: false, answer: 'notfqdn' });
    const hosts = Array.from({ length: 21 }, (_, i) => `h${i}.client.by`);
    expect(readHostList(hosts.slice(0, 20).join(','))).toMatchObject({ ok: true });
    expect(readHostList(hosts.join(','))).toEqual({ ok: false, answer: 'numhost' });
  });

  it('matches sources against a key networks', () => {
    const read = readNetworks('198.51.100.0/24, 2001:db8::/32\n203.0.113.7');
    expect(read).toEqual({ ok: true, networks: ['198.51.100.0/24', '2001:db8::/32', '203.0.113.7/32'] });
    const networks = read.ok ? read.networks : [];
    expect(fromKeyNetworks(networks, '198.51.100.200')).toBe(true);
    expect(fromKeyNetworks(networks, '::ffff:198.51.100.200')).toBe(true);
    expect(fromKeyNetworks(networks, '2001:db8:5::1')).toBe(true);
    expect(fromKeyNetworks(networks, '203.0.113.7')).toBe(true);
    expect(fromKeyNetworks(networks, '203.0.113.8')).toBe(false);
    expect(fromKeyNetworks(networks, '192.0.2.1')).toBe(false);
    expect(fromKeyNetworks([], '192.0.2.1')).toBe(true);
    expect(readNetworks('198.51.100.0/33')).toEqual({ ok: false, bad: '198.51.100.0/33' });
    expect(readNetworks('office')).toEqual({ ok: false, bad: 'office' });
  });

  it('takes challenge values of 43 base64url characters', () => {
    expect(isChallengeValue('a'.repeat(43))).toBe(true);
    expect(isChallengeValue('a'.repeat(42))).toBe(false);
    expect(isChallengeValue(`${'a'.repeat(42)}=`)).toBe(false);
  });
});
