import { describe, expect, it } from 'vitest';
import { addressLimitKey } from './client-address';

describe('what a per-address limit counts against', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['[::ffff:203.0.113.7]', '203.0.113.7'],
  ])('an IPv4 address, %s, is itself', (address, key) => {
    expect(addressLimitKey(address)).toBe(key);
  });

  it.each([
    ['2001:db8:a:b::1', '2001:db8:a:b::/64'],
    ['2001:0db8:000a:000b:0001:0000:0000:0001', '2001:db8:a:b::/64'],
    ['2001:DB8:A:B:FFFF::2', '2001:db8:a:b::/64'],
    ['[2001:db8:a:b::3]', '2001:db8:a:b::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['2001:db8:0:0:1::', '2001:db8::/64'],
    ['2001:0:0:1::5', '2001:0:0:1::/64'],
    ['0:0:0:1::5', '0:0:0:1::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['fe80::2%2', 'fe80::/64'],
    ['64:ff9b::1.2.3.4', '64:ff9b::/64'],
    ['::1', '::/64'],
    ['::', '::/64'],
    // an IPv4 tail is not a mapped address unless the five words before it are 0 and then ffff
    ['::ffff:0:1.2.3.4', '::/64'],
    ['1::ffff:1.2.3.4', '1::/64'],
  ])('an IPv6 address, %s, is its /64 network', (address, key) => {
    expect(addressLimitKey(address)).toBe(key);
  });

  it('gives every address of one /64 the same key, and a neighbouring /64 another', () => {
    const keys = ['2001:db8:a:b::1', '2001:0db8:000a:000b:1::1', '2001:db8:a:b:ffff::2', '2001:db8:a:b:1234:5678:9abc:def0'].map(addressLimitKey);
    expect(new Set(keys).size).toBe(1);
    expect(addressLimitKey('2001:db8:a:c::1')).not.toBe(keys[0]);
  });

  it.each(['unknown', '', 'not an address', '2001:db8::/64', '1.2.3.4:5678', '2001:db8:::1', '::ffff:1.2.3.256', '[unknown]'])(
    'keeps %j, which is no address, as it is written',
    (text) => {
      expect(addressLimitKey(text)).toBe(text);
    },
  );

  it('answers a key it made with the same key', () => {
    for (const address of ['2001:db8:a:b::1', '::ffff:1.2.3.4', '198.51.100.4', 'fe80::1%eth0', 'unknown']) {
      const key = addressLimitKey(address);
      expect(addressLimitKey(key)).toBe(key);
    }
  });
});
