import type { routes } from './index.ts';
import type { RouteRef } from './route.ts';

type Routes = typeof routes;

/**
 * The run-time side of every route for clients: method, path, auth, success status and multipart,
 * keyed like `routes`, and no zod. Each entry is typed with its full route, so `api.call(endpoints.x,
 * req)` is checked against the route's request schemas and answers with its response type.
 *
 * The table repeats what the route table says: the compiler checks method, path, auth and status of
 * each entry against its route, and `endpoints.test.ts` checks the whole table, so they cannot drift.
 */
/**
 * Routes of the vendor workspace (their paths start `/api/v1/vendor/`). Their entries live in
 * `vendorEndpoints` (endpoints-vendor.ts), so the chunk every page loads does not carry them.
 */
export type VendorRouteName = {
  [K in keyof Routes]: Routes[K]['path'] extends `/api/v1/vendor/${string}` ? K : never;
}[keyof Routes];

export const endpoints: {
  readonly [K in Exclude<keyof Routes, VendorRouteName>]: RouteRef<Routes[K]>;
} = {
  // auth
  signupBuyer: { method: 'POST', path: '/auth/signup/buyer', auth: 'none', status: 201 },
  login: { method: 'POST', path: '/auth/login', auth: 'none', status: 200 },
  logout: { method: 'POST', path: '/auth/logout', auth: 'none', status: 200 },
  refreshToken: { method: 'POST', path: '/refresh_token', auth: 'refresh', status: 200 },
  sendForgotPasswordEmail: {
    method: 'POST',
    path: '/api/v1/password/send-forgot-password-email',
    auth: 'none',
    status: 200,
  },
  checkForgotPasswordCode: {
    method: 'POST',
    path: '/api/v1/password/check-forgot-password-code',
    auth: 'none',
    status: 200,
  },
  resetForgotPassword: {
    method: 'POST',
    path: '/api/v1/password/reset-forgot-password',
    auth: 'none',
    status: 200,
  },
  changePassword: {
    method: 'POST',
    path: '/api/v1/password/reset-request',
    auth: 'bearer',
    status: 200,
  },
  sendAccountVerificationEmail: {
    method: 'POST',
    path: '/api/v1/user/send-account-verification-email',
    auth: 'none',
    status: 200,
  },
  verifyAccountCode: {
    method: 'POST',
    path: '/api/v1/user/verify-account-code',
    auth: 'none',
    status: 200,
  },
  // users
  getProfile: { method: 'GET', path: '/api/v1/user/profile', auth: 'bearer', status: 200 },
  updateProfile: { method: 'PUT', path: '/api/v1/user/profile', auth: 'bearer', status: 200 },
  addVendorRole: { method: 'POST', path: '/api/v1/user/role/vendor', auth: 'bearer', status: 200 },
  imageUpload: {
    method: 'POST',
    path: '/api/v1/image-upload',
    auth: 'bearer',
    status: 200,
    multipart: true,
  },
  // analytics
  track: { method: 'POST', path: '/api/v1/analytics/events', auth: 'optional', status: 202 },
  // catalog
  vendorProfile: {
    method: 'GET',
    path: '/api/v1/user/vendor-profile/search',
    auth: 'optional',
    status: 200,
  },
  sellerProductList: {
    method: 'GET',
    path: '/api/v1/products/list/search',
    auth: 'optional',
    status: 200,
  },
  addProductImage: {
    method: 'POST',
    path: '/api/v1/products/{id}/images',
    auth: 'bearer',
    status: 200,
    multipart: true,
  },
  productDetails: {
    method: 'GET',
    path: '/api/v1/products/details/search',
    auth: 'optional',
    status: 200,
  },
  search: { method: 'GET', path: '/api/v1/products/term/search', auth: 'optional', status: 200 },
  bundleDetails: {
    method: 'GET',
    path: '/api/v1/bundles/details/search',
    auth: 'optional',
    status: 200,
  },
  topVendors: { method: 'GET', path: '/api/v1/vendors/top', auth: 'none', status: 200 },
  validatePrerequisites: {
    method: 'POST',
    path: '/api/v1/user/validate-prerequisites',
    auth: 'bearer',
    status: 200,
  },
  // orders
  checkoutProduct: { method: 'POST', path: '/api/v1/user/product', auth: 'bearer', status: 201 },
  checkoutBundle: { method: 'POST', path: '/api/v1/user/bundle', auth: 'bearer', status: 201 },
  previewCoupon: { method: 'GET', path: '/api/v1/coupons/preview', auth: 'optional', status: 200 },
  purchaseStatus: {
    method: 'GET',
    path: '/api/v1/purchase/session/{id}',
    auth: 'bearer',
    status: 200,
  },
  purchaseList: {
    method: 'GET',
    path: '/api/v1/purchases/buyer/list',
    auth: 'bearer',
    status: 200,
  },
  purchaseDetails: {
    method: 'GET',
    path: '/api/v1/purchases/buyer/{id}',
    auth: 'bearer',
    status: 200,
  },
  customerPortal: {
    method: 'GET',
    path: '/api/v1/payment/customer-portal',
    auth: 'bearer',
    status: 200,
  },
  connectAccount: {
    method: 'POST',
    path: '/api/v1/payment/connect-account',
    auth: 'bearer',
    status: 200,
  },
  connectAccountCallback: {
    method: 'POST',
    path: '/api/v1/payment/connect-account-callback',
    auth: 'bearer',
    status: 200,
  },
  // support
  contact: { method: 'POST', path: '/api/v1/contact', auth: 'none', status: 202 },
  platformTerms: { method: 'GET', path: '/api/v1/platform/terms', auth: 'none', status: 200 },
  // membership
  membership: { method: 'GET', path: '/api/v1/membership', auth: 'bearer', status: 200 },
  listSavedSearches: { method: 'GET', path: '/api/v1/saved-searches', auth: 'bearer', status: 200 },
  createSavedSearch: {
    method: 'POST',
    path: '/api/v1/saved-searches',
    auth: 'bearer',
    status: 201,
  },
  updateSavedSearch: {
    method: 'PATCH',
    path: '/api/v1/saved-searches/{id}',
    auth: 'bearer',
    status: 200,
  },
  deleteSavedSearch: {
    method: 'DELETE',
    path: '/api/v1/saved-searches/{id}',
    auth: 'bearer',
    status: 200,
  },
  unsubscribeSavedSearch: {
    method: 'POST',
    path: '/api/v1/saved-searches/unsubscribe',
    auth: 'none',
    status: 200,
  },
  // discord
  discordAuthorize: {
    method: 'GET',
    path: '/api/v1/discord/authorize',
    auth: 'bearer',
    status: 200,
  },
  discordOauthResponse: {
    method: 'GET',
    path: '/api/v1/discord/oauth-response',
    auth: 'bearer',
    status: 200,
  },
  discordUnlink: { method: 'POST', path: '/api/v1/discord/unlink', auth: 'bearer', status: 200 },
  userDiscord: { method: 'GET', path: '/api/v1/user/discord', auth: 'bearer', status: 200 },
  userCommunities: { method: 'GET', path: '/api/v1/communities/user', auth: 'bearer', status: 200 },
  reconnectCommunity: {
    method: 'PUT',
    path: '/api/v1/communities/reconnect-user/{id}',
    auth: 'bearer',
    status: 200,
  },
  // courses
  userCourses: { method: 'GET', path: '/api/v1/user/courses', auth: 'bearer', status: 200 },
  courseDetails: { method: 'GET', path: '/api/v1/courses/{id}', auth: 'optional', status: 200 },
  lessonProgress: {
    method: 'PUT',
    path: '/api/v1/courses/{id}/lessons/{lessonId}/progress',
    auth: 'bearer',
    status: 200,
  },
  videoUrl: { method: 'GET', path: '/api/v1/videos/url', auth: 'optional', status: 200 },
  attachmentUrl: {
    method: 'GET',
    path: '/api/v1/attachments/generate-url',
    auth: 'bearer',
    status: 200,
  },
  // licences
  licences: { method: 'GET', path: '/api/v1/licence', auth: 'bearer', status: 200 },
  deactivateLicenceActivation: {
    method: 'DELETE',
    path: '/api/v1/licence/{id}/activations/{activationId}',
    auth: 'bearer',
    status: 200,
  },
  resetLicenceKey: {
    method: 'POST',
    path: '/api/v1/licence/{id}/reset',
    auth: 'bearer',
    status: 200,
  },
  licenceDownload: {
    method: 'GET',
    path: '/api/v1/licence/{id}/download',
    auth: 'bearer',
    status: 200,
  },
  activateLicence: {
    method: 'POST',
    path: '/api/v1/licence/activate',
    auth: 'none',
    status: 200,
  },
  validateLicence: {
    method: 'POST',
    path: '/api/v1/licence/validate',
    auth: 'none',
    status: 200,
  },
  deactivateLicence: {
    method: 'POST',
    path: '/api/v1/licence/deactivate',
    auth: 'none',
    status: 200,
  },
  vendorLicencePublicKey: {
    method: 'GET',
    path: '/api/v1/licence/vendors/{vendorUrl}/public-key',
    auth: 'none',
    status: 200,
  },
  // tradingview
  userTradingView: { method: 'GET', path: '/api/v1/user/tradingview', auth: 'bearer', status: 200 },
  setTradingViewUsername: {
    method: 'PUT',
    path: '/api/v1/user/tradingview',
    auth: 'bearer',
    status: 200,
  },
  userTradingViewAccess: {
    method: 'GET',
    path: '/api/v1/user/tradingview/access',
    auth: 'bearer',
    status: 200,
  },
  productTradingViewScripts: {
    method: 'GET',
    path: '/api/v1/tradingview/products/{id}',
    auth: 'none',
    status: 200,
  },
  // affiliates
  affiliateVendors: {
    method: 'GET',
    path: '/api/v1/user/affiliate/vendors',
    auth: 'bearer',
    status: 200,
  },
  generateRef: {
    method: 'POST',
    path: '/api/v1/user/affiliate/generate-ref',
    auth: 'bearer',
    status: 200,
  },
  affiliateReferrals: {
    method: 'GET',
    path: '/api/v1/user/affiliate/referrals',
    auth: 'bearer',
    status: 200,
  },
  requestPayout: {
    method: 'POST',
    path: '/api/v1/user/affiliate/request-payout',
    auth: 'bearer',
    status: 200,
  },
  affiliatePayout: {
    method: 'GET',
    path: '/api/v1/user/affiliate/payouts/{id}',
    auth: 'bearer',
    status: 200,
  },
  pendingInvites: {
    method: 'GET',
    path: '/api/v1/user/affiliate/pending-invites',
    auth: 'bearer',
    status: 200,
  },
  acceptInvite: {
    method: 'GET',
    path: '/api/v1/user/affiliate/accept/{id}',
    auth: 'bearer',
    status: 200,
  },
  affiliateClick: {
    method: 'POST',
    path: '/api/v1/affiliate/clicks',
    auth: 'optional',
    status: 200,
  },
  // reviews
  getReview: { method: 'GET', path: '/api/v1/review/get-review', auth: 'bearer', status: 200 },
  postReview: { method: 'POST', path: '/api/v1/review/post-review', auth: 'bearer', status: 200 },
  allReviews: { method: 'GET', path: '/api/v1/review/get-all-reviews', auth: 'none', status: 200 },
  // vendor storefront and payouts
};
