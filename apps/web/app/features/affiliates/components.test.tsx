// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAppSelector } from '../../lib/hooks.ts';
import { renderWithApp, type SeenRequest } from '../../test/render.tsx';
import { fetchAffiliateVendors } from './api.ts';
import { PayoutPanel, VendorsToJoin } from './components.tsx';
import { stats as someStats, usd, vendor } from './test-fixtures.ts';

afterEach(cleanup);

const stats = someStats(12_345);

describe('Request payout (issue 27)', () => {
  it('asks first, with the amount and the account; Cancel sends nothing; confirming pays', async () => {
    const ui = userEvent.setup();
    const { requests } = renderWithApp(<PayoutPanel stats={stats} />, {
      signedIn: true,
      answer: (req: SeenRequest) =>
        req.path === '/api/v1/user/affiliate/request-payout'
          ? {
              status: 200,
              body: {
                payout: {
                  id: 'po_1',
                  amount: usd(12_345),
                  status: 'requested',
                  failureReason: null,
                  createdAt: '2026-11-28T00:00:00.000Z',
                  updatedAt: '2026-11-28T00:00:00.000Z',
                },
              },
            }
          : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
    });
    const payouts = () => requests.filter((r) => r.path.endsWith('/request-payout'));
    await ui.click(screen.getByRole('button', { name: 'Request payout' }));
    expect(payouts()).toHaveLength(0);
    expect(screen.getByTestId('payout-confirm-text').textContent).toBe(
      'Your whole available balance, $123.45, goes to Stripe account ••••ab12. It cannot be taken back once sent.',
    );
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(payouts()).toHaveLength(0);
    await ui.click(screen.getByRole('button', { name: 'Request payout' }));
    await ui.click(screen.getByRole('button', { name: 'Pay out $123.45' }));
    await waitFor(() => expect(payouts()).toHaveLength(1));
  });
});

function Programmes() {
  const vendors = useAppSelector((s) => s.affiliate.vendors.data) ?? [];
  return <VendorsToJoin vendors={vendors} />;
}

describe('Generate link (issue 27)', () => {
  it('keeps the new link in its row with a copy button that has the focus and says Copied', async () => {
    const ui = userEvent.setup();
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    const app = renderWithApp(<Programmes />, {
      signedIn: true,
      answer: (req: SeenRequest) =>
        req.path === '/api/v1/user/affiliate/vendors'
          ? { status: 200, body: { vendors: [vendor('a'), vendor('b')] } }
          : req.path === '/api/v1/user/affiliate/generate-ref'
            ? { status: 200, body: { data: vendor('a', 'ref_a') } }
            : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
    });
    await act(async () => {
      await app.store.dispatch(fetchAffiliateVendors());
    });
    const rows = () => screen.getAllByRole('listitem');
    expect(rows()).toHaveLength(2);
    await ui.click(screen.getByRole('button', { name: 'Generate a referral link for Vendor a' }));
    const copy = await screen.findByRole('button', { name: 'Copy the referral link for Vendor a' });
    // Same place: the first row still, now with the link; the other row unchanged.
    expect(rows()).toHaveLength(2);
    expect(rows()[0]!.contains(copy)).toBe(true);
    expect((screen.getByLabelText('Referral link for Vendor a') as HTMLInputElement).value).toBe(
      'https://x.test/v/a?ref=ref_a',
    );
    expect(document.activeElement).toBe(copy);
    await ui.keyboard('{Enter}');
    await waitFor(() => expect(copy.textContent).toBe('Copied'));
    expect(written).toEqual(['https://x.test/v/a?ref=ref_a']);
  });
});
