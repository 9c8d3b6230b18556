/** The vendor's product editor: statuses, plan billing, limits and messages (plain values, no zod). */
import { hasUnreadableCharacters } from '../rules/text.ts';
import { priceIntervals } from './catalog.ts';
import { groupThousands } from '../format.ts';

/**
 * Where a product stands: `draft` (never published), `published` (public: page, search, storefront,
 * sitemap) or `unpublished` (was public, now hidden; buyers keep what they bought).
 */
export const vendorProductStatuses = ['draft', 'published', 'unpublished'] as const;
export type VendorProductStatus = (typeof vendorProductStatuses)[number];

/** How a plan bills: once, or every interval. */
export const planBillings = ['one_time', ...priceIntervals] as const;
export type PlanBilling = (typeof planBillings)[number];
export const planBillingLabels: Record<PlanBilling, string> = {
  one_time: 'One-time',
  week: 'Weekly',
  month: 'Monthly',
  quarter: 'Quarterly',
  year: 'Yearly',
};
/** The billings the editor offers for a new plan (others stay editable where they exist). */
export const newPlanBillings = ['one_time', 'month', 'year'] as const;

export const planCurrencies = ['usd', 'eur', 'gbp'] as const;
export type PlanCurrency = (typeof planCurrencies)[number];

export const PRODUCT_TITLE_MAX = 120;
export const PRODUCT_SUMMARY_MAX = 300;
export const PRODUCT_DESCRIPTION_MAX = 20_000;
export const PRODUCT_TAGS_MAX = 12;
export const PRODUCT_TAG_MAX = 32;
export const PRODUCT_PREREQUISITES_MAX = 10;
export const PRODUCT_PLANS_MAX = 6;
/** Minor units: $1.00 to $100,000.00 (or the same figures in the other currencies). */
export const PLAN_AMOUNT_MIN = 100;
export const PLAN_AMOUNT_MAX = 10_000_000;
export const PLAN_TRIAL_DAYS_MAX = 90;
export const VENDOR_PRODUCTS_PAGE_MAX = 100;

export const vendorProductMessages = {
  setUpStorefront: 'Set up your storefront first: products are sold from it.',
  notFound: 'We could not find that product among yours.',
  baseUpdatedAt: 'baseUpdatedAt must be the product’s updatedAt, as an ISO date and time.',
  editConflict:
    'This product was changed in another tab or window since you opened it, so nothing was saved. Load the latest version, or save yours to replace it.',
  badCursor: 'That page link has expired. Reload the list.',
  kind: 'Choose what kind of product this is.',
  titleRequired: 'Give the product a title.',
  titleMax: `Keep the title to ${PRODUCT_TITLE_MAX} characters or fewer.`,
  summaryRequired: 'Write a one-line summary buyers see in search results.',
  summaryMax: `Keep the summary to ${PRODUCT_SUMMARY_MAX} characters or fewer.`,
  descriptionMax: `Keep the description to ${groupThousands(PRODUCT_DESCRIPTION_MAX)} characters or fewer.`,
  unreadable: 'This contains characters we cannot read. Remove them and try again.',
  tag: `A tag is 1 to ${PRODUCT_TAG_MAX} letters, digits, spaces or dashes.`,
  tagsMax: `Use at most ${PRODUCT_TAGS_MAX} tags.`,
  tagsUnique: 'Each tag once, please.',
  platform: 'Choose platforms from the list.',
  assetClass: 'Choose markets from the list.',
  listUnique: 'Choose each one once.',
  prerequisitesMax: `Require at most ${PRODUCT_PREREQUISITES_MAX} other products.`,
  prerequisiteUnknown: 'Prerequisites must be other products of yours.',
  prerequisiteSelf: 'A product cannot require itself.',
  prerequisiteCycle:
    'One of these prerequisites already requires this product, so nobody could buy either. Remove it.',
  plansMax: `Offer at most ${PRODUCT_PLANS_MAX} plans.`,
  planRequired: 'Add at least one plan with a price.',
  billing: 'Choose how the plan bills: one-time, monthly or yearly.',
  amount: `Enter a price from ${PLAN_AMOUNT_MIN / 100} to ${groupThousands(PLAN_AMOUNT_MAX / 100)} in whole cents.`,
  currency: 'Choose a currency from the list.',
  oneCurrency: 'Use one currency for every plan of a product.',
  trialDays: `Free trials last 0 to ${PLAN_TRIAL_DAYS_MAX} whole days.`,
  trialOneTime: 'Free trials are for monthly or yearly plans only.',
  duplicatePlan: 'Two plans bill the same way. Keep one of them.',
  published: 'Published. It is on your storefront and in search now.',
  unpublished: 'Unpublished. Buyers who bought it keep their access.',
  saved: 'Saved.',
  imageUnknown: 'That picture is no longer on this product. Reload the page and try again.',
  imagesUnique: 'List each picture once.',
} as const;

/** What stops a product from being published, in words, by field. */
export function missingToPublish(product: {
  title: string;
  summary: string;
  plans: readonly unknown[];
}): Partial<Record<'title' | 'summary' | 'plans', string>> {
  const missing: Partial<Record<'title' | 'summary' | 'plans', string>> = {};
  if (!product.title.trim()) missing.title = vendorProductMessages.titleRequired;
  if (!product.summary.trim()) missing.summary = vendorProductMessages.summaryRequired;
  if (!product.plans.length) missing.plans = vendorProductMessages.planRequired;
  return missing;
}

/** "Add a title, a summary and a plan before publishing." */
export function publishBlockedMessage(missing: readonly ('title' | 'summary' | 'plans')[]): string {
  const words = missing.map((m) =>
    m === 'title' ? 'a title' : m === 'summary' ? 'a summary' : 'at least one plan',
  );
  const list =
    words.length <= 1
      ? (words[0] ?? '')
      : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return `Add ${list} before publishing.`;
}

/** A plan as a form holds it before it is sent. */
export interface PlanDraft {
  billing: string;
  amount: number;
  currency: string;
  trialDays: number;
}

/** The fields a form checks before saving, as it would send them. */
export interface VendorProductDraft {
  kind: string;
  title: string;
  summary: string;
  description: string;
  tags: readonly string[];
  platforms: readonly string[];
  assetClasses: readonly string[];
  prerequisiteIds: readonly string[];
  plans: readonly PlanDraft[];
}

/** The words a listing's title, summary and description are checked with (products, bundles). */
export interface ListingTextMessages {
  titleRequired: string;
  titleMax: string;
  summaryRequired: string;
  summaryMax: string;
  descriptionMax: string;
  unreadable: string;
}

/** Title, summary and description of a product or bundle: lengths and readable characters. */
export function listingTextProblems(
  draft: { title: string; summary: string; description: string },
  m: ListingTextMessages,
): Record<string, string> {
  const out: Record<string, string> = {};
  const title = draft.title.trim();
  if (title.length > PRODUCT_TITLE_MAX) out.title = m.titleMax;
  else if (hasUnreadableCharacters(title, false)) out.title = m.unreadable;
  const summary = draft.summary.trim();
  if (summary.length > PRODUCT_SUMMARY_MAX) out.summary = m.summaryMax;
  else if (hasUnreadableCharacters(summary, false)) out.summary = m.unreadable;
  if (draft.description.length > PRODUCT_DESCRIPTION_MAX) out.description = m.descriptionMax;
  else if (hasUnreadableCharacters(draft.description, true)) out.description = m.unreadable;
  return out;
}

const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} -]*$/u;
/**
 * The editor's checks without zod (the browser never loads it), keyed like the server's field
 * messages (`title`, `tags.2`, `plans.0.amount`) and worded the same: `vendorProductInput` in
 * `vendor-products.ts` applies the same rules, and a contract test holds the two together.
 */
export function vendorProductProblems(
  draft: VendorProductDraft,
  known: {
    kinds: readonly string[];
    platforms: readonly string[];
    assetClasses: readonly string[];
  },
): Record<string, string> {
  const m = vendorProductMessages;
  const out: Record<string, string> = {};
  const unique = (list: readonly string[]) => new Set(list).size === list.length;
  if (!known.kinds.includes(draft.kind)) out.kind = m.kind;
  Object.assign(out, listingTextProblems(draft, m));
  draft.tags.forEach((raw, i) => {
    const t = raw.trim();
    if (!t || t.length > PRODUCT_TAG_MAX || !TAG_PATTERN.test(t)) out[`tags.${i}`] = m.tag;
  });
  if (draft.tags.length > PRODUCT_TAGS_MAX) out.tags = m.tagsMax;
  else if (!unique(draft.tags.map((t) => t.trim().toLowerCase()))) out.tags = m.tagsUnique;
  draft.platforms.forEach((p, i) => {
    if (!known.platforms.includes(p)) out[`platforms.${i}`] = m.platform;
  });
  if (!unique(draft.platforms)) out.platforms = m.listUnique;
  draft.assetClasses.forEach((a, i) => {
    if (!known.assetClasses.includes(a)) out[`assetClasses.${i}`] = m.assetClass;
  });
  if (!unique(draft.assetClasses)) out.assetClasses = m.listUnique;
  if (draft.prerequisiteIds.length > PRODUCT_PREREQUISITES_MAX)
    out.prerequisiteIds = m.prerequisitesMax;
  else if (!unique(draft.prerequisiteIds)) out.prerequisiteIds = m.listUnique;
  draft.plans.forEach((p, i) => {
    if (!(planBillings as readonly string[]).includes(p.billing))
      out[`plans.${i}.billing`] = m.billing;
    if (!Number.isInteger(p.amount) || p.amount < PLAN_AMOUNT_MIN || p.amount > PLAN_AMOUNT_MAX)
      out[`plans.${i}.amount`] = m.amount;
    if (!(planCurrencies as readonly string[]).includes(p.currency))
      out[`plans.${i}.currency`] = m.currency;
    if (!Number.isInteger(p.trialDays) || p.trialDays < 0 || p.trialDays > PLAN_TRIAL_DAYS_MAX)
      out[`plans.${i}.trialDays`] = m.trialDays;
    else if (p.billing === 'one_time' && p.trialDays !== 0)
      out[`plans.${i}.trialDays`] = m.trialOneTime;
  });
  if (draft.plans.length > PRODUCT_PLANS_MAX) out.plans = m.plansMax;
  else if (new Set(draft.plans.map((p) => p.currency)).size > 1) out.plans = m.oneCurrency;
  else if (
    new Set(draft.plans.map((p) => `${p.billing}:${p.trialDays}`)).size !== draft.plans.length
  )
    out.plans = m.duplicatePlan;
  return out;
}
