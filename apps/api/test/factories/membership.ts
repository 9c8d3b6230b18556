import { plans, PLATFORM_VENDOR_URL, type PlanId } from '@tradeshelf/contract';
import { expect } from 'vitest';
import type { TestApp } from '../harness.ts';
import { createProduct, createVendor } from './catalog.ts';
import { createBuyer, purchaseOfSession, sandboxPost, startProductCheckout } from './orders.ts';

export type PlanProducts = Record<PlanId, { id: string; monthlyPriceId: string }>;

/** The platform vendor and its two plan products, as the demo seed makes them (monthly prices). */
export async function createPlatformPlans(t: TestApp): Promise<PlanProducts> {
  const vendor = await createVendor(t, {
    vendorUrl: PLATFORM_VENDOR_URL,
    displayName: 'Tradeshelf',
  });
  const make = async (id: PlanId, monthly: number) => {
    const p = await createProduct(t, vendor.id, {
      title: `Tradeshelf ${plans[id].name}`,
      slug: plans[id].slug,
      kind: 'app',
      platforms: ['other'],
      amount: monthly * 10,
      extraPrices: [monthly],
    });
    return { id: p.id, monthlyPriceId: p.extraPriceIds[0]! };
  };
  return { premium: await make('premium', 1_900), pro_plus: await make('pro_plus', 4_900) };
}

/** A buyer who bought a plan's monthly subscription through the payment sandbox. */
export async function createMember(t: TestApp, planProducts: PlanProducts, plan: PlanId) {
  const buyer = await createBuyer(t);
  const sessionId = await startProductCheckout(t, buyer, PLATFORM_VENDOR_URL, {
    priceId: planProducts[plan].monthlyPriceId,
  });
  const paid = await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
  expect(paid.statusCode).toBe(303);
  const purchase = await purchaseOfSession(t, buyer, sessionId);
  expect(purchase.status).toBe('paid');
  return { ...buyer, planPurchaseId: purchase.id as string, planSessionId: sessionId };
}
