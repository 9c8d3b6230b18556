// The workspace's paths in one place: pages link to each other through these, and the shell's
// account page links in without loading the workspace's code.
export const VENDOR_HOME_PATH = '/vendor';

/** The workspace's sections, in the order the side navigation lists them. */
export const vendorNav = [
  { to: '/vendor', label: 'Overview', end: true },
  { to: '/vendor/storefront', label: 'Storefront' },
  { to: '/vendor/payouts', label: 'Payouts' },
  { to: '/vendor/products', label: 'Products' },
  { to: '/vendor/bundles', label: 'Bundles' },
  { to: '/vendor/delivery', label: 'Delivery' },
  { to: '/vendor/coupons', label: 'Coupons' },
  { to: '/vendor/affiliates', label: 'Affiliates' },
  { to: '/vendor/sales', label: 'Sales' },
  { to: '/vendor/reviews', label: 'Reviews' },
  { to: '/vendor/analytics', label: 'Analytics' },
  { to: '/vendor/developers', label: 'Developers' },
] as const;

/** What a workspace page gets from the workspace's router (routes/workspace/layout.tsx): its path's params. */
export interface VendorPageProps {
  params: Readonly<Record<string, string | undefined>>;
}
