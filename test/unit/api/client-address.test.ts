import { describe, expect, it } from 'vitest';
import { rateLimitBucket, rightMostForwarded } from '../../../src/api/middleware.ts';

describe('client address behind a trusted proxy', () => {
  it('takes the right-most X-Forwarded-For entry, the one our proxy appended', () => {
    expect(rightMostForwarded('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(rightMostForwarded('spoofed, 1.1.1.1,  203.0.113.7 ')).toBe('203.0.113.7');
    expect(rightMostForwarded('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(rightMostForwarded('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(rightMostForwarded('2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(rightMostForwarded('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('ignores a right-most entry that is not an address', () => {
    expect(rightMostForwarded('203.0.113.7, unknown')).toBeUndefined();
    expect(rightMostForwarded('203.0.113.7, ')).toBeUndefined();
    expect(rightMostForwarded('203.0.113.7, 999.1.1.1')).toBeUndefined();
    expect(rightMostForwarded(undefined)).toBeUndefined();
  });
});

describe('rate-limit buckets', () => {
  it('keeps IPv4 addresses apart and puts an IPv6 /64 in one bucket', () => {
    expect(rateLimitBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitBucket('unknown')).toBe('unknown');
  });
});
