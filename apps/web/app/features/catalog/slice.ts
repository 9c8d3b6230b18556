import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  catalogRoutes,
  type ApiError,
  type BundleCard,
  type ProductCard,
  type ProductDetails,
  type SearchQuery,
  type VendorProfile,
} from '@tradeshelf/contract';
import { toApiError } from '../../lib/http.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { fail, idle, start, succeed, type RequestState } from '../../lib/request-state.ts';
import type { ThunkExtra } from '../../store.ts';

type Config = { extra: ThunkExtra; rejectValue: ApiError };
const guard =
  <A, R>(run: (arg: A, extra: ThunkExtra) => Promise<R>) =>
  async (arg: A, api: { extra: ThunkExtra; rejectWithValue: (e: ApiError) => unknown }) => {
    try {
      return await run(arg, api.extra);
    } catch (err) {
      return api.rejectWithValue(toApiError(err)) as never;
    }
  };

/** SPEC §4: fetching the product list loads products and bundles together. */
export const fetchProductList = createAsyncThunk<
  { products: ProductCard[]; bundles: BundleCard[] },
  string,
  Config
>(
  'product/list',
  guard((vendorUrl, { api }) =>
    api.call(catalogRoutes.sellerProductList, { query: { vendorUrl, isActive: 'true' } }),
  ),
);
export const fetchProductDetails = createAsyncThunk<ProductDetails, string, Config>(
  'product/details',
  guard(
    async (id, { api }) =>
      (await api.call(catalogRoutes.productDetails, { query: { id } })).product,
  ),
);
export const searchCatalog = createAsyncThunk<
  { products: ProductCard[]; bundles: BundleCard[]; nextCursor: string | null },
  SearchQuery,
  Config
>(
  'product/search',
  guard((query, { api }) => api.call(catalogRoutes.search, { query })),
);
export const validatePrerequisite = createAsyncThunk<
  { satisfied: boolean; missing: Array<{ id: string; title: string; slug: string }> },
  string,
  Config
>(
  'product/prerequisite',
  guard((productId, { api }) =>
    api.call(catalogRoutes.validatePrerequisites, { body: { productId } }),
  ),
);
export const fetchSeller = createAsyncThunk<VendorProfile, string, Config>(
  'seller/details',
  guard(
    async (vendorUrl, { api }) =>
      (await api.call(catalogRoutes.vendorProfile, { query: { vendorUrl } })).vendor,
  ),
);

/** SPEC §3 product group. */
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
  checkout: RequestState<unknown>;
}

export const initialProductState: ProductState = {
  productList: idle(),
  bundleList: idle(),
  details: idle(),
  search: idle(),
  prerequisite: idle(),
  checkout: idle(),
};

export const productSlice = createSlice({
  name: 'product',
  initialState: initialProductState,
  reducers: {
    /** SPEC §4: after a purchase, the listed product with the matching priceId is marked purchased. */
    markPurchased: (s, a: PayloadAction<{ priceId: string }>) => {
      for (const p of s.productList.data ?? [])
        if (p.priceId === a.payload.priceId || p.price.priceId === a.payload.priceId)
          p.purchased = true;
      if (s.details.data && s.details.data.prices.some((p) => p.priceId === a.payload.priceId))
        s.details.data.purchased = true;
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
        // SPEC §8: failed list fetches store the whole error.
        fail(s.productList, a.payload);
        fail(s.bundleList, a.payload);
      })
      .addCase(fetchProductDetails.pending, (s) => start(s.details))
      .addCase(fetchProductDetails.fulfilled, (s, a) => succeed(s.details, a.payload))
      .addCase(fetchProductDetails.rejected, (s, a) => fail(s.details, a.payload))
      .addCase(searchCatalog.pending, (s) => start(s.search))
      .addCase(searchCatalog.fulfilled, (s, a) => succeed(s.search, a.payload))
      .addCase(searchCatalog.rejected, (s, a) => fail(s.search, a.payload))
      .addCase(validatePrerequisite.pending, (s) => start(s.prerequisite))
      .addCase(validatePrerequisite.fulfilled, (s, a) => succeed(s.prerequisite, a.payload))
      .addCase(validatePrerequisite.rejected, (s, a) => fail(s.prerequisite, a.payload))
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.product));
  },
});

export const { markPurchased } = productSlice.actions;

/** SPEC §3 seller group. */
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
