/**
 * Deliverables (issue 29): what a product hands its buyers to download — files per platform, each a
 * numbered version with notes, a set-up guide, and the promise about updates. Plain values, no zod.
 */
import { groupThousands } from '../format.ts';

/** Where a file runs. `any` is for what every buyer can use (PDF manuals, presets, templates). */
export const deliverablePlatforms = [
  'mt4',
  'mt5',
  'ninjatrader',
  'ctrader',
  'tradestation',
  'thinkorswim',
  'windows',
  'macos',
  'any',
] as const;
export type DeliverablePlatform = (typeof deliverablePlatforms)[number];

export const deliverablePlatformLabels: Record<DeliverablePlatform, string> = {
  mt4: 'MetaTrader 4',
  mt5: 'MetaTrader 5',
  ninjatrader: 'NinjaTrader 8',
  ctrader: 'cTrader',
  tradestation: 'TradeStation',
  thinkorswim: 'thinkorswim',
  windows: 'Windows',
  macos: 'macOS',
  any: 'Any platform',
};

/**
 * The file names each platform takes (checked again by the bytes, server side). thinkorswim studies
 * are shared as links (`linkPlatforms`), not files.
 */
export const deliverableExtensions: Record<DeliverablePlatform, readonly string[]> = {
  mt4: ['.ex4', '.mq4', '.set', '.tpl', '.zip'],
  mt5: ['.ex5', '.mq5', '.set', '.tpl', '.zip'],
  ninjatrader: ['.zip'],
  ctrader: ['.algo', '.zip'],
  tradestation: ['.eld', '.zip'],
  thinkorswim: [],
  windows: ['.exe', '.msi', '.zip'],
  macos: ['.dmg', '.pkg', '.zip'],
  any: ['.pdf', '.zip', '.set', '.tpl', '.csv', '.txt'],
};

/** Platforms whose versions are links the buyer opens (a thinkorswim shared-item link), not files. */
export const linkPlatforms: readonly DeliverablePlatform[] = ['thinkorswim'];

/** What the product promises about new versions; enforced on every download. */
export const updatePolicies = ['lifetime', 'year', 'none'] as const;
export type UpdatePolicy = (typeof updatePolicies)[number];
export const updatePolicyLabels: Record<UpdatePolicy, string> = {
  lifetime: 'Lifetime updates',
  year: 'Updates for 12 months after purchase',
  none: 'The version you buy, without updates',
};
/** Subscriptions get every version while the subscription runs, whatever the policy says. */
export const SUBSCRIPTION_UPDATES_LABEL = 'Updates while your subscription is active';

export const DELIVERABLE_MAX_BYTES = 200 * 1024 * 1024;
export const RELEASE_NOTES_MAX = 4_000;
export const SETUP_GUIDE_MAX = 40_000;
/** `2.4`, `1.2.0`, `2024.11`, `3.0.0-beta.2`. */
export const DELIVERABLE_VERSION_MAX = 32;
export const deliverableVersionPattern = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,31}$/;
/** How long a download link works; a new one is a click away. */
export const DOWNLOAD_LINK_SECONDS = 10 * 60;
/**
 * The page a new-version e-mail's unsubscribe link opens (`?token=`): it posts the token to
 * `unsubscribeVersionMails` with one click.
 */
export const VERSION_MAILS_UNSUBSCRIBE_PATH = '/version-mails/unsubscribe';

export const deliverableMessages = {
  productNotFound: 'We could not find that product among your products.',
  notOwned: 'We could not find that product in your library.',
  versionNotFound: 'We could not find that version.',
  version: 'Give the version a number such as 2.4 or 1.2.0 (letters, digits, dots, + and -).',
  versionTaken: 'This platform already has a version with that number. Use a new number.',
  notes: `Keep the release notes to ${groupThousands(RELEASE_NOTES_MAX)} characters or fewer.`,
  guide: `Keep the set-up guide to ${groupThousands(SETUP_GUIDE_MAX)} characters or fewer.`,
  platform: 'Choose the platform this file is for.',
  linkOnly:
    'thinkorswim studies are shared as links: paste the shared-item link instead of a file.',
  fileOnly: 'This platform takes a file, not a link.',
  link: 'Paste the https:// link thinkorswim gave you when you shared the study.',
  tooLarge: 'Files can be up to 200 MB.',
  missing: 'Choose a file to upload.',
  wrongType:
    'That file is not one this platform takes, or its contents do not match its name. Check the list of file types.',
  archiveUnsafe:
    'That archive cannot be offered: it holds paths outside itself, an unreadable name, or expands to far more than its size.',
  alreadyPublished: 'This version is already published.',
  notPublished: 'Publish this version first; only a published version can be the current one.',
  draftOnly: 'Only a draft can be deleted. Publish another version, then make that one current.',
  published: 'Version published. Owners who get updates have been told by e-mail.',
  madeCurrent: 'That version is now the one buyers download.',
  saved: 'Delivery settings saved.',
  /** The alt text a new guide picture starts with, for the vendor to replace with what it shows. */
  guideImageAlt: 'Describe what this picture shows',
  guideImageAdded:
    'Picture added at the end of the guide. Describe it in the brackets, move it where it belongs, then save.',
  linkExpired: 'That download link has expired. Start the download again from your library.',
  /** Reasons a buyer cannot download, shown with the 403. */
  ended: {
    refunded: 'This purchase was refunded, so its downloads have ended.',
    disputed: 'This purchase is disputed, so its downloads are paused until the dispute ends.',
    revoked: 'The vendor ended your access to this product.',
    expired: 'Your subscription has ended. Subscribe again to download.',
  },
  outsideUpdates:
    'This version came out after the updates your purchase includes. The versions you can download are listed.',
  unsubscribed: 'You will not get e-mails about new versions of this product.',
  subscribed: 'New versions of this product will be e-mailed to you.',
  unsubscribeInvalid: 'That unsubscribe link is not valid. Use the link in the latest e-mail.',
} as const;
export type DownloadEndReason = keyof typeof deliverableMessages.ended;
