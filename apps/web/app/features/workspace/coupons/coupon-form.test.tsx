// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { couponMessages, vendorSalesMessages as m } from '@tradeshelf/contract/client';
import type { ApiError, CouponInput, VendorCoupon } from '@tradeshelf/contract';
import { useState } from 'react';
import { CouponForm } from './coupon-form.tsx';

afterEach(cleanup);

const products = [
  { id: 'prd_a', title: 'Alpha Scanner', isActive: true },
  { id: 'prd_b', title: 'Beta Alerts', isActive: false },
];

function setup(coupon: VendorCoupon | null = null, answers: Array<ApiError | null> = [null]) {
  const saved: CouponInput[] = [];
  function Harness() {
    const [error, setError] = useState<ApiError | null>(null);
    const onSave = vi.fn(async (body: CouponInput) => {
      saved.push(body);
      const answer = answers.shift() ?? null;
      setError(answer);
      return answer === null;
    });
    return (
      <CouponForm
        coupon={coupon}
        products={products}
        onSave={onSave}
        onCancel={() => undefined}
        error={error}
        busy={false}
      />
    );
  }
  render(<Harness />);
  return { saved, user: userEvent.setup() };
}

const create = () => screen.getByRole('button', { name: 'Create coupon' });

describe('coupon form', () => {
  it('names each bad field with the contract’s messages and saves nothing', async () => {
    const { saved, user } = setup();
    await user.click(create());
    expect(screen.getByText(couponMessages.empty)).toBeTruthy();
    expect(screen.getByText(m.couponPercentRange)).toBeTruthy();
    expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBe('true');

    await user.type(screen.getByLabelText('Code'), 'BAD CODE');
    await user.type(screen.getByLabelText('Percent off'), '150');
    await user.type(screen.getByLabelText('Most uses overall (optional)'), '2');
    await user.type(screen.getByLabelText('Most uses per buyer (optional)'), '3');
    await user.type(screen.getByLabelText('Starts (optional)'), '2030-01-02T10:00');
    await user.type(screen.getByLabelText('Ends (optional)'), '2030-01-01T10:00');
    await user.click(screen.getByLabelText('Chosen products'));
    await user.click(create());
    for (const message of [
      couponMessages.characters,
      m.couponPercentRange,
      m.couponPerBuyerAboveTotal,
      m.couponExpiresBeforeStart,
      m.couponProductsRequired,
    ])
      expect(screen.getByText(message)).toBeTruthy();
    expect(saved).toHaveLength(0);
  });

  it('sends an amount coupon for chosen products in minor units', async () => {
    const { saved, user } = setup();
    await user.type(screen.getByLabelText('Code'), 'SPRING5');
    await user.selectOptions(screen.getByLabelText('Discount type'), 'amount');
    await user.type(screen.getByLabelText('Amount off'), '5.5');
    await user.selectOptions(screen.getByLabelText('Currency'), 'eur');
    await user.click(screen.getByLabelText('Chosen products'));
    await user.click(screen.getByLabelText(/Beta Alerts/));
    await user.type(screen.getByLabelText('Most uses per buyer (optional)'), '1');
    await user.click(create());
    expect(saved).toEqual([
      expect.objectContaining({
        code: 'SPRING5',
        type: 'amount',
        percentOff: null,
        amountOff: 550,
        currency: 'eur',
        scope: 'products',
        productIds: ['prd_b'],
        maxPerBuyer: 1,
        maxRedemptions: null,
        startsAt: null,
        duration: 'once',
        isActive: true,
      }),
    ]);
  });

  it('shows the server’s field message (a code already taken)', async () => {
    const { user } = setup(null, [
      { error: m.couponCodeTaken, code: 'conflict', fields: { code: m.couponCodeTaken } },
    ]);
    await user.type(screen.getByLabelText('Code'), 'TAKEN');
    await user.type(screen.getByLabelText('Percent off'), '10');
    await user.click(create());
    expect(screen.getAllByText(m.couponCodeTaken).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Code').getAttribute('aria-invalid')).toBe('true');
  });

  it('opens an existing coupon with its values', async () => {
    const coupon: VendorCoupon = {
      id: 'cpn_1',
      code: 'SAVE20',
      type: 'percent',
      percentOff: 20,
      amountOff: null,
      duration: 'forever',
      scope: 'products',
      products: [{ id: 'prd_a', title: 'Alpha Scanner' }],
      startsAt: null,
      expiresAt: null,
      maxRedemptions: 100,
      maxPerBuyer: null,
      redemptions: 3,
      isActive: true,
      state: 'active',
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    const { saved, user } = setup(coupon);
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('SAVE20');
    expect((screen.getByLabelText('Percent off') as HTMLInputElement).value).toBe('20');
    expect((screen.getByLabelText(/Alpha Scanner/) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(saved[0]).toMatchObject({
      code: 'SAVE20',
      percentOff: 20,
      duration: 'forever',
      productIds: ['prd_a'],
      maxRedemptions: 100,
    });
  });
});
