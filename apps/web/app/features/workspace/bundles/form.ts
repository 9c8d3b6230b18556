// The bundle editor's state and the pure steps on it (products chosen, checks, what is sent, the
// saving), kept apart from the screen so they are tested without rendering.
import {
  bundleMissingToPublish,
  bundleSaving,
  vendorBundleProblems,
  type BundleSaving,
  type PlanCurrency,
} from '@tradeshelf/contract/client';
import type { VendorBundle, VendorBundleInput, VendorBundleProduct } from '@tradeshelf/contract';
import { amountText, parseAmount } from '../money-format.ts';

export interface BundleForm {
  title: string;
  summary: string;
  description: string;
  /** The chosen products, in the order chosen, with what the editor shows of each. */
  products: VendorBundleProduct[];
  /** As typed ("60" or "59.99"); empty: no price yet. */
  price: string;
  currency: PlanCurrency;
}

export function emptyForm(): BundleForm {
  return { title: '', summary: '', description: '', products: [], price: '', currency: 'usd' };
}

export function formFromBundle(b: VendorBundle): BundleForm {
  return {
    title: b.title,
    summary: b.summary,
    description: b.description,
    products: [...b.products],
    price: b.price ? amountText(b.price.amount) : '',
    currency: (b.price?.currency ?? 'usd') as PlanCurrency,
  };
}

/** The price as sent: null while the field is empty (a draft may have none). */
export function priceOf(form: BundleForm): { amount: number; currency: PlanCurrency } | null {
  return form.price.trim() ? { amount: parseAmount(form.price), currency: form.currency } : null;
}

/** What the form sends (the server checks it again with the contract's schema). */
export function toInput(form: BundleForm): VendorBundleInput {
  return {
    title: form.title.trim(),
    summary: form.summary.trim(),
    description: form.description,
    productIds: form.products.map((p) => p.id),
    price: priceOf(form),
  };
}

/**
 * Field messages for the form as it stands, keyed as the server keys them (`price.amount`), in the
 * contract's words. Empty: it may be saved.
 */
export function checkForm(form: BundleForm): Record<string, string> {
  const input = toInput(form);
  return vendorBundleProblems({
    title: input.title ?? '',
    summary: input.summary ?? '',
    description: input.description ?? '',
    productIds: input.productIds,
    price: input.price
      ? { amount: input.price.amount, currency: input.price.currency ?? 'usd' }
      : null,
  });
}

/** Checked before publishing: the server says the same (422) if the form is stale. */
export function publishProblems(form: BundleForm): Record<string, string> {
  return bundleMissingToPublish({
    title: form.title,
    summary: form.summary,
    price: priceOf(form),
    publishedProducts: form.products.filter((p) => p.status === 'published').length,
  });
}

/** What buyers save, as the form stands (null when it cannot be told yet). */
export const savingOf = (form: BundleForm): BundleSaving | null =>
  bundleSaving(priceOf(form), form.products);

/** Adds a product, or takes it out when it is in already. */
export function toggleProduct(form: BundleForm, product: VendorBundleProduct): BundleForm {
  return form.products.some((p) => p.id === product.id)
    ? removeProduct(form, product.id)
    : { ...form, products: [...form.products, product] };
}

export function removeProduct(form: BundleForm, id: string): BundleForm {
  return { ...form, products: form.products.filter((p) => p.id !== id) };
}
