import { describe, expect, it } from 'vitest';
import { signupPolicyFromEnv } from '../config';
import { wechatSettingsFromEnv } from '../wechat/settings';
import { classifyAddress, exposureOf, isPublicAddress } from './public-address';

describe('which addresses the server may fetch from on a user’s say-so', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:100.64.1.1', 'carrier-grade-nat'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:0101::1', 'private'],
  ])('%s, an IPv4 address in IPv6 clothing, is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '203.205.219.42', '142.250.72.14', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.253.1.1',
    '11.0.0.1', '2404:6800:4008:c01::84', '2a00:1450:4001:82b::2001', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toBe('public');
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each(['localhost', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '127.1', '127.0.0.1.', '', 'thirdwx.qlogo.cn', '::ffff:999.1.1.1'])(
    '%j is not an address at all, so it is never taken for a public one',
    (text) => {
      expect(classifyAddress(text)).toBe('not-an-ip');
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});

describe('who reaches the server (exposureOf)', () => {
  it('is nobody else only on loopback, behind no proxy, with no public address on another host', () => {
    expect(exposureOf({}, '127.0.0.1')).toBeNull();
    expect(exposureOf({}, 'localhost')).toBeNull();
    expect(exposureOf({ TRUST_PROXY: '0', PUBLIC_URL: 'http://127.0.0.1:8080' }, '::1')).toBeNull();
    expect(exposureOf({ PUBLIC_URL: 'http://[::1]:8080/' }, '127.0.0.1')).toBeNull();
  });

  it('is everyone on any other listening address, or an unknown one', () => {
    expect(exposureOf({}, '0.0.0.0')).toEqual({ by: 'listening', detail: 'HOST=0.0.0.0' });
    expect(exposureOf({}, '10.0.0.11')?.by).toBe('listening');
    expect(exposureOf({}, undefined)?.by).toBe('listening');
  });

  it('is everyone on loopback behind a proxy (nginx on the same machine) or with a public address', () => {
    expect(exposureOf({ TRUST_PROXY: '1' }, '127.0.0.1')).toEqual({ by: 'proxy', detail: 'TRUST_PROXY=1' });
    expect(exposureOf({ TRUST_PROXY: 'true' }, '127.0.0.1')?.by).toBe('proxy');
    expect(exposureOf({ PUBLIC_URL: 'https://chat.example.com' }, '127.0.0.1')).toEqual({ by: 'public-url', detail: 'PUBLIC_URL=https://chat.example.com' });
    expect(exposureOf({ PUBLIC_URL: 'not a url' }, '127.0.0.1')?.by).toBe('public-url');
  });

  it('decides the defaults only safe on one’s own machine: open sign-up and the WeChat simulator', () => {
    expect(signupPolicyFromEnv({}, { host: '127.0.0.1' })).toBe('open');
    expect(signupPolicyFromEnv({ TRUST_PROXY: '1' }, { host: '127.0.0.1' })).toBe('invite');
    expect(signupPolicyFromEnv({ PUBLIC_URL: 'https://chat.example.com' }, { host: '127.0.0.1' })).toBe('invite');
    expect(signupPolicyFromEnv({ TRUST_PROXY: '1', SIGNUP: 'open' }, { host: '127.0.0.1' })).toBe('open');
    expect(wechatSettingsFromEnv({ PUBLIC_URL: 'https://chat.example.com' }, { host: '127.0.0.1' })).toEqual({ mode: 'off', reason: 'reachable' });
    expect(wechatSettingsFromEnv({ PUBLIC_URL: 'http://localhost:8080' }, { host: '127.0.0.1' })).toEqual({ mode: 'simulator' });
  });
});
