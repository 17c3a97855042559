import { expect } from 'chai';
import { classifyAddress, type AddressCategory } from '../../../adapters/delivery-got/index.js';

describe('classifyAddress', () => {
  const cases: [string, AddressCategory][] = [
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['2001:db8::1', 'reserved'],
  ];
  for (const [ip, category] of cases) {
    it(`classifies ${ip} as ${category}`, () => {
      expect(classifyAddress(ip)).to.equal(category);
    });
  }

  const mapped: [string, AddressCategory][] = [
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:100.64.0.1', 'cgnat'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'private'],
    ['::ffff:93.184.216.34', 'public'],
  ];
  for (const [ip, category] of mapped) {
    it(`judges the IPv4-mapped ${ip} by its IPv4 address: ${category}`, () => {
      expect(classifyAddress(ip)).to.equal(category);
    });
  }

  it('judges NAT64 and 6to4 forms by the IPv4 address they carry', () => {
    expect(classifyAddress('64:ff9b::7f00:1')).to.equal('loopback');
    expect(classifyAddress('64:ff9b::5db8:d822')).to.equal('public');
    expect(classifyAddress('2002:a00:1::1')).to.equal('private');
  });

  it('accepts a bracketed IPv6 literal as it appears in a URL', () => {
    expect(classifyAddress('[::1]')).to.equal('loopback');
  });

  it('throws on something that is not an IP address', () => {
    expect(() => classifyAddress('localhost')).to.throw(TypeError, /not an IP address/);
  });
});
