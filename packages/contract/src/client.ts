/**
 * `@tradeshelf/contract/client`: what a browser may import at run time. Nothing here imports zod
 * (the web build fails if zod reaches a client chunk): route metadata (`endpoints`), constants,
 * labels, message tables and the rule functions the schemas are built from. Types of requests and
 * responses come from `@tradeshelf/contract` as `import type`, which leaves nothing behind.
 */
export * from './constants/account.ts';
export * from './constants/affiliates.ts';
export * from './constants/alerts.ts';
export * from './constants/analytics.ts';
export * from './constants/auth.ts';
export * from './constants/catalog.ts';
export * from './constants/courses.ts';
export * from './constants/deliverables.ts';
export * from './constants/developers.ts';
export * from './constants/discord.ts';
export * from './constants/deliverables.ts';
export * from './constants/errors.ts';
export * from './constants/licences.ts';
export * from './constants/membership.ts';
export * from './constants/orders.ts';
export * from './constants/orders-messages.ts';
export * from './constants/passkeys.ts';
export * from './constants/reviews.ts';
export * from './constants/support.ts';
export * from './constants/tradingview.ts';
export * from './constants/users.ts';
export * from './constants/vendor-sales.ts';
export * from './constants/vendor-analytics.ts';
export * from './constants/vendor-products.ts';
export * from './constants/vendor-bundles.ts';
export * from './constants/vendor-courses.ts';
export * from './constants/vendor-licences.ts';
export * from './constants/vendor-storefront.ts';
export * from './endpoints.ts';
export * from './endpoints-vendor.ts';
export * from './endpoints-account.ts';
export * from './endpoints-alerts.ts';
export * from './endpoints-passkeys.ts';
export * from './endpoints-screens.ts';
export * from './endpoints-tradingview.ts';
export * from './format.ts';
export * from './route.ts';
export * from './rules/code.ts';
export * from './rules/coupon.ts';
export * from './rules/password.ts';
export * from './rules/ref-id.ts';
export * from './rules/reserved-names.ts';
export * from './rules/text.ts';
export * from './rules/username.ts';
export * from './rules/vendor-sales.ts';
