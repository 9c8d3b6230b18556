// The editor's state and the pure steps on it (plans added, removed, changed; checks; what is sent),
// kept apart from the screen so they are tested without rendering.
import {
  assetClasses,
  missingToPublish,
  productKinds,
  tradingPlatforms,
  vendorProductProblems,
  type PlanBilling,
  type PlanCurrency,
  type ProductKind,
} from '@tradeshelf/contract/client';
import type { VendorProduct, VendorProductInput } from '@tradeshelf/contract';
import { amountText, parseAmount } from '../money-format.ts';

export interface PlanForm {
  /** React key; stable while the plan is edited. */
  key: string;
  /** The plan on sale now, when it came from the server. */
  priceId?: string;
  billing: PlanBilling;
  /** As typed: "49" or "49.99". */
  price: string;
  currency: PlanCurrency;
  /** As typed. */
  trialDays: string;
}

export interface ProductForm {
  kind: ProductKind;
  title: string;
  summary: string;
  description: string;
  /** Comma-separated, as typed. */
  tags: string;
  platforms: string[];
  assetClasses: string[];
  prerequisiteIds: string[];
  plans: PlanForm[];
}

let keys = 0;
const nextKey = () => `plan-${++keys}`;

export function emptyForm(): ProductForm {
  return {
    kind: 'indicator',
    title: '',
    summary: '',
    description: '',
    tags: '',
    platforms: [],
    assetClasses: [],
    prerequisiteIds: [],
    plans: [],
  };
}

export function formFromProduct(p: VendorProduct): ProductForm {
  return {
    kind: p.kind,
    title: p.title,
    summary: p.summary,
    description: p.description,
    tags: p.tags.join(', '),
    platforms: [...p.platforms],
    assetClasses: [...p.assetClasses],
    prerequisiteIds: p.prerequisites.map((x) => x.id),
    plans: p.plans.map((plan) => ({
      key: nextKey(),
      priceId: plan.priceId,
      billing: plan.billing,
      price: amountText(plan.amount),
      currency: plan.currency as PlanCurrency,
      trialDays: String(plan.trialDays),
    })),
  };
}

export const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);

/** What the form sends (the server checks it again with the contract's schema). */
export function toInput(form: ProductForm): VendorProductInput {
  return {
    kind: form.kind,
    title: form.title.trim(),
    summary: form.summary.trim(),
    description: form.description,
    tags: tagsOf(form.tags),
    platforms: form.platforms as VendorProductInput['platforms'],
    assetClasses: form.assetClasses as VendorProductInput['assetClasses'],
    prerequisiteIds: form.prerequisiteIds,
    plans: form.plans.map((p) => ({
      ...(p.priceId ? { priceId: p.priceId } : {}),
      billing: p.billing,
      amount: parseAmount(p.price),
      currency: p.currency,
      trialDays: p.billing === 'one_time' ? 0 : Number(p.trialDays.trim() || '0'),
    })),
  };
}

/**
 * Field messages for the form as it stands, keyed as the server keys them (`plans.0.amount`), in the
 * contract's words. Empty: it may be saved.
 */
export function checkForm(form: ProductForm): Record<string, string> {
  const input = toInput(form);
  const problems = vendorProductProblems(
    {
      kind: input.kind,
      title: input.title ?? '',
      summary: input.summary ?? '',
      description: input.description ?? '',
      tags: input.tags ?? [],
      platforms: input.platforms ?? [],
      assetClasses: input.assetClasses ?? [],
      prerequisiteIds: input.prerequisiteIds ?? [],
      plans: (input.plans ?? []).map((p) => ({
        billing: p.billing,
        amount: p.amount,
        currency: p.currency ?? 'usd',
        trialDays: p.trialDays ?? 0,
      })),
    },
    { kinds: productKinds, platforms: tradingPlatforms, assetClasses },
  );
  // The tag list's own messages name the tag by its place; the field shows the first.
  const tagProblem = Object.entries(problems).find(([k]) => k.startsWith('tags.'));
  if (tagProblem && !problems.tags) problems.tags = tagProblem[1];
  return problems;
}

/** Checked before publishing: the server says the same (422) if the form is stale. */
export function publishProblems(form: ProductForm): Record<string, string> {
  return missingToPublish(form);
}

/** A new plan: the first billing not on offer yet (one-time, then monthly, then yearly). */
export function addPlan(form: ProductForm): ProductForm {
  const taken = new Set(form.plans.map((p) => p.billing));
  const billing = (['one_time', 'month', 'year'] as const).find((b) => !taken.has(b)) ?? 'month';
  const currency = form.plans[0]?.currency ?? 'usd';
  return {
    ...form,
    plans: [...form.plans, { key: nextKey(), billing, price: '', currency, trialDays: '0' }],
  };
}

export function removePlan(form: ProductForm, key: string): ProductForm {
  return { ...form, plans: form.plans.filter((p) => p.key !== key) };
}

/**
 * Changes one plan. A one-time plan has no trial. The currency is the product's: changing it on one
 * plan changes it on all.
 */
export function updatePlan(form: ProductForm, key: string, patch: Partial<PlanForm>): ProductForm {
  return {
    ...form,
    plans: form.plans.map((p) => {
      const next = p.key === key ? { ...p, ...patch } : p;
      const withCurrency = patch.currency ? { ...next, currency: patch.currency } : next;
      return withCurrency.billing === 'one_time'
        ? { ...withCurrency, trialDays: '0' }
        : withCurrency;
    }),
  };
}

/** Moves a plan up one place (the first plan is the default price shown on cards). */
export function movePlanUp(form: ProductForm, key: string): ProductForm {
  const i = form.plans.findIndex((p) => p.key === key);
  if (i <= 0) return form;
  const plans = [...form.plans];
  [plans[i - 1], plans[i]] = [plans[i]!, plans[i - 1]!];
  return { ...form, plans };
}

/** Where the vendor sets up delivery for a product of this kind, if anywhere. */
export function deliveryLink(
  product: Pick<VendorProduct, 'id' | 'kind' | 'platforms'>,
): { to: string; label: string } | null {
  if (product.kind === 'community')
    return { to: '/vendor/delivery/discord', label: 'Set up Discord delivery' };
  if (product.kind === 'course')
    return { to: `/vendor/courses/${encodeURIComponent(product.id)}`, label: 'Build the course' };
  if (product.kind === 'app')
    return {
      to: `/vendor/licences/${encodeURIComponent(product.id)}`,
      label: 'Set up licences',
    };
  // TradingView invite-only scripts: indicators, scanners and alerts on TradingView.
  if (product.platforms.includes('tradingview'))
    return { to: '/vendor/delivery/tradingview', label: 'Set up TradingView access' };
  return null;
}
