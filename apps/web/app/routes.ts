import { index, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('search', 'routes/search.tsx'),
  route('v/:vendorUrl', 'routes/vendor.tsx'),
  route('p/:id/:slug?', 'routes/product.tsx'),
  route('b/:id/:slug?', 'routes/bundle.tsx'),
  route('vendor/login', 'routes/vendor-login.tsx'),
  route('premium', 'routes/plan.tsx', { id: 'premium' }),
  route('pro-plus', 'routes/plan.tsx', { id: 'pro-plus' }),
  route('login', 'routes/login.tsx'),
  route('signup', 'routes/signup.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('activate', 'routes/activate.tsx'),
  route('account', 'routes/account.tsx'),
  route('account/password', 'routes/account-password.tsx'),
  route('orders', 'routes/orders.tsx'),
  route('orders/status', 'routes/order-status.tsx'),
  route('orders/:id', 'routes/order.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
