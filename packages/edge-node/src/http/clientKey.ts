import { isIPv6 } from 'node:net';

/**
 * The client a connection counts against for the per-client connection limit: its IPv4 address,
 * or the /64 of an IPv6 one (one host is given a whole /64 and can pick any address in it; an
 * IPv4-mapped address is its IPv4). Unknown (a socket already gone) is one shared key.
 */
export function clientKey(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined || remoteAddress === '') return '?';
  if (remoteAddress.startsWith('::ffff:') && remoteAddress.includes('.')) return remoteAddress.slice(7);
  if (!isIPv6(remoteAddress)) return remoteAddress;
  return `${expandIPv6(remoteAddress).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without zero compression or a zone. */
function expandIPv6(a: string): string[] {
  const [head, tail] = a.split('%')[0]!.split('::') as [string, string | undefined];
  const h = head === '' ? [] : head.split(':');
  if (tail === undefined) return h.map(norm);
  const t = tail === '' ? [] : tail.split(':');
  return [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t].map(norm);
}

const norm = (g: string): string => (g.includes('.') ? g : (parseInt(g, 16) || 0).toString(16));
