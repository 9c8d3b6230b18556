import type { BundleCard, BundleDetails, ProductCard, ProductDetails } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { hydrate } from '../../lib/hydrate.ts';
import { NETWORK_ERROR } from '../../lib/http.ts';
import { signedInStore } from '../../testing.ts';
import { fetchPurchaseDetails, fetchPurchaseStatus } from '../orders/api.ts';
import { paid, purchase } from '../orders/test-fixtures.ts';
import {
  checkoutBundle,
  checkoutProduct,
  fetchBundleDetails,
  fetchProductDetails,
  fetchProductList,
  initialProductState,
  markPurchased,
  productSlice,
  resetCheckout,
  searchCatalog,
  type ProductState,
} from './slice.ts';

const reduce = (s: ProductState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => productSlice.reducer(x, a), s);
const card = (id: string, priceId: string): ProductCard =>
  ({
    id,
    priceId,
    price: {
      priceId,
      amount: 100,
      currency: 'usd',
      scheme: 'one_time',
      interval: null,
      trialDays: null,
    },
    purchased: false,
  }) as ProductCard;

describe('product group (docs/product.md#product-group)', () => {
  it('loads products and bundles together', () => {
    let s = reduce(initialProductState, fetchProductList.pending('id', 'alpha-edge'));
    expect([s.productList.status, s.bundleList.status]).toEqual(['loading', 'loading']);
    const bundles = [{ id: 'b1' } as BundleCard];
    s = reduce(
      s,
      fetchProductList.fulfilled(
        { products: [card('p1', 'price_1')], bundles },
        'id',
        'alpha-edge',
      ),
    );
    expect(s.productList.data?.map((p) => p.id)).toEqual(['p1']);
    expect(s.bundleList.data).toEqual(bundles);
    const failed = reduce(
      initialProductState,
      fetchProductList.rejected(null, 'id', 'x', {
        error: 'We could not find that vendor.',
        code: 'not_found',
      }),
    );
    // docs/product.md#request-states: a failed list fetch stores the whole error.
    expect(failed.productList.error).toEqual({
      error: 'We could not find that vendor.',
      code: 'not_found',
    });
  });

  it('marks the product with the matching priceId purchased', () => {
    let s = reduce(
      initialProductState,
      fetchProductList.fulfilled(
        { products: [card('p1', 'price_1'), card('p2', 'price_2')], bundles: [] },
        'id',
        'v',
      ),
    );
    s = reduce(s, markPurchased({ priceId: 'price_2' }));
    expect(s.productList.data?.map((p) => p.purchased)).toEqual([false, true]);
  });

  it('search stores products, bundles and the cursor; hydrate merges server state', () => {
    const q = { q: 'rsi' };
    let s = reduce(initialProductState, searchCatalog.pending('id', q));
    expect(s.search.status).toBe('loading');
    s = reduce(
      s,
      searchCatalog.fulfilled(
        { products: [card('p1', 'x')], bundles: [], nextCursor: 'abc' },
        'id',
        q,
      ),
    );
    expect(s.search.data?.nextCursor).toBe('abc');
    const h = reduce(
      initialProductState,
      hydrate({ product: { details: { status: 'success', data: { id: 'p9' } } } }),
    );
    expect(h.details.status).toBe('success');
    expect(h.search.status).toBe('idle');
  });
});

const bundle = (id: string, priceId: string, products: ProductCard[] = []): BundleDetails =>
  ({
    id,
    priceId,
    price: { ...card('x', priceId).price },
    purchased: false,
    products,
  }) as unknown as BundleDetails;
const details = (id: string, priceIds: string[], prerequisites: string[] = []): ProductDetails =>
  ({
    ...card(id, priceIds[0]!),
    prices: priceIds.map((priceId) => card(id, priceId).price),
    prerequisites: prerequisites.map((p) => ({ id: p, slug: p, title: p, purchased: false })),
  }) as unknown as ProductDetails;

describe('after a purchase (docs/product.md#product-group: the matching priceId is marked purchased)', () => {
  const loaded = () =>
    reduce(
      initialProductState,
      fetchProductList.fulfilled(
        {
          products: [card('p1', 'price_1'), card('p2', 'price_2')],
          bundles: [{ ...bundle('b1', 'price_b1') }, { ...bundle('b2', 'price_b2') }],
        },
        'r',
        'v',
      ),
      searchCatalog.fulfilled(
        {
          products: [card('p2', 'price_2'), card('p3', 'price_3')],
          bundles: [bundle('b1', 'price_b1')],
          nextCursor: null,
        },
        'r',
        { q: 'x' },
      ),
      // Details of p2 with a second plan; the buyer pays for the yearly one.
      fetchProductDetails.fulfilled(details('p2', ['price_2', 'price_2y']), 'r', 'p2'),
    );

  it('marks the list, search and details entries with that priceId, and nothing else', () => {
    const s = reduce(loaded(), markPurchased({ priceId: 'price_2' }));
    expect(s.productList.data?.map((p) => p.purchased)).toEqual([false, true]);
    expect(s.search.data?.products.map((p) => p.purchased)).toEqual([true, false]);
    expect(s.details.data?.purchased).toBe(true);
    expect(s.bundleList.data?.map((b) => b.purchased)).toEqual([false, false]);
  });

  it('a non-default plan of the product marks its details', () => {
    const s = reduce(loaded(), markPurchased({ priceId: 'price_2y' }));
    expect(s.details.data?.purchased).toBe(true);
    expect(s.productList.data?.map((p) => p.purchased)).toEqual([false, false]);
  });

  it('bundles with the matching priceId are marked, and the products it grants', () => {
    let s = reduce(
      loaded(),
      fetchBundleDetails.fulfilled(
        bundle('b1', 'price_b1', [card('p1', 'price_1'), card('p3', 'price_3')]),
        'r',
        'b1',
      ),
    );
    s = reduce(s, markPurchased({ priceId: 'price_b1', productIds: ['p1', 'p3'] }));
    expect(s.bundleList.data?.map((b) => b.purchased)).toEqual([true, false]);
    expect(s.search.data?.bundles[0]!.purchased).toBe(true);
    expect(s.bundleDetails.data?.purchased).toBe(true);
    expect(s.bundleDetails.data?.products.map((p) => p.purchased)).toEqual([true, true]);
    expect(s.productList.data?.map((p) => p.purchased)).toEqual([true, false]);
    expect(s.search.data?.products.map((p) => p.purchased)).toEqual([false, true]);
  });

  it('owning a prerequisite unlocks the add-on on its details page', () => {
    let s = reduce(
      initialProductState,
      fetchProductDetails.fulfilled(details('addon', ['price_a'], ['base']), 'r', 'addon'),
    );
    s = reduce(s, markPurchased({ priceId: 'price_base', productIds: ['base'] }));
    expect(s.details.data?.prerequisites[0]!.purchased).toBe(true);
    expect(s.details.data?.purchased).toBe(false);
  });

  it('an order status that comes back paid marks it; pending, failed or cancelled do not', () => {
    const item = { ...purchase().item, priceId: 'price_2' };
    for (const status of ['pending', 'failed', 'cancelled'] as const) {
      const s = reduce(
        loaded(),
        fetchPurchaseStatus.fulfilled(purchase({ status, item }), 'r', 'cs_1'),
      );
      expect(s.productList.data?.map((p) => p.purchased)).toEqual([false, false]);
      expect(s.details.data?.purchased).toBe(false);
    }
    const s = reduce(loaded(), fetchPurchaseStatus.fulfilled(paid({ item }), 'r', 'cs_1'));
    expect(s.productList.data?.map((p) => p.purchased)).toEqual([false, true]);
    expect(s.details.data?.purchased).toBe(true);
    const viaDetails = reduce(
      loaded(),
      fetchPurchaseDetails.fulfilled(paid({ item }), 'r', 'pur_1'),
    );
    expect(viaDetails.search.data?.products[0]!.purchased).toBe(true);
  });
});

describe('checkout sub-request', () => {
  const arg = {
    vendorUrl: 'alpha-edge',
    body: { priceId: 'price_1', scheme: 'one_time' as const },
    idempotencyKey: 'k1',
  };
  it('loading → success with the hosted checkout url; failure keeps the server message', () => {
    let s = reduce(initialProductState, checkoutProduct.pending('r', arg));
    expect(s.checkout.status).toBe('loading');
    const answer = { url: 'http://x/sandbox/checkout/cs_1', sessionId: 'cs_1' };
    s = reduce(s, checkoutProduct.fulfilled(answer, 'r', arg));
    expect(s.checkout).toEqual({ status: 'success', data: answer, error: null });
    const owned = { error: 'You already own this.', code: 'conflict' };
    const b = { body: { bundleId: 'b1' }, idempotencyKey: 'k2' };
    s = reduce(
      initialProductState,
      checkoutBundle.pending('r', b),
      checkoutBundle.rejected(null, 'r', b, owned),
    );
    expect(s.checkout).toEqual({ status: 'failure', data: null, error: owned });
    expect(reduce(s, resetCheckout()).checkout).toEqual({
      status: 'idle',
      data: null,
      error: null,
    });
  });

  function signedInStoreReplying(replies: Array<() => Promise<Response>>) {
    const sent: Array<{ url: URL; init: RequestInit }> = [];
    const made = signedInStore((url, init) => {
      sent.push({ url, init });
      return replies.shift()!();
    });
    return { ...made, sent };
  }
  const json = (status: number, body: unknown) => () =>
    Promise.resolve(new Response(JSON.stringify(body), { status }));

  it('product checkout: vendorUrl in the query, the body, the Idempotency-Key header', async () => {
    const { store, sent } = signedInStoreReplying([
      () => Promise.reject(new TypeError('Failed to fetch')),
      json(201, { url: 'http://x/sandbox/checkout/cs_1', sessionId: 'cs_1' }),
    ]);
    const body = {
      priceId: 'price_1',
      scheme: 'month' as const,
      coupon: 'SAVE20',
      refId: 'demo-affiliate',
    };
    const first = await store.dispatch(
      checkoutProduct({ vendorUrl: 'alpha-edge', body, idempotencyKey: 'key-1' }),
    );
    expect(first.payload).toEqual(NETWORK_ERROR);
    expect(store.getState().product.checkout.error).toEqual(NETWORK_ERROR);
    await store.dispatch(
      checkoutProduct({ vendorUrl: 'alpha-edge', body, idempotencyKey: 'key-1' }),
    );
    for (const { url, init } of sent) {
      expect(init.method).toBe('POST');
      expect(url.pathname).toBe('/api/v1/user/product');
      expect(url.search).toBe('?vendorUrl=alpha-edge');
      expect(JSON.parse(init.body as string)).toEqual(body);
      expect(init.credentials).toBe('omit');
      expect(init.headers).toMatchObject({
        'idempotency-key': 'key-1',
        authorization: 'Bearer access-1',
      });
    }
    expect(store.getState().product.checkout.data?.sessionId).toBe('cs_1');
  });

  it('bundle checkout posts the bundle body with its key; a refusal is stored', async () => {
    const refusal = { error: 'That coupon code is not valid.', code: 'business_rule' };
    const { store, sent } = signedInStoreReplying([json(422, refusal)]);
    await store.dispatch(
      checkoutBundle({ body: { bundleId: 'bun_1', coupon: 'NOPE' }, idempotencyKey: 'k9' }),
    );
    expect(sent[0]!.url.pathname).toBe('/api/v1/user/bundle');
    expect(JSON.parse(sent[0]!.init.body as string)).toEqual({ bundleId: 'bun_1', coupon: 'NOPE' });
    expect(sent[0]!.init.headers).toMatchObject({ 'idempotency-key': 'k9' });
    expect(store.getState().product.checkout).toEqual({
      status: 'failure',
      data: null,
      error: refusal,
    });
  });

  it('through the store: a paid status answer marks the product on its details page', async () => {
    const { store } = signedInStoreReplying([
      json(200, { purchase: paid({ item: { ...purchase().item, priceId: 'price_2y' } }) }),
    ]);
    store.dispatch(
      fetchProductDetails.fulfilled(details('p2', ['price_2', 'price_2y']), 'r', 'p2'),
    );
    expect(store.getState().product.details.data?.purchased).toBe(false);
    await store.dispatch(fetchPurchaseStatus('cs_1'));
    expect(store.getState().product.details.data?.purchased).toBe(true);
  });
});
