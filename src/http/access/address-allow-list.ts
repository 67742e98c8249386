import { BlockList, isIP } from 'node:net';

/** Names that stand for ranges, as in STAYGATE_TRUSTED_PROXIES. */
const NAMED_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/**
 * Who may call a route, from entries such as `loopback`, `10.0.0.0/8`, `192.0.2.7` or `any`.
 * IPv4 addresses written as IPv6 (`::ffff:127.0.0.1`, what a dual-stack socket reports) count as
 * their IPv4 selves. A malformed entry throws: a typo must not open or close a route silently.
 */
export function createAddressAllowList(entries: readonly string[]): (address: string) => boolean {
  if (entries.some((e) => e === 'any' || e === '*')) return () => true;
  const list = new BlockList();
  for (const entry of entries) {
    const named = NAMED_RANGES[entry];
    if (named !== undefined) {
      for (const [net, prefix, family] of named) list.addSubnet(net, prefix, family);
      continue;
    }
    const [address, prefixText] = entry.split('/');
    const family = isIP(address);
    const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`"${entry}" is not an address, a CIDR range, "loopback", "linklocal", "uniquelocal" or "any"`);
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    const v4 = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(v4);
    return family !== 0 && list.check(v4, family === 6 ? 'ipv6' : 'ipv4');
  };
}
