import type { BundleCard, ProductCard } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { hydrate } from '../../lib/hydrate.ts';
import {
  fetchProductList,
  initialProductState,
  markPurchased,
  productSlice,
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

describe('product group (SPEC §4)', () => {
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
    // SPEC §8: a failed list fetch stores the whole error.
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
