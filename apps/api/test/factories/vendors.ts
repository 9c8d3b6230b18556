import type { TestApp } from '../harness.ts';
import { vendorToken } from './affiliates.ts';
import { createProduct, createVendor, tokenOf, type Vendor } from './catalog.ts';

type VendorOverrides = Parameters<typeof createVendor>[1];

/**
 * The vendor a test file is about and another vendor, each with an access token (`signIn`; by
 * default a buyer who sells): the other is the one whose sales, products and reviews the first
 * must not reach, and who must not reach the first's.
 */
export async function vendorAndOther(
  t: TestApp,
  options: {
    vendor?: VendorOverrides;
    other?: VendorOverrides;
    signIn?: (t: TestApp, vendor: Vendor) => Promise<string>;
  } = {},
) {
  const signIn = options.signIn ?? ((t: TestApp, v: Vendor) => tokenOf(t, v.userId));
  const vendor = await createVendor(t, options.vendor);
  const other = await createVendor(t, options.other);
  return {
    vendor,
    other,
    vendorToken: await signIn(t, vendor),
    otherToken: await signIn(t, other),
  };
}

/**
 * The vendor a test file is about, signed in (`token`), and another vendor with a product of its
 * own: the product the first vendor's routes must not reach, with the other's token.
 */
export async function vendorAndForeignProduct(
  t: TestApp,
  product: Parameters<typeof createProduct>[2] = {},
) {
  const two = await vendorAndOther(t, { signIn: vendorToken });
  return {
    vendor: two.vendor,
    token: two.vendorToken,
    other: {
      token: two.otherToken,
      productId: (await createProduct(t, two.other.id, product)).id,
    },
  };
}
