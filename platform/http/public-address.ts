import { BlockList, isIPv6 } from 'node:net';
import { promises as dns } from 'node:dns';

/**
 * Deciding whether an address may be connected to on behalf of a request.
 *
 * Outbound calls that a caller can trigger (e.g. checking an identity provider's credentials) must
 * never reach this machine, its network or its cloud metadata service, even when DNS answers with
 * such an address (misconfiguration, DNS rebinding). So the rule is an allow-list in spirit:
 * an address is public only if it is unicast, globally routable and not reserved for some special
 * purpose (IANA IPv4 and IPv6 Special-Purpose Address Registries). Anything we cannot parse is not
 * public.
 */

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses. Injected so tests never need DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The host resolved to at least one address that is not public; nothing was connected to. */
export class NonPublicAddressError extends Error {
  override readonly name = 'NonPublicAddressError';
  constructor(readonly hostname: string) {
    // The addresses stay out of the message: it may reach a caller, and internal addresses are none of theirs.
    super(`${hostname} resolves to an address that is not public; refusing to connect.`);
  }
}

/** The host could not be resolved, or resolved to no address. */
export class HostResolutionError extends Error {
  override readonly name = 'HostResolutionError';
  constructor(
    readonly hostname: string,
    options?: { cause?: unknown },
  ) {
    super(`${hostname} could not be resolved.`, options);
  }
}

// IPv4 ranges that are not public (RFC 6890 and the IANA IPv4 Special-Purpose Address Registry).
// Ranges the registry marks globally reachable (AS112, AMT, 192.0.0.9/10) are of no use to us as a
// destination either, but they are public, so they are not listed.
const NON_PUBLIC_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT shared space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation TEST-NET-2
  ['203.0.113.0', 24], // documentation TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes the limited broadcast 255.255.255.255
];

// Only 2000::/3 is global unicast; everything outside it (::, ::1, fc00::/7, fe80::/10, ff00::/8,
// 100::/64, the IPv4-compatible ::/96, ...) is not public. The mapped and NAT64 forms, which also
// lie outside it, are judged by the IPv4 address they embed before this list is consulted.
const GLOBAL_UNICAST_IPV6: readonly [string, number][] = [['2000::', 3]];

// Reserved ranges inside 2000::/3.
const NON_PUBLIC_IPV6: readonly [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

function blockList(ranges: readonly [string, number][], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

const nonPublicIPv4 = blockList(NON_PUBLIC_IPV4, 'ipv4');
const globalUnicastIPv6 = blockList(GLOBAL_UNICAST_IPV6, 'ipv6');
const nonPublicIPv6 = blockList(NON_PUBLIC_IPV6, 'ipv6');

// Strict dotted decimal: no leading zeros, no octal or hex parts, no shortened forms such as 127.1,
// which some resolvers and libraries read differently.
const IPV4_OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4_PATTERN = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);

function parseIPv4(text: string): number[] | undefined {
  if (!IPV4_PATTERN.test(text)) return undefined;
  return text.split('.').map(Number);
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one (or carries a zone). */
function parseIPv6(text: string): number[] | undefined {
  // A zone index (fe80::1%eth0) only exists for scoped, non-global addresses.
  if (text.includes('%') || !isIPv6(text)) return undefined;
  let hex = text;
  const lastColon = hex.lastIndexOf(':');
  const tail = hex.slice(lastColon + 1);
  if (tail.includes('.')) {
    const octets = parseIPv4(tail);
    if (!octets) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    hex = `${hex.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string | undefined): number[] =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const words = [...head, ...new Array<number>(missing).fill(0), ...rest];
  return words.length === 8 && words.every((word) => word >= 0 && word <= 0xffff) ? words : undefined;
}

function isPublicIPv4Octets(octets: readonly number[]): boolean {
  return !nonPublicIPv4.check(octets.join('.'), 'ipv4');
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIPv4(words: readonly number[]): number[] {
  const high = words[6] ?? 0;
  const low = words[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function startsWith(words: readonly number[], prefix: readonly number[]): boolean {
  return prefix.every((word, index) => words[index] === word);
}

function isPublicIPv6Words(words: readonly number[]): boolean {
  // ::ffff:a.b.c.d (IPv4-mapped): the socket would talk IPv4 to a.b.c.d.
  if (startsWith(words, [0, 0, 0, 0, 0, 0xffff])) return isPublicIPv4Octets(embeddedIPv4(words));
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix): the translator forwards to a.b.c.d.
  if (startsWith(words, [0x64, 0xff9b, 0, 0, 0, 0])) return isPublicIPv4Octets(embeddedIPv4(words));
  // 2002:aabb:ccdd::/48 (6to4): the packets go to the IPv4 relay a.b.c.d.
  if (words[0] === 0x2002) {
    const high = words[1] ?? 0;
    const low = words[2] ?? 0;
    if (!isPublicIPv4Octets([high >> 8, high & 0xff, low >> 8, low & 0xff])) return false;
  }
  const canonical = words.map((word) => word.toString(16)).join(':');
  return globalUnicastIPv6.check(canonical, 'ipv6') && !nonPublicIPv6.check(canonical, 'ipv6');
}

/**
 * Whether `ip` is a public unicast address that outbound calls may connect to.
 *
 * False for loopback, private, link-local, unspecified, carrier-grade NAT, multicast, broadcast,
 * documentation and benchmarking ranges, for IPv6 forms that embed such an IPv4 address
 * (IPv4-mapped `::ffff:127.0.0.1` / `::ffff:7f00:1`, NAT64 `64:ff9b::a.b.c.d`, 6to4), for
 * addresses with a zone index, and for anything that is not an IP address literal at all.
 */
export function isPublicAddress(ip: string): boolean {
  const octets = parseIPv4(ip);
  if (octets) return isPublicIPv4Octets(octets);
  const words = parseIPv6(ip);
  if (words) return isPublicIPv6Words(words);
  return false;
}

/** Resolves through the operating system (as `https.request` would), returning every address. */
export const systemResolver: HostResolver = async (hostname) => {
  const addresses = await dns.lookup(hostname, { all: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * Resolves `hostname` and returns the address to connect to: the first one, and only if every
 * address the host resolved to is public. Connect to that address and no other (pin it), so DNS
 * cannot answer differently between this check and the connection.
 *
 * All addresses are checked, not just the first, because a host that resolves to an internal
 * address at all is misconfigured or hostile, and the operating system might pick any of them.
 *
 * @throws NonPublicAddressError when any resolved address is not public.
 * @throws HostResolutionError when the resolver fails or returns no address.
 */
export async function resolvePublicAddress(
  hostname: string,
  resolver: HostResolver,
): Promise<ResolvedAddress> {
  let resolved: ResolvedAddress[];
  try {
    resolved = await resolver(hostname);
  } catch (error) {
    throw new HostResolutionError(hostname, { cause: error });
  }
  const first = resolved[0];
  if (!first) throw new HostResolutionError(hostname);
  if (!resolved.every(({ address }) => isPublicAddress(address))) throw new NonPublicAddressError(hostname);
  // The family is taken from the address itself, not from what the resolver claimed.
  return { address: first.address, family: parseIPv4(first.address) ? 4 : 6 };
}
