// What the device list says about a sign-in (ADR 058): a readable name from the User-Agent and a
// masked address. Small on purpose: the common browsers and systems, "Unknown" for the rest.
import { isIPv4, isIPv6 } from 'node:net';

/** Browsers, most specific first: Edge and Opera say "Chrome" too, Chrome says "Safari". */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPad\b/, 'iPad'],
  [/\b(?:iPhone|iPod)\b/, 'iPhone'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on Windows", "Safari on iPhone", "Firefox", "Unknown device". */
export function deviceName(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/**
 * An address with its host part hidden: IPv4 keeps three bytes (`203.0.113.x`), IPv6 its first
 * three groups (`2001:db8:85a3::x`). The place is looked up before masking (platform/places.ts).
 */
export function maskAddress(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const v4 = mapped ?? address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.x`;
  if (!isIPv6(address)) return 'unknown';
  const [head = '', tail] = address.split('::');
  const groups = head ? head.split(':') : [];
  // A short head ("2001:db8::1") pads with zero groups, as the address means.
  while (groups.length < 3 && tail !== undefined) groups.push('0');
  return `${groups.slice(0, 3).join(':')}::x`;
}

/** User agents are the client's to write: kept short. */
export const clippedUserAgent = (ua: string | undefined): string | null =>
  ua ? ua.slice(0, 400) : null;
