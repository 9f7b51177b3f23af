import {
  HostResolutionError,
  NonPublicAddressError,
  isPublicAddress,
  resolvePublicAddress,
  type HostResolver,
  type ResolvedAddress,
} from './public-address.js';

/** A resolver answering from a table and recording what it was asked. */
function tableResolver(table: Record<string, ResolvedAddress[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return Object.assign(resolver, { asked });
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

describe('spec 4.2 provider check / issue 3: an address is public only if it is globally routable unicast', () => {
  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, elsewhere in 127/8', '127.255.0.9'],
    ['private 10/8', '10.0.0.5'],
    ['private 172.16/12, first', '172.16.0.1'],
    ['private 172.16/12, last', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local 169.254/16', '169.254.1.1'],
    ['cloud metadata 169.254.169.254', '169.254.169.254'],
    ['unspecified 0.0.0.0', '0.0.0.0'],
    ['"this network" 0/8', '0.1.2.3'],
    ['carrier-grade NAT 100.64/10, first', '100.64.0.1'],
    ['carrier-grade NAT 100.64/10, last', '100.127.255.254'],
    ['IETF protocol assignments 192.0.0/24', '192.0.0.8'],
    ['documentation TEST-NET-1', '192.0.2.1'],
    ['documentation TEST-NET-2', '198.51.100.7'],
    ['documentation TEST-NET-3', '203.0.113.9'],
    ['benchmarking 198.18/15', '198.19.0.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['IPv4 multicast', '224.0.0.1'],
    ['IPv4 multicast, last', '239.255.255.250'],
    ['reserved 240/4', '240.0.0.1'],
    ['limited broadcast', '255.255.255.255'],
    ['IPv6 loopback', '::1'],
    ['IPv6 loopback, written out', '0:0:0:0:0:0:0:1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 unique local fc00::/7 (fc)', 'fc00::1'],
    ['IPv6 unique local fc00::/7 (fd)', 'fd12:3456:789a::1'],
    ['IPv6 link-local fe80::/10', 'fe80::1'],
    ['IPv6 link-local, upper end of fe80::/10', 'febf::1'],
    ['IPv6 link-local with a zone index', 'fe80::1%eth0'],
    ['IPv6 deprecated site-local fec0::/10', 'fec0::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation 2001:db8::/32', '2001:db8::1'],
    ['IPv6 documentation 3fff::/20', '3fff::1'],
    ['IPv6 benchmarking 2001:2::/48', '2001:2::1'],
    ['Teredo 2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['IPv6 discard-only 100::/64', '100::1'],
    ['IPv4-mapped loopback, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex', '::ffff:7f00:1'],
    ['IPv4-mapped loopback, upper case', '::FFFF:7F00:1'],
    ['IPv4-mapped loopback, written out', '0:0:0:0:0:ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:10.0.0.5'],
    ['IPv4-mapped metadata address', '::ffff:169.254.169.254'],
    ['IPv4-mapped metadata address, hex', '::ffff:a9fe:a9fe'],
    ['IPv4-compatible (deprecated) loopback', '::127.0.0.1'],
    ['IPv4-compatible (deprecated) public', '::8.8.8.8'],
    ['NAT64 embedding loopback', '64:ff9b::127.0.0.1'],
    ['NAT64 embedding private, hex', '64:ff9b::a00:5'],
    ['NAT64 embedding metadata', '64:ff9b::a9fe:a9fe'],
    ['NAT64 local-use prefix 64:ff9b:1::/48', '64:ff9b:1::808:808'],
    ['6to4 embedding a private IPv4', '2002:a00:5::1'],
    ['6to4 embedding loopback', '2002:7f00:1::1'],
  ])('refuses %s (%s)', (_rule, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['a public IPv4 address', '8.8.8.8'],
    ['a Microsoft address', '20.190.160.1'],
    ['just below 172.16/12', '172.15.255.255'],
    ['just above 172.16/12', '172.32.0.1'],
    ['just below 100.64/10', '100.63.255.255'],
    ['just above 100.64/10', '100.128.0.1'],
    ['just above 169.254/16', '169.255.0.1'],
    ['just below multicast', '223.255.255.254'],
    ['a public IPv6 address', '2606:4700:4700::1111'],
    ['a Google IPv6 address', '2a00:1450:4001:82a::200a'],
    ['a public IPv6 address just past 2001::/23', '2001:200::1'],
    ['a public IPv6 address, upper case', '2A00:1450:4001:82A::200A'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['IPv4-mapped public, hex', '::ffff:808:808'],
    ['NAT64 embedding a public IPv4', '64:ff9b::8.8.8.8'],
    ['6to4 embedding a public IPv4', '2002:808:808::1'],
  ])('accepts %s (%s)', (_rule, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a host name', 'localhost'],
    ['a padded address', ' 8.8.8.8'],
    ['a shortened IPv4 form', '127.1'],
    ['IPv4 with leading zeros (octal to some parsers)', '010.0.0.1'],
    ['IPv4 in hex', '0x7f.0.0.1'],
    ['IPv4 as one number', '2130706433'],
    ['an address with a port', '8.8.8.8:443'],
    ['a bracketed IPv6 address', '[2606:4700:4700::1111]'],
    ['an out-of-range octet', '8.8.8.256'],
    ['two "::"', '1::2::3'],
  ])('refuses what is not an address literal: %s (%j)', (_rule, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('spec 4.2 provider check / issue 3: a host is usable only if every address it resolves to is public', () => {
  it('returns the first address when all are public', async () => {
    const resolver = tableResolver({ 'example.test': [v4('8.8.8.8'), v6('2606:4700:4700::1111')] });
    await expect(resolvePublicAddress('example.test', resolver)).resolves.toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    expect(resolver.asked).toEqual(['example.test']);
  });

  it.each([
    ['the first of several', [v4('10.0.0.5'), v4('8.8.8.8'), v4('1.1.1.1')]],
    ['in the middle', [v4('8.8.8.8'), v4('127.0.0.1'), v4('1.1.1.1')]],
    ['the last of several', [v4('8.8.8.8'), v4('1.1.1.1'), v6('fe80::1')]],
    [
      'an IPv4-mapped IPv6 address after a public one',
      [v6('2606:4700:4700::1111'), v6('::ffff:169.254.169.254')],
    ],
  ])('refuses when the non-public address is %s', async (_where, addresses) => {
    const resolver = tableResolver({ 'example.test': addresses });
    const refused = resolvePublicAddress('example.test', resolver);
    await expect(refused).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(refused).rejects.toMatchObject({ hostname: 'example.test' });
  });

  it('names the host but not the internal addresses in the error', async () => {
    const error = await resolvePublicAddress(
      'example.test',
      tableResolver({ 'example.test': [v4('10.1.2.3')] }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('example.test');
    expect((error as Error).message).not.toContain('10.1.2.3');
  });

  it('takes the family from the address, not from what the resolver claims', async () => {
    const resolver = tableResolver({ 'example.test': [{ address: '2606:4700:4700::1111', family: 4 }] });
    await expect(resolvePublicAddress('example.test', resolver)).resolves.toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
  });

  it('refuses a resolver answer that is not an address', async () => {
    const resolver = tableResolver({ 'example.test': [v4('localhost')] });
    await expect(resolvePublicAddress('example.test', resolver)).rejects.toBeInstanceOf(
      NonPublicAddressError,
    );
  });

  it('reports a host that does not resolve, keeping the cause', async () => {
    const error = await resolvePublicAddress('missing.test', tableResolver({})).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(HostResolutionError);
    expect((error as HostResolutionError).hostname).toBe('missing.test');
    expect((error as HostResolutionError).cause).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('reports a host that resolves to no address', async () => {
    await expect(
      resolvePublicAddress('empty.test', tableResolver({ 'empty.test': [] })),
    ).rejects.toBeInstanceOf(HostResolutionError);
  });
});
