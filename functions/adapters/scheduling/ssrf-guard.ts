import { lookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

import { InvalidWebhookUrlError, PrivateAddressError, WebhookResolutionError } from './webhook-errors';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every one of its addresses (injected so that tests control DNS). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** A webhook URL that passed the guard, with the addresses the call may connect to and no others. */
export interface CheckedWebhookUrl {
  readonly url: URL;
  /** The host as the request names it (Host header, TLS server name); IPv6 without brackets. */
  readonly hostname: string;
  /** Every address the host resolved to, each one checked. An IP literal is its own address. */
  readonly addresses: readonly ResolvedAddress[];
}

export interface CheckWebhookUrlOptions {
  /** Defaults to the system resolver (`dns.promises.lookup`, every address, in resolver order). */
  readonly resolve?: Resolver;
  /**
   * Skips the address ranges check, never the scheme and credentials checks. Only the local
   * runtime sets it, by an explicit setting printed at start, so that a receiver on the developer's
   * machine can be called.
   */
  readonly allowPrivate: boolean;
}

/** Longer than any webhook address n8n hands out; a longer one is refused before parsing. */
const MAX_URL_LENGTH = 2048;

/** The system resolver: every address, in the order the resolver gives them. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * IPv4 ranges that are not publicly routable unicast (IANA special-purpose registry, RFC 6890 and
 * successors). 169.254.0.0/16 holds the cloud metadata endpoint 169.254.169.254.
 */
const NON_PUBLIC_IPV4: readonly (readonly [network: string, prefix: number])[] = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation TEST-NET-2
  ['203.0.113.0', 24], // documentation TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, up to and including 255.255.255.255 (limited broadcast)
];

/**
 * Ranges inside IPv6 global unicast (2000::/3) that are not public; everything outside it is refused
 * whole, and the forms that embed an IPv4 address are judged by that address first.
 */
const NON_PUBLIC_IPV6_UNICAST: readonly (readonly [network: string, prefix: number])[] = [
  ['2001::', 23], // IETF protocol assignments, Teredo 2001::/32 included
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

const nonPublicIPv4 = blockListOf(NON_PUBLIC_IPV4, 'ipv4');
const nonPublicIPv6Unicast = blockListOf(NON_PUBLIC_IPV6_UNICAST, 'ipv6');

function blockListOf(ranges: readonly (readonly [string, number])[], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

/**
 * Whether an IP address is public unicast, so that a webhook may be called on it. Anything that is
 * not a valid IPv4 or IPv6 address in standard notation is not public.
 */
export function isPublicAddress(ip: string): boolean {
  if (isIPv4(ip)) return !nonPublicIPv4.check(ip, 'ipv4');
  if (!isIPv6(ip)) return false;
  const groups = ipv6Groups(ip);
  const embedded = embeddedIPv4(groups);
  if (embedded !== undefined) return isPublicAddress(embedded);
  const [first = 0] = groups;
  const globalUnicast = (first & 0xe000) === 0x2000;
  return globalUnicast && !nonPublicIPv6Unicast.check(withoutZone(ip), 'ipv6');
}

/**
 * Checks a webhook URL before any call: http or https only, no credentials, and unless
 * `allowPrivate`, every address the host resolves to must be public. The caller connects to the
 * returned addresses only (see `pinnedRequest`), so a second, different DNS answer cannot be used.
 *
 * @throws InvalidWebhookUrlError, PrivateAddressError, WebhookResolutionError
 */
export async function checkWebhookUrl(
  rawUrl: string,
  { resolve = systemResolver, allowPrivate }: CheckWebhookUrlOptions,
): Promise<CheckedWebhookUrl> {
  const url = parseWebhookUrl(rawUrl);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const addresses = await addressesOf(hostname, resolve);
  if (!allowPrivate) {
    const refused = addresses.find(({ address }) => !isPublicAddress(address));
    if (refused) throw new PrivateAddressError(refused.address);
  }
  return { url, hostname, addresses };
}

function parseWebhookUrl(rawUrl: string): URL {
  if (rawUrl.length > MAX_URL_LENGTH) throw new InvalidWebhookUrlError('too-long');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch (error) {
    throw new InvalidWebhookUrlError('unparsable', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidWebhookUrlError('scheme');
  if (url.username !== '' || url.password !== '') throw new InvalidWebhookUrlError('credentials');
  if (url.hostname === '') throw new InvalidWebhookUrlError('host');
  return url;
}

async function addressesOf(hostname: string, resolve: Resolver): Promise<readonly ResolvedAddress[]> {
  const literal = isIP(hostname);
  // WHATWG URL has already turned decimal, octal and hex IPv4 forms into dotted quads.
  if (literal === 4 || literal === 6) return [{ address: hostname, family: literal }];
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolve(hostname);
  } catch (error) {
    throw new WebhookResolutionError(hostname, errorCode(error) ?? 'EAI_FAIL', { cause: error });
  }
  const valid = answers.filter(({ address, family }) => isIP(address) === family);
  if (valid.length === 0 || valid.length !== answers.length) {
    throw new WebhookResolutionError(hostname, undefined);
  }
  return valid;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function withoutZone(ip: string): string {
  const percent = ip.indexOf('%');
  return percent === -1 ? ip : ip.slice(0, percent);
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad included). */
function ipv6Groups(ip: string): number[] {
  let text = withoutZone(ip);
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  if (rest === undefined) return headParts.map((part) => Number.parseInt(part, 16));
  const restParts = rest === '' ? [] : rest.split(':');
  const zeros = new Array<string>(8 - headParts.length - restParts.length).fill('0');
  return [...headParts, ...zeros, ...restParts].map((part) => Number.parseInt(part, 16));
}

/**
 * The IPv4 address an IPv6 address stands for, in the forms that carry one to a v4 host:
 * IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d (RFC 6052) and 6to4 2002:aabb:ccdd::/48.
 * IPv4-compatible ::a.b.c.d is deprecated and simply refused (it lies outside 2000::/3).
 */
function embeddedIPv4(groups: readonly number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return dotted(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  if (g0 === 0x2002) return dotted(g1, g2);
  return undefined;
}
