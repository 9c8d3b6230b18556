/**
 * The vendor's storefront and payouts (issue 19, ADR 041): limits, rules and messages as plain
 * values, no zod, so the form and the server say the same things.
 */
import { isReservedName } from '../rules/reserved-names.ts';

export const VENDOR_URL_MIN = 3;
export const VENDOR_URL_MAX = 30;
export const STOREFRONT_NAME_MAX = 60;
export const STOREFRONT_BIO_MAX = 600;
export const SOCIAL_LINK_MAX_LENGTH = 200;
export const SOCIAL_LINKS_MAX = 5;
/** Old addresses kept as redirects; a vendor renames at most this many times (ADR 041). */
export const VENDOR_URL_RENAMES_MAX = 5;

/**
 * Addresses nobody may take: they read as the platform speaking, or as one of its pages. Storefronts
 * live under `/v/`, so these protect people, not routes.
 */
export const reservedVendorUrls: readonly string[] = [
  'about',
  'account',
  'admin',
  'administrator',
  'affiliate',
  'affiliates',
  'api',
  'app',
  'apps',
  'billing',
  'blog',
  'checkout',
  'contact',
  'dashboard',
  'dev',
  'discord',
  'docs',
  'help',
  'login',
  'logout',
  'mod',
  'moderator',
  'new',
  'null',
  'official',
  'orders',
  'payments',
  'payouts',
  'premium',
  'privacy',
  'pro-plus',
  'root',
  'sandbox',
  'search',
  'security',
  'settings',
  'signup',
  'sitemap',
  'staff',
  'status',
  'support',
  'system',
  'team',
  'terms',
  'tradeshelf',
  'undefined',
  'vendor',
  'vendors',
  'www',
];

/** Where a vendor links to, in the order the form shows them. */
export const socialLinkKinds = [
  'website',
  'x',
  'youtube',
  'discord',
  'tradingview',
  'telegram',
  'instagram',
] as const;
export type SocialLinkKind = (typeof socialLinkKinds)[number];

export const socialLinkLabels: Record<SocialLinkKind, string> = {
  website: 'Website',
  x: 'X (Twitter)',
  youtube: 'YouTube',
  discord: 'Discord invite',
  tradingview: 'TradingView profile',
  telegram: 'Telegram',
  instagram: 'Instagram',
};

/** The hosts each kind of link may point at (any host for a website); `www.` is allowed too. */
export const socialLinkHosts: Record<SocialLinkKind, readonly string[] | null> = {
  website: null,
  x: ['x.com', 'twitter.com'],
  youtube: ['youtube.com', 'youtu.be', 'm.youtube.com'],
  discord: ['discord.gg', 'discord.com'],
  tradingview: ['tradingview.com'],
  telegram: ['t.me', 'telegram.me'],
  instagram: ['instagram.com'],
};

export const socialLinkExamples: Record<SocialLinkKind, string> = {
  website: 'https://example.com',
  x: 'https://x.com/yourname',
  youtube: 'https://youtube.com/@yourchannel',
  discord: 'https://discord.gg/invite-code',
  tradingview: 'https://www.tradingview.com/u/yourname/',
  telegram: 'https://t.me/yourchannel',
  instagram: 'https://instagram.com/yourname',
};

export const storefrontImageKinds = ['avatar', 'banner'] as const;
export type StorefrontImageKind = (typeof storefrontImageKinds)[number];

export const vendorUrlMessages = {
  required: 'Choose a storefront address.',
  length: `The address must be between ${VENDOR_URL_MIN} and ${VENDOR_URL_MAX} characters long.`,
  invalid:
    'Use lower-case letters, numbers and single hyphens; start and end with a letter or number.',
  reserved: 'That address is reserved. Try another.',
  taken: 'That address is taken. Try another.',
  available: 'That address is available.',
  yours: 'This is your storefront’s address.',
  tooManyRenames: `You have changed your address ${VENDOR_URL_RENAMES_MAX} times. Contact support to change it again.`,
} as const;

export const storefrontMessages = {
  vendorsOnly: 'Become a vendor first: only vendors have a storefront.',
  setUpFirst: 'Set up your storefront first: save its address and name, then add pictures.',
  nameRequired: 'Enter your storefront’s name.',
  nameLength: `The name must be at most ${STOREFRONT_NAME_MAX} characters long.`,
  nameReserved: 'That name is reserved: it could be mistaken for Tradeshelf staff. Choose another.',
  bioLength: `The bio must be at most ${STOREFRONT_BIO_MAX} characters long.`,
  unreadable: 'This contains characters we cannot read. Remove them and try again.',
  tooManyLinks: `Add at most ${SOCIAL_LINKS_MAX} links.`,
  linkInvalid: 'Enter a full address starting with https://.',
  linkHttps: 'Links must start with https://.',
  linkLength: `A link must be at most ${SOCIAL_LINK_MAX_LENGTH} characters long.`,
  linkCredentials: 'Links cannot contain a user name or password.',
  saved: 'Storefront saved.',
  created: 'Storefront created. Add pictures and set up payouts next.',
  imageSaved: 'Picture saved.',
  imageRemoved: 'Picture removed.',
} as const;

/** "Link to x.com or twitter.com." */
export function linkHostMessage(kind: SocialLinkKind): string {
  const hosts = socialLinkHosts[kind];
  if (!hosts) return storefrontMessages.linkInvalid;
  const names = hosts.filter((h) => !h.startsWith('m.'));
  const list =
    names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
  return `Link to ${list}.`;
}

/**
 * The storefront address as it will be stored (trimmed, lower case): addresses are matched without
 * regard to case, and one spelling keeps links and the sitemap canonical.
 */
export function normaliseVendorUrl(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * The message for a badly formed storefront address (after `normaliseVendorUrl`), or null. Reserved
 * words are a separate check: a storefront that already has one (the platform's own) may keep it.
 */
export function vendorUrlShapeProblem(value: string): string | null {
  if (!value) return vendorUrlMessages.required;
  if (value.length < VENDOR_URL_MIN || value.length > VENDOR_URL_MAX)
    return vendorUrlMessages.length;
  if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(value) || value.includes('--'))
    return vendorUrlMessages.invalid;
  return null;
}

/** The message for an address someone asks for as new (shape and reserved words), or null. */
export function validateVendorUrl(value: string): string | null {
  const shape = vendorUrlShapeProblem(value);
  if (shape) return shape;
  if (reservedVendorUrls.includes(value)) return vendorUrlMessages.reserved;
  return null;
}

/**
 * The message for a storefront name that passes for the platform (ADR 052), or null. Like a reserved
 * address, the name a storefront already has may stay (the platform's own storefront).
 */
export function reservedStorefrontName(name: string, current: string | null): string | null {
  return name !== current && isReservedName(name) ? storefrontMessages.nameReserved : null;
}

/** The message for a bad social link of `kind` (already trimmed, non-empty), or null when valid. */
export function validateSocialLink(kind: SocialLinkKind, value: string): string | null {
  if (value.length > SOCIAL_LINK_MAX_LENGTH) return storefrontMessages.linkLength;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return storefrontMessages.linkInvalid;
  }
  if (url.protocol !== 'https:') return storefrontMessages.linkHttps;
  if (url.username || url.password) return storefrontMessages.linkCredentials;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (!host.includes('.')) return storefrontMessages.linkInvalid;
  const allowed = socialLinkHosts[kind];
  if (allowed && !allowed.includes(host)) return linkHostMessage(kind);
  return null;
}

// Payouts ------------------------------------------------------------------------------------------

/**
 * Where the vendor's payout account stands: `not_started` (no account at the provider),
 * `incomplete` (details still due), `pending_verification` (submitted, the provider is checking),
 * `active` (takes payments and pays out) or `restricted` (the provider disabled it).
 */
export const payoutAccountStatuses = [
  'not_started',
  'incomplete',
  'pending_verification',
  'active',
  'restricted',
] as const;
export type PayoutAccountStatus = (typeof payoutAccountStatuses)[number];

export const payoutStatusLabels: Record<PayoutAccountStatus, string> = {
  not_started: 'Not started',
  incomplete: 'Onboarding incomplete',
  pending_verification: 'Pending verification',
  active: 'Active',
  restricted: 'Restricted',
};

/** Sales younger than this many days count as pending: refunds come mostly in the first week. */
export const VENDOR_PENDING_DAYS = 7;

export const payoutMessages = {
  storefrontFirst: 'Set up your storefront first: payouts go to the vendor behind a storefront.',
  notStarted: 'Set up payouts to receive the money from your sales.',
  incomplete: 'The payment provider still needs some details before it can pay you.',
  pendingVerification:
    'Your details are with the payment provider, which is checking them. This usually takes a few minutes, sometimes a day or two.',
  active: 'Your payout account is active: sales pay out to it.',
  restricted: 'The payment provider has restricted your account. Continue onboarding to fix it.',
  unavailable: 'The payment provider did not answer. Try again in a minute.',
  salesToAccount: 'Checkout pays your sales into this account.',
  salesCollected:
    'Sales still go through while the account cannot take payments: Tradeshelf collects them and records your share here.',
  paidOutByProvider:
    'The payment provider sends your balance to your bank on its schedule; its dashboard lists each payout.',
} as const;
