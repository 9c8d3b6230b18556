// Requests we make to addresses our users give us (webhook endpoints, ADR 057): the SSRF guard.
// A URL is checked when it is saved and again at every connection, against the addresses its name
// resolves to then, and the connection goes to the address that was checked (no second lookup a
// rebinding DNS server could answer differently). Redirects are never followed.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from './errors.ts';

export interface OutboundPolicy {
  /** http:// as well as https:// (outside production only; config.ts refuses it there). */
  allowHttp: boolean;
  /** Private, loopback … addresses too: tests and local receivers only (WEBHOOKS_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Resolves a host name to its addresses; tests give their own. Default: the system resolver. */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

export type UrlProblem = 'url' | 'https' | 'refused' | 'unresolved';

export class OutboundRefused extends Error {
  constructor(
    readonly problem: UrlProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Addresses no user-given URL may reach: everything that is not the public internet. */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (reaches IPv4 addresses we cannot see)
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['2001::', 32], // Teredo
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** An IPv6 address as its eight 16-bit groups. */
function groupsOf(address: string): number[] {
  let a = address.toLowerCase();
  // A trailing dotted IPv4 part is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number) as [number, number, number, number];
    a =
      a.slice(0, dotted.index) +
      `${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? (a.split('::') as [string, string]) : [a, null];
  const left = head ? head.split(':') : [];
  const right = tail === null ? [] : tail ? tail.split(':') : [];
  const middle = tail === null ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address inside an IPv4-mapped (`::ffff:127.0.0.1`, which URLs write `::ffff:7f00:1`) or
 * IPv4-compatible (`::127.0.0.1`) IPv6 address, if it is one.
 */
function embeddedIpv4(address: string): string | null {
  const g = groupsOf(address);
  if (g.length !== 8 || g.slice(0, 5).some((x) => x !== 0)) return null;
  if (g[5] !== 0xffff && !(g[5] === 0 && (g[6] !== 0 || g[7]! > 1))) return null;
  return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
}

/** Whether `address` (an IP literal) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const family = isIP(bare);
  if (family === 4) return !blocked.check(bare, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(bare);
  if (v4) return !blocked.check(v4, 'ipv4');
  return !blocked.check(bare, 'ipv6');
}

const defaultResolve = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/** The URL's shape: parseable, http(s), no credentials in it, https unless allowed. */
export function parseOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('url', 'not a URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:'))
    throw new OutboundRefused('https', 'https only');
  if (url.username || url.password) throw new OutboundRefused('url', 'credentials in the URL');
  if (!url.hostname) throw new OutboundRefused('url', 'no host');
  return url;
}

/**
 * The addresses `hostname` reaches, each checked: every one must be public (a name with one
 * private address among public ones is refused too, since a client may pick any).
 */
export async function resolveChecked(
  hostname: string,
  policy: OutboundPolicy,
): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  let found: Array<{ address: string; family: number }>;
  if (literal) found = [{ address: bare, family: literal }];
  else {
    try {
      found = await (policy.resolve ?? defaultResolve)(bare);
    } catch {
      throw new OutboundRefused('unresolved', `could not resolve ${bare}`);
    }
    if (!found.length) throw new OutboundRefused('unresolved', `could not resolve ${bare}`);
  }
  if (!policy.allowPrivate)
    for (const a of found)
      if (!isPublicAddress(a.address))
        throw new OutboundRefused(
          'refused',
          `${bare} is a private or local address (${a.address})`,
        );
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Checks a URL a user gives us (shape, then every address it resolves to now). */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy): Promise<URL> {
  const url = parseOutboundUrl(raw, policy);
  await resolveChecked(url.hostname, policy);
  return url;
}

export interface OutboundResponse {
  status: number;
  /** The first bytes of the answer, for the delivery log. */
  body: string;
}

/**
 * POSTs `body` to `raw`, connecting only to an address checked at connection time. The answer's
 * status is returned as it is (a 3xx is not followed); network failures, refusals and the time
 * limit throw.
 */
export async function postOutbound(
  raw: string,
  headers: Record<string, string>,
  body: string,
  policy: OutboundPolicy & { timeoutMs: number },
): Promise<OutboundResponse> {
  const url = parseOutboundUrl(raw, policy);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // Literal addresses skip `lookup` in Node, so they are checked here; names are checked in it.
  const [first] = await resolveChecked(hostname, policy);
  const checkedLookup: LookupFunction = (_host, options, done) => {
    const all = (options as { all?: boolean }).all;
    if (all) (done as unknown as (e: null, a: unknown[]) => void)(null, [first!]);
    else done(null, first!.address, first!.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: checkedLookup,
        // A fresh connection per delivery: a kept-alive socket could outlive the address check.
        agent: false,
        timeout: policy.timeoutMs,
        ...(isIP(hostname) ? {} : { servername: hostname }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 1024) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8').slice(0, 1024),
          }),
        );
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer within ${policy.timeoutMs} ms`)),
      policy.timeoutMs,
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${policy.timeoutMs} ms`)));
    req.on('error', reject);
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}

/**
 * A webhook URL a user gives us, checked now as delivery will check it; a refusal is a 400 on
 * `field` in the caller's words for each problem.
 */
export async function checkedUserUrl(
  raw: string,
  policy: OutboundPolicy,
  words: Record<UrlProblem, string>,
  field: string,
): Promise<string> {
  try {
    return (await checkOutboundUrl(raw, policy)).href;
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    const message = words[err.problem];
    throw new AppError('validation_failed', message, { [field]: message });
  }
}
