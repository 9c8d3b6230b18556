/** The vendor's bundle editor: limits, messages, the publish rule and the saving (plain values, no zod). */
import {
  listingTextProblems,
  PLAN_AMOUNT_MAX,
  PLAN_AMOUNT_MIN,
  planCurrencies,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_SUMMARY_MAX,
  PRODUCT_TITLE_MAX,
  vendorProductMessages,
  type VendorProductStatus,
} from './vendor-products.ts';
import { formatMoney } from '../format.ts';
import { groupThousands } from '../format.ts';

/**
 * A bundle holds 2 to 20 of its vendor's products. Its title, summary and description take a product's
 * limits (`listingTextProblems`).
 */
export const BUNDLE_PRODUCTS_MIN = 2;
export const BUNDLE_PRODUCTS_MAX = 20;
export const VENDOR_BUNDLES_PAGE_MAX = 100;
/** The product picker: a page of the vendor's products, found by title. */
export const BUNDLE_PICKER_PAGE_MAX = 50;
export const BUNDLE_PICKER_QUERY_MAX = 100;

export const vendorBundleMessages = {
  setUpStorefront: 'Set up your storefront first: bundles are sold from it.',
  notFound: 'We could not find that bundle among yours.',
  baseUpdatedAt: 'baseUpdatedAt must be the bundle’s updatedAt, as an ISO date and time.',
  editConflict:
    'This bundle was changed in another tab or window since you opened it, so nothing was saved. Reload the page to see the latest version.',
  badCursor: vendorProductMessages.badCursor,
  titleRequired: 'Give the bundle a title.',
  titleMax: `Keep the title to ${PRODUCT_TITLE_MAX} characters or fewer.`,
  summaryRequired: 'Write a one-line summary buyers see in search results.',
  summaryMax: `Keep the summary to ${PRODUCT_SUMMARY_MAX} characters or fewer.`,
  descriptionMax: `Keep the description to ${groupThousands(PRODUCT_DESCRIPTION_MAX)} characters or fewer.`,
  unreadable: vendorProductMessages.unreadable,
  productsMin: `Choose at least ${BUNDLE_PRODUCTS_MIN} of your products.`,
  productsMax: `A bundle holds at most ${BUNDLE_PRODUCTS_MAX} products.`,
  productsUnique: 'Choose each product once.',
  productUnknown: 'A bundle can only hold your own products. Reload the list and choose again.',
  priceRequired: 'Set the bundle’s price.',
  amount: vendorProductMessages.amount,
  currency: vendorProductMessages.currency,
  publishedProducts: `A bundle needs at least ${BUNDLE_PRODUCTS_MIN} published products to go on sale. Publish its products first, or choose published ones.`,
  confirmPriceAboveValue:
    'I know buyers pay more for this bundle than for its products bought separately.',
  published: 'Published. The bundle is on your storefront and in search now.',
  unpublished: 'Unpublished. Buyers who bought it keep their access.',
  saved: 'Saved.',
  coverRemoved: 'Cover removed.',
} as const;

/** A bundle's price as a form holds it before it is sent. */
export interface BundlePriceDraft {
  amount: number;
  currency: string;
}

/** The fields a form checks before saving, as it would send them. */
export interface VendorBundleDraft {
  title: string;
  summary: string;
  description: string;
  productIds: readonly string[];
  price: BundlePriceDraft | null;
}

/**
 * The editor's checks without zod (the browser never loads it), keyed and worded like the server's
 * field messages: `vendorBundleInput` in `vendor-bundles.ts` applies the same rules, and a contract
 * test holds the two together.
 */
export function vendorBundleProblems(draft: VendorBundleDraft): Record<string, string> {
  const m = vendorBundleMessages;
  const out = listingTextProblems(draft, m);
  if (draft.productIds.length < BUNDLE_PRODUCTS_MIN) out.productIds = m.productsMin;
  else if (draft.productIds.length > BUNDLE_PRODUCTS_MAX) out.productIds = m.productsMax;
  else if (new Set(draft.productIds).size !== draft.productIds.length)
    out.productIds = m.productsUnique;
  if (draft.price) {
    const { amount, currency } = draft.price;
    if (!Number.isInteger(amount) || amount < PLAN_AMOUNT_MIN || amount > PLAN_AMOUNT_MAX)
      out['price.amount'] = m.amount;
    if (!(planCurrencies as readonly string[]).includes(currency))
      out['price.currency'] = m.currency;
  }
  return out;
}

export type BundlePublishField = 'title' | 'summary' | 'price' | 'productIds';

/**
 * What stops a bundle from being published, in words, by field: a title, a summary, a price and at
 * least two published products (the ones buyers get).
 */
export function bundleMissingToPublish(bundle: {
  title: string;
  summary: string;
  price: unknown;
  publishedProducts: number;
}): Partial<Record<BundlePublishField, string>> {
  const m = vendorBundleMessages;
  const missing: Partial<Record<BundlePublishField, string>> = {};
  if (!bundle.title.trim()) missing.title = m.titleRequired;
  if (!bundle.summary.trim()) missing.summary = m.summaryRequired;
  if (!bundle.price) missing.price = m.priceRequired;
  if (bundle.publishedProducts < BUNDLE_PRODUCTS_MIN) missing.productIds = m.publishedProducts;
  return missing;
}

/** "Add a title and a price before publishing." and/or the published-products rule, in words. */
export function bundlePublishBlockedMessage(missing: readonly BundlePublishField[]): string {
  const words = missing.flatMap((f) =>
    f === 'title'
      ? ['a title']
      : f === 'summary'
        ? ['a summary']
        : f === 'price'
          ? ['a price']
          : [],
  );
  const list =
    words.length <= 1
      ? (words[0] ?? '')
      : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return [
    ...(words.length ? [`Add ${list} before publishing.`] : []),
    ...(missing.includes('productIds') ? [vendorBundleMessages.publishedProducts] : []),
  ].join(' ');
}

/** What buyers are told they save: the value of the products they get against the bundle's price. */
export interface BundleSaving {
  /** The sum of the published products' one-time (else first) prices, in the bundle's currency. */
  value: number;
  /** value - price; negative when the bundle costs more than its products separately. */
  amount: number;
  /** Of the value, rounded to a whole per cent. */
  percent: number;
}

/**
 * The saving shown to the vendor as they edit (the bundle page shows the same value). Only published
 * products count (buyers get those); null without a price, without a published product, or when a
 * product has no price in the bundle's currency (amounts in two currencies are never added).
 */
export function bundleSaving(
  price: BundlePriceDraft | null,
  products: ReadonlyArray<{ status: VendorProductStatus; price: BundlePriceDraft | null }>,
): BundleSaving | null {
  if (!price || !Number.isInteger(price.amount)) return null;
  const sold = products.filter((p) => p.status === 'published');
  if (!sold.length || sold.some((p) => p.price?.currency !== price.currency)) return null;
  const value = sold.reduce((sum, p) => sum + p.price!.amount, 0);
  const amount = value - price.amount;
  return { value, amount, percent: value > 0 ? Math.round((amount / value) * 100) : 0 };
}

/**
 * The 422 when a bundle on sale would cost more than its products bought separately (its saving
 * negative) and the vendor has not confirmed it (`confirmPriceAboveValue`, issue 27).
 */
export function bundlePriceAboveValueMessage(
  price: BundlePriceDraft,
  saving: Pick<BundleSaving, 'value' | 'amount'>,
): string {
  return `The bundle costs ${formatMoney(price.amount, price.currency)}, ${formatMoney(-saving.amount, price.currency)} more than its products bought separately (${formatMoney(saving.value, price.currency)}), so buyers save nothing. Lower the price, or confirm that you sell it above its parts.`;
}

/** True when publishing (or keeping on sale) at this price needs the vendor's confirmation. */
export const bundleNeedsPriceConfirmation = (saving: Pick<BundleSaving, 'amount'> | null) =>
  saving !== null && saving.amount < 0;
