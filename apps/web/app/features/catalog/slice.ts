import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { endpoints, IDEMPOTENCY_KEY_HEADER } from '@tradeshelf/contract/client';
import type {
  BundleCard,
  BundleDetails,
  CheckoutBundleBody,
  CheckoutProductBody,
  CheckoutResponse,
  ProductCard,
  ProductDetails,
  Purchase,
  SearchQuery,
  VendorProfile,
} from '@tradeshelf/contract';
import { fetchPurchaseDetails, fetchPurchaseStatus } from '../orders/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { fail, idle, start, succeed, type RequestState } from '../../lib/request-state.ts';
import { requestThunk } from '../../lib/thunk.ts';

/** docs/product.md#product-group: fetching the product list loads products and bundles together. */
export const fetchProductList = requestThunk<
  string,
  { products: ProductCard[]; bundles: BundleCard[] }
>('product/list', (vendorUrl, { api }) =>
  api.call(endpoints.sellerProductList, { query: { vendorUrl, isActive: 'true' } }),
);
export const fetchProductDetails = requestThunk<string, ProductDetails>(
  'product/details',
  async (id, { api }) => (await api.call(endpoints.productDetails, { query: { id } })).product,
);
export const searchCatalog = requestThunk<
  SearchQuery,
  { products: ProductCard[]; bundles: BundleCard[]; nextCursor: string | null }
>('product/search', (query, { api }) => api.call(endpoints.search, { query }));
export const validatePrerequisite = requestThunk<
  string,
  { satisfied: boolean; missing: Array<{ id: string; title: string; slug: string }> }
>('product/prerequisite', (productId, { api }) =>
  api.call(endpoints.validatePrerequisites, { body: { productId } }),
);
export const fetchBundleDetails = requestThunk<string, BundleDetails>(
  'product/bundleDetails',
  async (id, { api }) => (await api.call(endpoints.bundleDetails, { query: { id } })).bundle,
);

/** One buy attempt: the same `idempotencyKey` for retries of the same attempt. */
export interface CheckoutProductArg {
  vendorUrl: string;
  body: CheckoutProductBody;
  idempotencyKey: string;
}
export interface CheckoutBundleArg {
  body: CheckoutBundleBody;
  idempotencyKey: string;
}
/** Starts a hosted checkout for a product plan; the answer's `url` is where the buyer pays. */
export const checkoutProduct = requestThunk<CheckoutProductArg, CheckoutResponse>(
  'product/checkout',
  ({ vendorUrl, body, idempotencyKey }, { api }) =>
    api.call(
      endpoints.checkoutProduct,
      { query: { vendorUrl }, body },
      { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
    ),
);
export const checkoutBundle = requestThunk<CheckoutBundleArg, CheckoutResponse>(
  'product/checkoutBundle',
  ({ body, idempotencyKey }, { api }) =>
    api.call(
      endpoints.checkoutBundle,
      { body },
      { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
    ),
);

export const fetchSeller = requestThunk<string, VendorProfile>(
  'seller/details',
  async (vendorUrl, { api }) =>
    (await api.call(endpoints.vendorProfile, { query: { vendorUrl } })).vendor,
);

/** The product group (docs/product.md#request-groups). */
export interface ProductState {
  productList: RequestState<ProductCard[]>;
  bundleList: RequestState<BundleCard[]>;
  details: RequestState<ProductDetails>;
  search: RequestState<{
    products: ProductCard[];
    bundles: BundleCard[];
    nextCursor: string | null;
  }>;
  prerequisite: RequestState<{
    satisfied: boolean;
    missing: Array<{ id: string; title: string; slug: string }>;
  }>;
  /** The bundle page's bundle (re-read with the buyer's token to show what they own). */
  bundleDetails: RequestState<BundleDetails>;
  /** The hosted-checkout session being started (product or bundle). */
  checkout: RequestState<CheckoutResponse>;
  /** The query `search` answers (or is loading), as `searchKey` writes it. */
  searchKey: string | null;
  /** The product `prerequisite` answers (or is loading) for. */
  prerequisiteFor: string | null;
}

/** One spelling per query, so a page can tell whether `search` answers the query it shows. */
export const searchKey = (q: SearchQuery) => JSON.stringify(q);

/** What a paid purchase unlocked: its price, and the products its entitlements name. */
export interface PurchasedPayload {
  priceId: string;
  productIds?: string[];
}
export const purchasedPayload = (p: Purchase): PurchasedPayload => ({
  priceId: p.item.priceId,
  productIds: [...new Set(p.entitlements.map((e) => e.productId))],
});

function applyPurchased(s: ProductState, { priceId, productIds = [] }: PurchasedPayload) {
  const owned = new Set(productIds);
  const card = (p: ProductCard) => {
    if (p.priceId === priceId || p.price.priceId === priceId || owned.has(p.id)) p.purchased = true;
  };
  const bundle = (b: BundleCard) => {
    if (b.priceId === priceId || b.price.priceId === priceId) b.purchased = true;
  };
  s.productList.data?.forEach(card);
  s.bundleList.data?.forEach(bundle);
  s.search.data?.products.forEach(card);
  s.search.data?.bundles.forEach(bundle);
  const d = s.details.data;
  if (d) {
    if (d.prices.some((p) => p.priceId === priceId) || owned.has(d.id)) d.purchased = true;
    for (const pre of d.prerequisites) if (owned.has(pre.id)) pre.purchased = true;
  }
  const bd = s.bundleDetails.data;
  if (bd) {
    bundle(bd);
    bd.products.forEach(card);
  }
}

export const initialProductState: ProductState = {
  productList: idle(),
  bundleList: idle(),
  details: idle(),
  search: idle(),
  prerequisite: idle(),
  bundleDetails: idle(),
  checkout: idle(),
  searchKey: null,
  prerequisiteFor: null,
};

export const productSlice = createSlice({
  name: 'product',
  initialState: initialProductState,
  reducers: {
    /**
     * docs/product.md#product-group: after a purchase, the product with the matching priceId is marked purchased, in the
     * list, search results, details and bundles (plus the products a bundle's entitlements name).
     */
    markPurchased: (s, a: PayloadAction<PurchasedPayload>) => applyPurchased(s, a.payload),
    /** The buyer changed the plan or coupon: a previous checkout error no longer applies. */
    resetCheckout: (s) => {
      s.checkout = idle();
    },
  },
  extraReducers: (b) => {
    b.addCase(fetchProductList.pending, (s) => {
      start(s.productList);
      start(s.bundleList);
    })
      .addCase(fetchProductList.fulfilled, (s, a) => {
        succeed(s.productList, a.payload.products);
        succeed(s.bundleList, a.payload.bundles);
      })
      .addCase(fetchProductList.rejected, (s, a) => {
        // docs/product.md#request-states: failed list fetches store the whole error.
        fail(s.productList, a.payload);
        fail(s.bundleList, a.payload);
      })
      .addCase(fetchProductDetails.pending, (s) => start(s.details))
      .addCase(fetchProductDetails.fulfilled, (s, a) => succeed(s.details, a.payload))
      .addCase(fetchProductDetails.rejected, (s, a) => fail(s.details, a.payload))
      .addCase(searchCatalog.pending, (s, a) => {
        start(s.search);
        s.searchKey = searchKey(a.meta.arg);
      })
      .addCase(searchCatalog.fulfilled, (s, a) => succeed(s.search, a.payload))
      .addCase(searchCatalog.rejected, (s, a) => fail(s.search, a.payload))
      .addCase(validatePrerequisite.pending, (s, a) => {
        start(s.prerequisite);
        s.prerequisiteFor = a.meta.arg;
      })
      .addCase(validatePrerequisite.fulfilled, (s, a) => succeed(s.prerequisite, a.payload))
      .addCase(validatePrerequisite.rejected, (s, a) => fail(s.prerequisite, a.payload))
      .addCase(fetchBundleDetails.pending, (s) => start(s.bundleDetails))
      .addCase(fetchBundleDetails.fulfilled, (s, a) => succeed(s.bundleDetails, a.payload))
      .addCase(fetchBundleDetails.rejected, (s, a) => fail(s.bundleDetails, a.payload))
      .addCase(checkoutProduct.pending, (s) => start(s.checkout))
      .addCase(checkoutProduct.fulfilled, (s, a) => succeed(s.checkout, a.payload))
      .addCase(checkoutProduct.rejected, (s, a) => fail(s.checkout, a.payload))
      .addCase(checkoutBundle.pending, (s) => start(s.checkout))
      .addCase(checkoutBundle.fulfilled, (s, a) => succeed(s.checkout, a.payload))
      .addCase(checkoutBundle.rejected, (s, a) => fail(s.checkout, a.payload))
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.product))
      // docs/product.md#product-group: an order that comes back paid marks what it bought as purchased.
      .addMatcher(
        isAnyOf(fetchPurchaseStatus.fulfilled, fetchPurchaseDetails.fulfilled),
        (s, a) => {
          if (a.payload.status === 'paid') applyPurchased(s, purchasedPayload(a.payload));
        },
      );
  },
});

export const { markPurchased, resetCheckout } = productSlice.actions;

/** The seller group (docs/product.md#request-groups). */
export interface SellerState {
  details: RequestState<VendorProfile>;
}
export const sellerSlice = createSlice({
  name: 'seller',
  initialState: { details: idle<VendorProfile>() } as SellerState,
  reducers: {},
  extraReducers: (b) => {
    b.addCase(fetchSeller.pending, (s) => start(s.details))
      .addCase(fetchSeller.fulfilled, (s, a) => succeed(s.details, a.payload))
      .addCase(fetchSeller.rejected, (s, a) => fail(s.details, a.payload))
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.seller));
  },
});
