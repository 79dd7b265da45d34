import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPublicAddress } from '../../../../functions/adapters/scheduling/ssrf-guard';
import {
  InvalidWebhookUrlError,
  PrivateAddressError,
  WebhookResolutionError,
} from '../../../../functions/adapters/scheduling/webhook-errors';
import { MESSAGES } from '../../../../shared/messages';
import { scriptedResolver } from '../../../support/receiver';

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:4700:4700::1111';

interface RefusedCase {
  readonly url: string;
  /** What the resolver answers for a host name; literal hosts must never reach it. */
  readonly resolvesTo?: readonly string[];
}

/** URLs that are not http(s) URLs we may call, whatever `allowPrivate` says. */
const INVALID: readonly (RefusedCase & { readonly reason: string })[] = [
  { url: 'ftp://n8n.example.com/webhook/a', reason: 'scheme' },
  { url: 'file:///etc/passwd', reason: 'scheme' },
  { url: 'javascript:alert(1)', reason: 'scheme' },
  { url: 'gopher://127.0.0.1:6379/_FLUSHALL', reason: 'scheme' },
  { url: 'data:text/plain,bonjour', reason: 'scheme' },
  { url: 'ws://n8n.example.com/webhook/a', reason: 'scheme' },
  { url: 'http://user:pass@n8n.example.com/webhook/a', reason: 'credentials' },
  { url: 'https://user@n8n.example.com/webhook/a', reason: 'credentials' },
  { url: 'https://:secret@n8n.example.com/webhook/a', reason: 'credentials' },
  { url: 'pas une url', reason: 'unparsable' },
  { url: 'http://[fe80::1%25eth0]/', reason: 'unparsable' },
  { url: `https://n8n.example.com/${'a'.repeat(3000)}`, reason: 'too-long' },
];

/** URLs that lead to a loopback, private or reserved address, in every spelling we know of. */
const PRIVATE: readonly (RefusedCase & { readonly what: string })[] = [
  { what: 'loopback', url: 'http://127.0.0.1/' },
  { what: 'loopback, top of 127/8', url: 'http://127.255.255.254:5678/' },
  { what: 'loopback in decimal', url: 'http://2130706433/' },
  { what: 'loopback in octal', url: 'http://0177.0.0.1/' },
  { what: 'loopback in hex', url: 'http://0x7f.1/' },
  { what: 'loopback as one hex number', url: 'http://0x7f000001/' },
  { what: 'loopback shortened', url: 'http://127.1/' },
  { what: 'this network', url: 'http://0.0.0.0/' },
  { what: 'this network as 0', url: 'http://0/' },
  { what: 'private 10/8', url: 'http://10.0.0.1/' },
  { what: 'private 10/8 in octal', url: 'http://012.0.0.1/' },
  { what: 'carrier-grade NAT', url: 'http://100.64.0.1/' },
  { what: 'carrier-grade NAT, top', url: 'http://100.127.255.255/' },
  { what: 'cloud metadata', url: 'http://169.254.169.254/latest/meta-data/' },
  { what: 'cloud metadata in decimal', url: 'http://2852039166/' },
  { what: 'private 172.16/12', url: 'http://172.16.0.1/' },
  { what: 'private 172.16/12, top', url: 'http://172.31.255.255/' },
  { what: 'IETF protocol assignments', url: 'http://192.0.0.8/' },
  { what: 'TEST-NET-1', url: 'http://192.0.2.1/' },
  { what: '6to4 relay anycast', url: 'http://192.88.99.1/' },
  { what: 'private 192.168/16', url: 'http://192.168.1.1/' },
  { what: 'private 192.168/16 in hex', url: 'http://0xc0a80101/' },
  { what: 'benchmarking', url: 'http://198.18.0.1/' },
  { what: 'benchmarking, top', url: 'http://198.19.255.255/' },
  { what: 'TEST-NET-2', url: 'http://198.51.100.7/' },
  { what: 'TEST-NET-3', url: 'http://203.0.113.9/' },
  { what: 'multicast', url: 'http://224.0.0.1/' },
  { what: 'multicast SSDP', url: 'http://239.255.255.250/' },
  { what: 'reserved 240/4', url: 'http://240.0.0.1/' },
  { what: 'limited broadcast', url: 'http://255.255.255.255/' },
  { what: 'IPv6 loopback', url: 'http://[::1]/' },
  { what: 'IPv6 unspecified', url: 'http://[::]/' },
  { what: 'IPv4-mapped loopback', url: 'http://[::ffff:7f00:1]/' },
  { what: 'IPv4-mapped loopback, dotted', url: 'http://[::ffff:127.0.0.1]/' },
  { what: 'IPv4-mapped loopback, in full', url: 'http://[0:0:0:0:0:ffff:127.0.0.1]/' },
  { what: 'IPv4-mapped metadata', url: 'http://[::ffff:a9fe:a9fe]/' },
  { what: 'IPv4-mapped private', url: 'http://[::ffff:10.0.0.1]/' },
  { what: 'IPv4-compatible loopback', url: 'http://[::127.0.0.1]/' },
  { what: 'IPv4-compatible, even of a public address', url: 'http://[::8.8.8.8]/' },
  { what: 'NAT64 of loopback', url: 'http://[64:ff9b::7f00:1]/' },
  { what: 'NAT64 of metadata', url: 'http://[64:ff9b::169.254.169.254]/' },
  { what: 'local-use NAT64', url: 'http://[64:ff9b:1::808:808]/' },
  { what: 'discard-only', url: 'http://[100::1]/' },
  { what: 'Teredo', url: 'http://[2001::1]/' },
  { what: 'Teredo, real form', url: 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/' },
  { what: 'IETF protocol assignments v6 (ORCHIDv2)', url: 'http://[2001:20::1]/' },
  { what: 'IPv6 documentation', url: 'http://[2001:db8::1]/' },
  { what: 'IPv6 documentation 3fff::/20', url: 'http://[3fff::1]/' },
  { what: '6to4 of loopback', url: 'http://[2002:7f00:1::1]/' },
  { what: '6to4 of a private address', url: 'http://[2002:c0a8:101::1]/' },
  { what: 'unique-local fc00::/7', url: 'http://[fc00::1]/' },
  { what: 'unique-local fd00::/8', url: 'http://[fd12:3456:789a::1]/' },
  { what: 'link-local', url: 'http://[fe80::1]/' },
  { what: 'link-local, top of fe80::/10', url: 'http://[febf::1]/' },
  { what: 'site-local', url: 'http://[fec0::1]/' },
  { what: 'multicast v6', url: 'http://[ff02::1]/' },
  { what: 'a name for metadata', url: 'http://metadata.test/', resolvesTo: ['169.254.169.254'] },
  { what: 'a name for loopback v6', url: 'https://n8n.test/webhook/a', resolvesTo: ['::1'] },
  { what: 'a name for mapped private', url: 'https://n8n.test/', resolvesTo: ['::ffff:192.168.0.1'] },
  { what: 'public then private v4', url: 'https://n8n.test/', resolvesTo: [PUBLIC_V4, '10.0.0.5'] },
  { what: 'private then public v4', url: 'https://n8n.test/', resolvesTo: ['10.0.0.5', PUBLIC_V4] },
  { what: 'public v4 and loopback v6', url: 'https://n8n.test/', resolvesTo: [PUBLIC_V4, PUBLIC_V6, '::1'] },
];

/** Public destinations: these must go through, or the guard is useless. */
const ALLOWED: readonly (RefusedCase & { readonly what: string })[] = [
  { what: 'public IPv4', url: `http://${PUBLIC_V4}/webhook/a` },
  { what: 'public IPv4 on the n8n port', url: 'http://8.8.8.8:5678/webhook/a' },
  { what: 'just above 172.16/12', url: 'http://172.32.0.1/' },
  { what: 'just above carrier-grade NAT', url: 'http://100.128.0.1/' },
  { what: 'just above benchmarking', url: 'http://198.20.0.1/' },
  { what: 'public IPv6', url: `https://[${PUBLIC_V6}]/` },
  { what: 'just above 2001::/23', url: 'https://[2001:200::1]/' },
  { what: 'IPv4-mapped public', url: 'http://[::ffff:8.8.8.8]/' },
  { what: 'NAT64 of a public address', url: 'http://[64:ff9b::808:808]/' },
  { what: '6to4 of a public address', url: 'http://[2002:808:808::1]/' },
  {
    what: 'a name for public addresses',
    url: 'https://n8n.example.com/webhook/a',
    resolvesTo: [PUBLIC_V4, PUBLIC_V6],
  },
];

describe('checkWebhookUrl', () => {
  it('holds at least 40 refused cases', () => {
    expect(INVALID.length + PRIVATE.length).toBeGreaterThanOrEqual(40);
  });

  describe.each([false, true])('with allowPrivate %s', (allowPrivate) => {
    it.each(INVALID)('refuses $url as an invalid URL ($reason)', async ({ url, reason }) => {
      const resolver = scriptedResolver([PUBLIC_V4]);

      const checking = checkWebhookUrl(url, { resolve: resolver.resolve, allowPrivate });

      await expect(checking).rejects.toBeInstanceOf(InvalidWebhookUrlError);
      await expect(checking).rejects.toMatchObject({ reason, message: MESSAGES.execution.invalidWebhookUrl });
      expect(resolver.calls).toEqual([]);
    });
  });

  it.each(PRIVATE)('refuses $what: $url', async ({ url, resolvesTo }) => {
    const resolver = scriptedResolver(resolvesTo ?? ['should-not-be-asked']);

    const checking = checkWebhookUrl(url, { resolve: resolver.resolve, allowPrivate: false });

    await expect(checking).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(checking).rejects.toThrow(
      'Adresse du webhook refusée : elle mène à un réseau privé ou réservé',
    );
    expect(resolver.calls).toEqual(resolvesTo ? [new URL(url).hostname] : []);
  });

  it.each(ALLOWED)('accepts $what: $url', async ({ url, resolvesTo }) => {
    const resolver = scriptedResolver(resolvesTo ?? ['should-not-be-asked']);

    const checked = await checkWebhookUrl(url, { resolve: resolver.resolve, allowPrivate: false });

    expect(checked.url.href).toBe(new URL(url).href);
    expect(checked.addresses.map(({ address }) => address)).toEqual(
      resolvesTo ?? [new URL(url).hostname.replace(/^\[|\]$/g, '')],
    );
    expect(resolver.calls).toEqual(resolvesTo ? [new URL(url).hostname] : []);
  });

  it.each(PRIVATE)(
    'lets the local runtime call $what when private addresses are allowed',
    async ({ url, resolvesTo }) => {
      const resolver = scriptedResolver(resolvesTo ?? ['should-not-be-asked']);

      const checked = await checkWebhookUrl(url, { resolve: resolver.resolve, allowPrivate: true });

      expect(checked.addresses.length).toBeGreaterThan(0);
    },
  );

  it('normalises every IPv4 spelling to the dotted quad it connects to', async () => {
    const spellings = ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/'];

    const checked = await Promise.all(spellings.map((url) => checkWebhookUrl(url, { allowPrivate: true })));

    expect(checked.map(({ hostname, addresses }) => [hostname, addresses])).toEqual(
      spellings.map(() => ['127.0.0.1', [{ address: '127.0.0.1', family: 4 }]]),
    );
  });

  it('normalises bracketed IPv6 literals and drops the brackets from the host name', async () => {
    const checked = await checkWebhookUrl('http://[0:0:0:0:0:ffff:127.0.0.1]:5678/x', { allowPrivate: true });

    expect(checked.hostname).toBe('::ffff:7f00:1');
    expect(checked.addresses).toEqual([{ address: '::ffff:7f00:1', family: 6 }]);
  });

  it('names the refused address on the error, for the logs', async () => {
    const resolver = scriptedResolver([PUBLIC_V4, '10.1.2.3']);

    const checking = checkWebhookUrl('https://n8n.test/', { resolve: resolver.resolve, allowPrivate: false });

    await expect(checking).rejects.toMatchObject({ address: '10.1.2.3' });
  });

  it('refuses localhost through the system resolver', async () => {
    await expect(
      checkWebhookUrl('http://localhost:5678/webhook/a', { allowPrivate: false }),
    ).rejects.toBeInstanceOf(PrivateAddressError);
  });

  it('reports a name that does not resolve as a connection error worth retrying', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND n8n.invalid'), { code: 'ENOTFOUND' });
    };

    const checking = checkWebhookUrl('https://n8n.invalid/', { resolve, allowPrivate: false });

    await expect(checking).rejects.toBeInstanceOf(WebhookResolutionError);
    await expect(checking).rejects.toThrow('Erreur de connexion: nom de domaine introuvable');
  });

  it('reports an empty answer as a connection error', async () => {
    const resolver = scriptedResolver([]);

    const checking = checkWebhookUrl('https://n8n.test/', { resolve: resolver.resolve, allowPrivate: false });

    await expect(checking).rejects.toThrow('Erreur de connexion: aucune adresse trouvée pour ce nom');
  });

  it('refuses an answer that is not an IP address rather than guessing', async () => {
    const resolver = scriptedResolver([PUBLIC_V4, 'localhost']);

    const checking = checkWebhookUrl('https://n8n.test/', { resolve: resolver.resolve, allowPrivate: false });

    await expect(checking).rejects.toBeInstanceOf(WebhookResolutionError);
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', false],
    ['0.255.255.255', false],
    ['1.0.0.0', true],
    ['9.255.255.255', true],
    ['10.0.0.0', false],
    ['10.255.255.255', false],
    ['11.0.0.0', true],
    ['100.63.255.255', true],
    ['100.64.0.0', false],
    ['100.127.255.255', false],
    ['100.128.0.0', true],
    ['126.255.255.255', true],
    ['127.0.0.0', false],
    ['128.0.0.0', true],
    ['169.253.255.255', true],
    ['169.254.0.0', false],
    ['169.254.255.255', false],
    ['169.255.0.0', true],
    ['172.15.255.255', true],
    ['172.16.0.0', false],
    ['172.31.255.255', false],
    ['172.32.0.0', true],
    ['192.0.0.0', false],
    ['192.0.1.0', true],
    ['192.0.2.255', false],
    ['192.88.99.0', false],
    ['192.167.255.255', true],
    ['192.168.0.0', false],
    ['192.169.0.0', true],
    ['198.17.255.255', true],
    ['198.18.0.0', false],
    ['198.20.0.0', true],
    ['198.51.100.0', false],
    ['203.0.113.255', false],
    ['223.255.255.255', true],
    ['224.0.0.0', false],
    ['239.255.255.255', false],
    ['240.0.0.0', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['::ffff:0:0', false],
    ['::ffff:8.8.8.8', true],
    ['::ffff:808:808', true],
    ['::ffff:c0a8:1', false],
    ['::ffff:0:808:808', false],
    ['::808:808', false],
    ['64:ff9b::808:808', true],
    ['64:ff9b::a00:1', false],
    ['64:ff9b:1::1', false],
    ['100::', false],
    ['100::ffff:ffff:ffff:ffff', false],
    ['1fff:ffff::1', false],
    ['2000::1', true],
    ['2001::', false],
    ['2001:1ff:ffff::1', false],
    ['2001:200::1', true],
    ['2001:db8::', false],
    ['2001:db8:ffff::1', false],
    ['2001:db9::1', true],
    ['2002::', false],
    ['2002:808:808::', true],
    ['2002:a9fe:a9fe::1', false],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4007:80e::200e', true],
    ['3fff::1', false],
    ['4000::1', false],
    ['5f00::1', false],
    ['fc00::', false],
    ['fdff:ffff::1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['febf:ffff::1', false],
    ['fec0::1', false],
    ['ff00::', false],
    ['ff0e::1', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it.each(['', 'localhost', '0177.0.0.1', '127.1', '2130706433', '[::1]', '1.2.3.4.5', 'gggg::1'])(
    'treats %j, which is not an address in standard notation, as not public',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});
