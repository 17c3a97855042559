import { isIPv4, isIPv6 } from 'node:net';

/** Where an IP address points; everything but `public` is refused as a webhook target by default. */
export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'cgnat'
  | 'multicast'
  | 'reserved';

type Range<C> = { base: bigint; bits: number; category: C };
// The IPv6 forms that carry an IPv4 address, to be judged by that address.
type Embedded = 'embedded-ipv4';

// Most specific first: the first range that contains the address decides (169.254.169.254 is the
// metadata service before it is link-local).
const IPV4_RANGES: readonly Range<AddressCategory>[] = [
  v4('169.254.169.254/32', 'metadata'),
  v4('0.0.0.0/8', 'unspecified'), // "this network": Linux connects 0.x.x.x to the local host
  v4('127.0.0.0/8', 'loopback'),
  v4('10.0.0.0/8', 'private'),
  v4('172.16.0.0/12', 'private'),
  v4('192.168.0.0/16', 'private'),
  v4('169.254.0.0/16', 'link-local'),
  v4('100.64.0.0/10', 'cgnat'), // also where some clouds put their metadata (100.100.100.200)
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // includes the broadcast address
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
];

const IPV6_RANGES: readonly Range<AddressCategory | Embedded>[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fd00:ec2::254/128', 'metadata'),
  // Forms that carry an IPv4 address reach that address: judge them by it.
  v6('::ffff:0:0/96', 'embedded-ipv4'), // IPv4-mapped
  v6('64:ff9b::/96', 'embedded-ipv4'), // NAT64
  v6('2002::/16', 'embedded-ipv4'), // 6to4
  v6('::/96', 'reserved'), // deprecated IPv4-compatible
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6('fc00::/7', 'private'),
  v6('fec0::/10', 'private'), // deprecated site-local
  v6('fe80::/10', 'link-local'),
  v6('ff00::/8', 'multicast'),
  v6('100::/64', 'reserved'),
  v6('2001:db8::/32', 'reserved'),
];

/** The category of an IPv4 or IPv6 address (`::ffff:127.0.0.1` is loopback); throws on a non-address. */
export function classifyAddress(ip: string): AddressCategory {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(address)) return lookUp(IPV4_RANGES, ipv4Value(address), 32);
  const bare = address.split('%')[0]; // a zone id (`fe80::1%eth0`) does not change the category
  if (!isIPv6(bare)) throw new TypeError(`not an IP address: ${ip}`);
  const value = ipv6Value(bare);
  const category = lookUp(IPV6_RANGES, value, 128);
  if (category !== 'embedded-ipv4') return category;
  // 6to4 carries the IPv4 address in bits 16..48; the /96 forms in the last 32 bits.
  const embedded = value >> 112n === 0x2002n ? (value >> 80n) & 0xffffffffn : value & 0xffffffffn;
  return lookUp(IPV4_RANGES, embedded, 32);
}

function lookUp<C extends string>(ranges: readonly Range<C>[], value: bigint, width: number): C | 'public' {
  for (const range of ranges) {
    const shift = BigInt(width - range.bits);
    if (value >> shift === range.base >> shift) return range.category;
  }
  return 'public';
}

function v4(cidr: string, category: AddressCategory): Range<AddressCategory> {
  const [address, bits] = cidr.split('/');
  return { base: ipv4Value(address), bits: Number(bits), category };
}

function v6<C>(cidr: string, category: C): Range<C> {
  const [address, bits] = cidr.split('/');
  return { base: ipv6Value(address), bits: Number(bits), category };
}

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((sum, part) => (sum << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of a valid IPv6 address, with `::` expanded and a trailing dotted quad read. */
function ipv6Value(address: string): bigint {
  let text = address.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const value = Number(ipv4Value(quad[1]));
    text = `${text.slice(0, -quad[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...tailGroups];
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(parseInt(group, 16)), 0n);
}
