// @vitest-environment jsdom
import type { VendorAnalytics } from '@tradeshelf/contract';
import { vendorAnalyticsMessages } from '@tradeshelf/contract/client';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, type Answer, type SeenRequest } from '../../../test/render.tsx';
import { AnalyticsScreen } from './screen.tsx';
import { figures, usdFigures } from './test-fixtures.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const answer = (over: Partial<VendorAnalytics> = {}): VendorAnalytics => ({
  range: { from: '2026-01-01', to: '2026-01-30', interval: 'day', productId: null },
  series: [
    {
      currency: 'usd',
      points: [{ period: '2026-01-30', ...figures }],
    },
  ],
  totals: [usdFigures],
  topProducts: {
    byNet: [
      {
        itemType: 'product',
        itemId: 'prd_1',
        title: 'Trend Indicator',
        currency: 'usd',
        gross: 30_000,
        net: 17_000,
        sales: 3,
      },
    ],
    bySales: [],
  },
  conversion: [{ productId: 'prd_1', title: 'Trend Indicator', views: 4, sales: 3, rate: 0.75 }],
  products: [
    { id: 'prd_1', title: 'Trend Indicator', type: 'product' },
    { id: 'bnd_1', title: 'Trend Kit', type: 'bundle' },
  ],
  ...over,
});

function show(reply: (req: SeenRequest) => Answer) {
  return renderWithApp(<AnalyticsScreen />, { signedIn: true, answer: reply });
}

describe('analytics screen', () => {
  it('shows a skeleton, then totals, top products and conversion, read with the bearer token', async () => {
    let release: ((a: { status: number; body: unknown }) => void) | null = null;
    const view = show(() => new Promise((resolve) => (release = resolve)));
    expect(screen.getByText('Loading analytics…').closest('[aria-busy="true"]')).toBeTruthy();
    await waitFor(() => expect(release).not.toBeNull());
    release!({ status: 200, body: answer() });
    expect(await screen.findByText('5.9% of gross')).toBeTruthy();
    expect(screen.getByText('Gross revenue').nextElementSibling?.textContent).toBe('$340');
    expect(screen.getByText('75%')).toBeTruthy();
    expect(screen.getAllByText('Trend Indicator').length).toBeGreaterThan(0);
    const req = view.requests[0]!;
    expect(req.path).toBe('/api/v1/vendor/analytics');
    expect(req.headers.get('authorization')).toBe('Bearer access-token');
    expect(req.query.get('interval')).toBe('day');
  });

  it('offers bundles in the filter, and reads one bundle’s figures', async () => {
    const view = show(() => ({ status: 200, body: answer() }));
    await screen.findByText('5.9% of gross');
    expect(screen.getByRole('option', { name: 'Trend Kit (bundle)' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Product'), { target: { value: 'bnd_1' } });
    await waitFor(() => expect(view.requests).toHaveLength(2));
    expect(view.requests[1]!.query.get('productId')).toBe('bnd_1');
  });

  it('says so when there are no sales, and reads again for another range', async () => {
    const view = show(() => ({
      status: 200,
      body: answer({
        series: [],
        totals: [],
        conversion: [],
        topProducts: { byNet: [], bySales: [] },
      }),
    }));
    expect(await screen.findByText('No sales in this range yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Range'), { target: { value: '365' } });
    await waitFor(() => expect(view.requests).toHaveLength(2));
    expect(view.requests[1]!.query.get('interval')).toBe('week');
  });

  it('shows the failure with a retry that reads again', async () => {
    let calls = 0;
    show(() =>
      ++calls === 1
        ? { status: 503, body: { error: 'The service is busy.', code: 'service_unavailable' } }
        : { status: 200, body: answer() },
    );
    expect(await screen.findByText('The service is busy.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('5.9% of gross')).toBeTruthy();
  });

  it('checks a custom range with the server’s messages before asking', async () => {
    const view = show(() => ({ status: 200, body: answer() }));
    await screen.findByText('5.9% of gross');
    fireEvent.change(screen.getByLabelText('Range'), { target: { value: 'custom' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-05' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    expect(await screen.findByText(vendorAnalyticsMessages.order)).toBeTruthy();
    const before = view.requests.length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-01' } });
    await waitFor(() => expect(view.requests.length).toBe(before + 1));
    expect(view.requests.at(-1)!.query.get('from')).toBe('2026-02-01');
  });

  it('downloads the CSV through the API client with the token, and saves it as a file', async () => {
    const created = vi.fn(() => 'blob:csv');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const view = show((req) =>
      req.path.endsWith('export.csv')
        ? { status: 200, body: 'date,type\r\n' }
        : { status: 200, body: answer() },
    );
    await screen.findByText('5.9% of gross');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const req = view.requests.find((r) => r.path === '/api/v1/vendor/analytics/export.csv')!;
    expect(req.headers.get('authorization')).toBe('Bearer access-token');
    expect(req.headers.get('accept')).toContain('text/csv');
    // The client's Blob (the fetch implementation's, not necessarily jsdom's) with the CSV in it.
    const blob = (created.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toContain('date,type');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toMatch(/^sales-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});
