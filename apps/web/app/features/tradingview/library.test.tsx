// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { tradingViewUsernameMessages } from '@tradeshelf/contract/client';
import type { TradingViewAccessResponse } from '@tradeshelf/contract';
import Library from '../../routes/library.tsx';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';
import { CheckoutPanel } from '../catalog/checkout.tsx';
import { TRADINGVIEW_POLL_INTERVAL_MS } from './hooks.ts';
import { useTradingViewStep } from './index.ts';
import { accessOf, item } from './test-fixtures.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup(answer: (req: SeenRequest) => Answer | undefined) {
  const app = renderWithApp(<Library />, {
    signedIn: true,
    url: '/library',
    answer: (req) =>
      answer(req) ??
      (req.path === '/api/v1/communities/user'
        ? { status: 200, body: { communities: [] } }
        : req.path === '/api/v1/purchases/buyer/list'
          ? { status: 200, body: { purchases: [], nextCursor: null } }
          : req.path === '/api/v1/user/discord'
            ? { status: 200, body: { discord: null } }
            : { status: 404, body: { error: 'Not found.', code: 'not_found' } }),
  });
  const calls = (method: string, path: string) =>
    app.requests.filter((r) => r.method === method && r.path === path);
  return { ...app, calls };
}

const ACCESS = '/api/v1/user/tradingview/access';
const NAME = '/api/v1/user/tradingview';

describe('/library: TradingView scripts', () => {
  it('asks for the username, checks it in words before sending, then waits for the vendor', async () => {
    const waiting = accessOf(
      'Chart_Wizard',
      item({
        status: 'waiting',
        username: 'Chart_Wizard',
        message: 'Waiting for Alpha Edge Labs to add you on TradingView',
      }),
    );
    const { calls } = setup((req) => {
      if (req.path === ACCESS) return { status: 200, body: accessOf(null, item()) };
      if (req.method === 'PUT' && req.path === NAME) return { status: 200, body: waiting };
      return undefined;
    });
    const ui = userEvent.setup();
    const card = await screen.findByTestId('tradingview-card');
    expect(card.getAttribute('data-status')).toBe('needs_username');
    expect(within(card).getByTestId('tradingview-status').textContent).toContain(
      'Add your TradingView username to get access',
    );
    const input = screen.getByLabelText('TradingView username');
    await ui.type(input, 'two words');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(tradingViewUsernameMessages.characters)).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(calls('PUT', NAME)).toHaveLength(0);

    await ui.clear(input);
    await ui.type(input, '@Chart_Wizard');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('tradingview-card').getAttribute('data-status')).toBe('waiting'),
    );
    expect(calls('PUT', NAME).map((r) => r.body)).toEqual([{ username: '@Chart_Wizard' }]);
    expect(screen.getByTestId('tradingview-status').textContent).toContain(
      'Waiting for Alpha Edge Labs to add you on TradingView',
    );
    expect(screen.getByTestId('tradingview-username').textContent).toBe('Chart_Wizard');
  });

  it('shows the server’s words for the field, and reads again while waiting until access is active', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers: TradingViewAccessResponse[] = [
      accessOf('Chart_Wizard', item({ status: 'waiting', username: 'Chart_Wizard' })),
      accessOf(
        'Chart_Wizard',
        item({ status: 'active', username: 'Chart_Wizard', endsAt: '2026-03-12T12:00:00.000Z' }),
      ),
    ];
    const { calls } = setup((req) => {
      if (req.path === ACCESS) {
        const [next, ...rest] = answers;
        if (rest.length) answers = rest;
        return { status: 200, body: next };
      }
      if (req.method === 'PUT' && req.path === NAME)
        return {
          status: 400,
          body: {
            error: 'A TradingView username is 3 to 30 characters.',
            code: 'validation_failed',
            fields: { username: 'A TradingView username is 3 to 30 characters.' },
          },
        };
      return undefined;
    });
    const card = await screen.findByTestId('tradingview-card');
    expect(card.getAttribute('data-status')).toBe('waiting');
    vi.advanceTimersByTime(TRADINGVIEW_POLL_INTERVAL_MS);
    await waitFor(() =>
      expect(screen.getByTestId('tradingview-card').getAttribute('data-status')).toBe('active'),
    );
    expect(screen.getByTestId('tradingview-status').textContent).toMatch(
      /Active until Mar 12, 2026/,
    );
    const asked = calls('GET', ACCESS).length;
    vi.advanceTimersByTime(TRADINGVIEW_POLL_INTERVAL_MS * 3);
    expect(calls('GET', ACCESS)).toHaveLength(asked);

    const ui = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await ui.click(screen.getByRole('button', { name: /Change/ }));
    const input = screen.getByLabelText('TradingView username');
    await ui.clear(input);
    await ui.type(input, 'New_Name');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A TradingView username is 3 to 30 characters.')).toBeTruthy();
  });

  it('shows nothing when no product delivers scripts', async () => {
    const { calls } = setup((req) =>
      req.path === ACCESS ? { status: 200, body: accessOf(null) } : undefined,
    );
    await waitFor(() => expect(calls('GET', ACCESS)).toHaveLength(1));
    await screen.findByText('Nothing here yet');
    expect(screen.queryByRole('heading', { name: 'TradingView scripts' })).toBeNull();
  });
});

function BuyBox() {
  const tradingview = useTradingViewStep('prd_rsi', true);
  return (
    <CheckoutPanel
      target={{ kind: 'product', vendorUrl: 'alpha-edge', priceId: 'price_1', scheme: 'one_time' }}
      price={{ amount: 4_900, currency: 'usd' }}
      label="Buy now"
      beforeBuy={tradingview.beforeBuy}
    >
      {tradingview.field}
    </CheckoutPanel>
  );
}

describe('the product page’s buy box', () => {
  it('lists the scripts and saves a typed username before checkout starts', async () => {
    const app = renderWithApp(
      <Routes>
        <Route path="/p/:id/:slug" element={<BuyBox />} />
      </Routes>,
      {
        signedIn: true,
        url: '/p/prd_rsi/rsi',
        answer: (req) => {
          if (req.path === '/api/v1/tradingview/products/prd_rsi')
            return { status: 200, body: { scripts: item().scripts } };
          if (req.method === 'GET' && req.path === NAME)
            return { status: 200, body: { tradingview: { username: null, changedAt: null } } };
          if (req.method === 'PUT' && req.path === NAME)
            return { status: 200, body: accessOf('Chart_Wizard', item({ status: 'waiting' })) };
          // Checkout refused, so the page stays (no navigation in the test).
          if (req.path === '/api/v1/user/product')
            return {
              status: 409,
              body: { error: 'You already own this product.', code: 'conflict' },
            };
          return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
        },
      },
    );
    const ui = userEvent.setup();
    const box = await screen.findByTestId('tradingview-checkout');
    expect(
      within(box)
        .getByRole('link', { name: /RSI Divergence Pro/ })
        .getAttribute('href'),
    ).toBe('https://www.tradingview.com/script/Rd7Kq2Lm-RSI-Divergence-Pro/');
    const input = await within(box).findByLabelText('TradingView username (optional)');
    await ui.type(input, '_bad');
    await ui.click(screen.getByRole('button', { name: /^Buy now/ }));
    expect(await screen.findByText(tradingViewUsernameMessages.start)).toBeTruthy();
    const sent = (path: string) => app.requests.filter((r) => r.path === path);
    expect(sent('/api/v1/user/product')).toHaveLength(0);

    await ui.clear(input);
    await ui.type(input, 'Chart_Wizard');
    await ui.click(screen.getByRole('button', { name: /^Buy now/ }));
    await screen.findByText('You already own this product.');
    const order = app.requests
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    expect(order).toEqual(['PUT /api/v1/user/tradingview', 'POST /api/v1/user/product']);
  });
});
