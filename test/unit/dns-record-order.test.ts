import { describe, expect, it } from 'vitest';
import { sortRecords } from '../../src/core/dns-record-order.js';

const listed = (type: string, value: string, id: number) => ({ record_id: id, type, value, ttl: 3600 });

describe('the one order of a zone’s records', () => {
  it('is by type, then host with the apex first, then value; not by the provider’s ids', () => {
    const records = [
      listed('TXT', '@ "v=spf1 -all"', 1),
      listed('A', 'www 192.0.2.55', 9),
      listed('CNAME', 'ftp mysite.by.', 3),
      listed('A', '@ 93.125.99.10', 4),
      listed('MX', '@ 20 mx2.example.by.', 5),
      listed('MX', '@ 10 mx1.example.by.', 6),
      listed('A', 'Shop 192.0.2.7', 7),
      listed('TXT', '_dmarc "v=DMARC1; p=none"', 8),
    ];
    expect(sortRecords(records).map((r) => `${r.type} ${r.value}`)).toEqual([
      'A @ 93.125.99.10',
      'A Shop 192.0.2.7',
      'A www 192.0.2.55',
      'CNAME ftp mysite.by.',
      'MX @ 10 mx1.example.by.',
      'MX @ 20 mx2.example.by.',
      'TXT @ "v=spf1 -all"',
      'TXT _dmarc "v=DMARC1; p=none"',
    ]);
    // The records given are left as they were.
    expect(records[0]?.record_id).toBe(1);
  });
});
