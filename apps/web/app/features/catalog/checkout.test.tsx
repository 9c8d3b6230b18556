// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { renderWithApp, type SeenRequest } from '../../test/render.tsx';
import { CheckoutPanel, COUPON_DEBOUNCE_MS, YourItem, type CheckoutTarget } from './checkout.tsx';

const target: CheckoutTarget = {
  kind: 'product',
  vendorUrl: 'alpha-edge',
  priceId: 'price_1',
  scheme: 'one_time',
};
const price = { amount: 19_900, currency: 'usd' };
const usd = (amount: number) => ({ amount, currency: 'usd' });

const preview = {
  code: 'SAVE20',
  type: 'percent',
  percentOff: 20,
  amountOff: null,
  duration: 'once',
  subtotal: usd(19_900),
  discount: usd(3_980),
  total: usd(15_920),
};

function api(req: SeenRequest) {
  if (req.path === '/api/v1/coupons/preview')
    return req.query.get('code') === 'SAVE20'
      ? { status: 200, body: { coupon: preview } }
      : { status: 422, body: { error: 'That coupon code is not valid.', code: 'unprocessable' } };
  if (req.method === 'POST' && req.path === '/api/v1/user/product')
    return { status: 409, body: { error: 'You already own this product.', code: 'conflict' } };
  return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
}

function renderPanel(signedIn: boolean, props: { blocked?: boolean; coupons?: boolean } = {}) {
  const ui = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const app = renderWithApp(
    <Routes>
      <Route
        path="/p/:id/:slug"
        element={<CheckoutPanel target={target} price={price} label="Buy now" {...props} />}
      />
    </Routes>,
    { signedIn, answer: api, url: '/p/prd_1/macd?ref=x&checkout=cancelled' },
  );
  return { ...app, ui };
}

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('buy box', () => {
  it('signed out: a link to log in that comes back here, with the price', () => {
    renderPanel(false);
    const link = screen.getByRole('link', { name: 'Buy now · $199' });
    expect(link.getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent('/p/prd_1/macd?ref=x')}`,
    );
    expect(screen.getByText('You will log in before you pay.')).toBeTruthy();
  });

  it('checks a coupon’s format at once and asks the server only after typing pauses', async () => {
    const { ui, requests } = renderPanel(true);
    const coupon = screen.getByLabelText(/Coupon code/);
    await ui.type(coupon, 'bad code');
    expect(
      screen.getByText('Coupon codes use only letters, digits, dashes and underscores.'),
    ).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Buy now/ }).disabled).toBe(true);
    await ui.clear(coupon);
    await ui.type(coupon, 'SAVE20');
    expect(screen.getByText('Checking the coupon…')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/v1/coupons/preview')).toHaveLength(0);
    vi.advanceTimersByTime(COUPON_DEBOUNCE_MS);
    expect(await screen.findByText('SAVE20 applied: 20% off.')).toBeTruthy();
    const asked = requests.filter((r) => r.path === '/api/v1/coupons/preview');
    expect(asked.map((r) => [r.query.get('code'), r.query.get('priceId')])).toEqual([
      ['SAVE20', 'price_1'],
    ]);
    expect(screen.getByText('−$39.80')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Buy now · $159.20' })).toBeTruthy();
  });

  it('shows the server’s word on an unknown coupon and keeps the button off', async () => {
    const { ui } = renderPanel(true);
    await ui.type(screen.getByLabelText(/Coupon code/), 'NOPE');
    vi.advanceTimersByTime(COUPON_DEBOUNCE_MS);
    expect(await screen.findByText('That coupon code is not valid.')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Buy now/ }).disabled).toBe(true);
  });

  it('starts checkout with one Idempotency-Key per attempt and shows a refusal in place', async () => {
    const { ui, requests } = renderPanel(true);
    await ui.click(screen.getByRole('button', { name: 'Buy now · $199' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'You already own this product.',
    );
    const sent = requests.filter((r) => r.path === '/api/v1/user/product');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query.get('vendorUrl')).toBe('alpha-edge');
    expect(sent[0]!.body).toEqual({ priceId: 'price_1', scheme: 'one_time' });
    expect(sent[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer access-token');
  });

  // Issue 27: a platform plan does not combine with coupons, so its checkout has no coupon box.
  it('without coupons (a platform plan): no coupon box, and checkout sends no coupon', async () => {
    const { ui, requests } = renderPanel(true, { coupons: false });
    expect(screen.queryByLabelText(/Coupon code/)).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'Buy now · $199' }));
    await screen.findByRole('alert');
    const sent = requests.filter((r) => r.path === '/api/v1/user/product');
    expect(sent[0]!.body).toEqual({ priceId: 'price_1', scheme: 'one_time' });
  });

  it('blocked (a missing prerequisite): nothing to press, signed in or not', () => {
    renderPanel(true, { blocked: true });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Buy now/ }).disabled).toBe(true);
  });
});

// Issue 26: vendors bought their own products. Their page offers no Buy, but a way to edit it.
describe('the vendor’s own item', () => {
  it('says it is theirs and links to its editor, with nothing to buy', () => {
    renderWithApp(<YourItem what="product" editPath="/vendor/products/prd_1" />, {
      signedIn: true,
      answer: api,
    });
    expect(screen.getByText('This is your product')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit this product' }).getAttribute('href')).toBe(
      '/vendor/products/prd_1',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
