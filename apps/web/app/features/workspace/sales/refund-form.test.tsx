// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vendorSalesMessages } from '@tradeshelf/contract/client';
import type { ApiError, VendorRefundBody, VendorSale } from '@tradeshelf/contract';
import { useState } from 'react';
import { RefundForm } from './refund-form.tsx';

afterEach(cleanup);

const usd = (amount: number) => ({ amount, currency: 'usd' });
const sale = {
  refundable: usd(4_000),
  pendingRefund: usd(0),
  status: 'paid' as VendorSale['status'],
  subscription: null,
};

/** The form with a fake provider: `answers` are what each refund call gets (null: refunded). */
function setup(
  answers: Array<ApiError | null> = [null],
  over: Partial<typeof sale> = {},
  reload = false,
) {
  const calls: Array<{ body: VendorRefundBody; key: string }> = [];
  function Harness() {
    const [error, setError] = useState<ApiError | null>(null);
    const [current, setCurrent] = useState({ ...sale, ...over });
    const onRefund = vi.fn(async (body: VendorRefundBody, key: string) => {
      calls.push({ body, key });
      const answer = answers.shift() ?? null;
      setError(answer);
      // As the sale page does: the sale reloads with what the refund left.
      if (answer === null && reload)
        setCurrent((s) => ({
          ...s,
          refundable: usd(s.refundable.amount - (body.amount ?? s.refundable.amount)),
          status: body.amount === null ? 'refunded' : s.status,
        }));
      return answer === null;
    });
    return <RefundForm sale={current} onRefund={onRefund} error={error} />;
  }
  render(<Harness />);
  return { calls, user: userEvent.setup() };
}

const reason = () => screen.getByLabelText(/Reason/);

describe('refund form', () => {
  it('refunds all that is left after confirming, and says so', async () => {
    const { calls, user } = setup();
    await user.type(reason(), 'Asked within a week');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    const dialog = screen.getByRole('group', { name: 'Confirm the refund' });
    expect(dialog.textContent).toContain('Refund $40 to the buyer?');
    expect(dialog.textContent).toContain('ends their access');
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Refund $40' }));
    expect(calls).toEqual([
      {
        body: { amount: null, reason: 'Asked within a week' },
        key: expect.stringMatching(/^refund-/),
      },
    ]);
    expect(screen.getByRole('status').textContent).toContain(
      'Refund of $40 sent to the payment provider.',
    );
  });

  it('still says the refund was sent once the reloaded sale has nothing left', async () => {
    const { user } = setup([null], {}, true);
    await user.type(reason(), 'Asked within a week');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund $40' }));
    expect(screen.getByText('Refund of $40 sent to the payment provider.')).toBeTruthy();
    expect(screen.getByText(vendorSalesMessages.refundAlreadyFull)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund…' })).toBeNull();
  });

  it('refunds a part, which keeps access', async () => {
    const { calls, user } = setup();
    await user.click(screen.getByLabelText('Part of it'));
    await user.type(screen.getByLabelText('Amount (USD)'), '12.50');
    await user.type(reason(), 'Late');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(screen.getByRole('group', { name: 'Confirm the refund' }).textContent).toContain(
      'They keep their access.',
    );
    await user.click(screen.getByRole('button', { name: 'Refund $12.50' }));
    expect(calls[0]!.body).toEqual({ amount: 1_250, reason: 'Late' });
  });

  it('names every bad input with the contract’s messages and sends nothing', async () => {
    const { calls, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(screen.getByText(vendorSalesMessages.refundReasonRequired)).toBeTruthy();
    expect(reason().getAttribute('aria-invalid')).toBe('true');

    await user.click(screen.getByLabelText('Part of it'));
    const amount = screen.getByLabelText('Amount (USD)');
    await user.type(reason(), 'Because');
    for (const typed of ['abc', '0', '1.234']) {
      await user.clear(amount);
      await user.type(amount, typed);
      await user.click(screen.getByRole('button', { name: 'Refund…' }));
      expect(screen.getByText(vendorSalesMessages.refundAmountWhole)).toBeTruthy();
    }
    await user.clear(amount);
    await user.type(amount, '40.01');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(
      screen.getByText('You can refund at most $40: that is what is left of this payment.'),
    ).toBeTruthy();
    expect(calls).toHaveLength(0);
    expect(screen.queryByRole('group', { name: 'Confirm the refund' })).toBeNull();
  });

  it('shows the server’s answer and retries the same refund under the same key', async () => {
    const { calls, user } = setup([
      { error: vendorSalesMessages.refundProviderFailed, code: 'service_unavailable' },
      null,
    ]);
    await user.type(reason(), 'Duplicate');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund $40' }));
    expect(screen.getByRole('alert').textContent).toContain(
      vendorSalesMessages.refundProviderFailed,
    );
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund $40' }));
    expect(calls).toHaveLength(2);
    expect(calls[1]!.key).toBe(calls[0]!.key);
  });

  it('a changed request is a new refund with a new key; cancel sends nothing', async () => {
    const { calls, user } = setup([
      { error: 'No', code: 'business_rule', fields: { reason: 'Say more.' } },
      null,
    ]);
    await user.type(reason(), 'x');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund $40' }));
    expect(screen.getByText('Say more.')).toBeTruthy();
    await user.type(reason(), ' more');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund $40' }));
    expect(calls[1]!.key).not.toBe(calls[0]!.key);
  });

  it('explains when nothing is left to refund', () => {
    setup([], { refundable: usd(0), pendingRefund: usd(1_500) });
    expect(screen.getByRole('status').textContent).toContain(
      'A refund of $15 is waiting for the payment provider to confirm it.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
