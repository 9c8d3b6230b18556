import type { TestApp } from '../harness.ts';
import { createVendor, tokenOf, type Vendor } from './catalog.ts';

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
