import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from './test.ts';

// Issue 27: no page scrolls sideways on a phone. Every route of apps/web/app/routes.ts and every
// page of the vendor workspace, at 320, 390 and 414 px: public pages anonymously, the rest as the
// demo account they belong to, dynamic routes with ids the demo data links to.

const WIDTHS = [320, 390, 414];
const PASSWORD = 'tradeshelf-demo';

/** The pattern → URL of every visit of one test; a pattern may stand for several URLs. */
type Visits = Array<[pattern: string, url: string]>;

/** What sticks out on the page as it stands: empty when nothing is wider than the screen. */
async function sticksOut(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= width) return null;
    // The outermost elements past the right edge that no scroller clips name the culprit. An
    // absolute box is clipped by the scrollers around its containing block only (sr-only text too).
    const past = (el: Element) => el.getBoundingClientRect().right > width + 0.5;
    const clipped = (el: Element) => {
      for (let box: Element | null = el; box && box !== document.body;) {
        const position = getComputedStyle(box).position;
        if (position === 'fixed') return true;
        let next: Element | null = box.parentElement;
        if (position === 'absolute')
          while (next && next !== document.body && getComputedStyle(next).position === 'static')
            next = next.parentElement;
        if (!next || next === document.body) return false;
        if (getComputedStyle(next).overflowX !== 'visible') return true;
        box = next;
      }
      return false;
    };
    const sticks = (el: Element | null) => !!el && el !== document.body && past(el) && !clipped(el);
    const culprits: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!sticks(el) || sticks(el.parentElement)) continue;
      const cls = typeof el.className === 'string' ? el.className.slice(0, 80) : '';
      const right = Math.round(el.getBoundingClientRect().right);
      culprits.push(`<${el.tagName.toLowerCase()} class="${cls}"> right ${right}`);
      if (culprits.length === 3) break;
    }
    return `scrollWidth ${scrollWidth}: ${culprits.join('; ')}`;
  });
}

/** Pages that hold a request open while shown (the alerts' live stream): never network-idle. */
const LIVE = new Set(['/library/alerts/:productId']);

/** The page once its data and lazy screens have loaded. */
async function settle(page: Page, pattern: string) {
  if (LIVE.has(pattern)) {
    await page.waitForLoadState('load');
    // The feed, or why it is not yours.
    await expect(page.locator('main h1, main [role="alert"]').first()).toBeVisible({
      timeout: 15_000,
    });
  } else await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
}

/** Every visit at every width (the page loaded once, then the window resized); the offenders. */
async function offenders(page: Page, visits: Visits): Promise<string[]> {
  const found: string[] = [];
  for (const [pattern, url] of visits) {
    await page.setViewportSize({ width: WIDTHS[0]!, height: 800 });
    await page.goto(url);
    await settle(page, pattern);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const out = await sticksOut(page);
      if (out) found.push(`${width} px ${url} (${pattern}): ${out}`);
    }
  }
  return found;
}

/** The first link on `url` whose path matches `path`: a real id from the demo data. */
async function linkOn(page: Page, url: string, path: RegExp): Promise<string> {
  await page.goto(url);
  const link = page.locator('a[href]');
  await expect
    .poll(async () => {
      const hrefs = await link.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      return hrefs.find((h) => path.test(h.split('?')[0]!)) ?? '';
    })
    .not.toBe('');
  const hrefs = await link.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.find((h) => path.test(h.split('?')[0]!))!;
}

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  // The session is stored 5 s after the answer (docs/product.md#sessions).
  await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeVisible({
    timeout: 15_000,
  });
  return page;
}

/** Route patterns: apps/web/app/routes.ts, and the workspace's pages under vendor/*. */
function declaredRoutes(): string[] {
  const top = [...readFileSync('apps/web/app/routes.ts', 'utf8').matchAll(/route\('([^']+)'/g)]
    .map((m) => `/${m[1]}`)
    .filter((p) => p !== '/vendor/*');
  const workspace = [
    ...readFileSync('apps/web/app/routes/workspace/layout.tsx', 'utf8').matchAll(
      /path: '([^']*)'/g,
    ),
  ].map((m) => (m[1] ? `/vendor/${m[1]}` : '/vendor'));
  return ['/', ...top, ...workspace];
}

// Which account sees which routes: the last test checks these cover every declared route.
const PUBLIC = [
  '/',
  '/search',
  '/v/:vendorUrl',
  '/p/:id/:slug?',
  '/b/:id/:slug?',
  '/vendor/login',
  '/premium',
  '/pro-plus',
  '/login',
  '/signup',
  '/forgot-password',
  '/activate',
  '/orders/status',
  '/discord-auth-callback',
  '/contact',
  '/alerts/unsubscribe',
  '/version-mails/unsubscribe',
  '/account/email/confirm',
  '/terms',
  '/privacy',
  '/refund-policy',
  '/risk-disclosure',
  '/*',
];
const BUYER = [
  '/account',
  '/account/password',
  '/orders',
  '/orders/:id',
  '/courses',
  '/courses/:id',
  '/courses/:id/lessons/:lessonId',
  '/library',
  '/library/alerts/:productId',
  '/apps',
];
const AFFILIATE = ['/affiliate', '/affiliate/connected'];
const VENDOR = [
  '/vendor',
  '/vendor/storefront',
  '/vendor/payouts',
  '/vendor/products',
  '/vendor/products/new',
  '/vendor/products/:id',
  '/vendor/bundles',
  '/vendor/bundles/new',
  '/vendor/bundles/:id',
  '/vendor/delivery',
  '/vendor/delivery/discord',
  '/vendor/delivery/tradingview',
  '/vendor/delivery/alerts',
  '/vendor/courses',
  '/vendor/courses/:productId',
  '/vendor/licences',
  '/vendor/licences/:productId',
  '/vendor/coupons',
  '/vendor/affiliates',
  '/vendor/sales',
  '/vendor/sales/:id',
  '/vendor/reviews',
  '/vendor/analytics',
  '/vendor/developers',
];

/** Every pattern of `group` has a visit, then the offenders among them all. */
async function check(page: Page, group: string[], visits: Visits) {
  expect(visits.map(([pattern]) => pattern).filter((p) => !group.includes(p))).toEqual([]);
  expect(group.filter((p) => !visits.some(([pattern]) => pattern === p))).toEqual([]);
  expect(await offenders(page, visits)).toEqual([]);
}

test('every declared route is in a group below', () => {
  const grouped = [...PUBLIC, ...BUYER, ...AFFILIATE, ...VENDOR];
  expect(declaredRoutes().filter((p) => !grouped.includes(p))).toEqual([]);
});

test('public pages, anonymously', async ({ page, request }) => {
  test.setTimeout(300_000);
  const found = (await (
    await request.get('/api/v1/products/term/search?q=rsi&limit=1')
  ).json()) as { products: Array<{ id: string; slug: string; vendor: { vendorUrl: string } }> };
  const product = found.products[0]!;
  const { bundles } = (await (
    await request.get(`/api/v1/products/list/search?vendorUrl=${product.vendor.vendorUrl}`)
  ).json()) as { bundles: Array<{ id: string; slug: string }> };
  const bundle = bundles[0]!;
  await check(page, PUBLIC, [
    ['/', '/'],
    ['/search', '/search'],
    // Nothing found: the other searches offered instead.
    ['/search', '/search?q=rsi%20discord'],
    ['/v/:vendorUrl', `/v/${product.vendor.vendorUrl}`],
    ['/p/:id/:slug?', `/p/${product.id}/${product.slug}`],
    ['/b/:id/:slug?', `/b/${bundle.id}/${bundle.slug}`],
    ['/vendor/login', '/vendor/login'],
    ['/premium', '/premium'],
    ['/pro-plus', '/pro-plus'],
    ['/login', '/login'],
    ['/signup', '/signup'],
    ['/forgot-password', '/forgot-password'],
    ['/activate', '/activate'],
    ['/orders/status', '/orders/status'],
    ['/discord-auth-callback', '/discord-auth-callback?error=access_denied&state=x'],
    ['/contact', '/contact'],
    ['/alerts/unsubscribe', '/alerts/unsubscribe'],
    ['/version-mails/unsubscribe', '/version-mails/unsubscribe?token=x'],
    ['/account/email/confirm', '/account/email/confirm?token=x'],
    ['/terms', '/terms'],
    ['/privacy', '/privacy'],
    ['/refund-policy', '/refund-policy'],
    ['/risk-disclosure', '/risk-disclosure'],
    ['/*', '/no-such-page'],
  ]);
});

test('buyer pages, as the demo buyer', async ({ browser, request }) => {
  test.setTimeout(300_000);
  const page = await signedIn(browser, 'buyer@demo.tradeshelf.test');
  const course = await linkOn(page, '/courses', /^\/courses\/[^/]+$/);
  // The demo alert feed (the demo buyer may or may not hold it: the page or its refusal shows).
  const alerts = (
    (await (
      await request.get('/api/v1/products/term/search?q=momentum%20breakout%20alerts&limit=1')
    ).json()) as { products: Array<{ id: string }> }
  ).products[0]!;
  await check(page, BUYER, [
    ['/account', '/account'],
    ['/account/password', '/account/password'],
    ['/orders', '/orders'],
    ['/orders/:id', await linkOn(page, '/orders', /^\/orders\/(?!status$)[^/]+$/)],
    ['/courses', '/courses'],
    ['/courses/:id', course],
    [
      '/courses/:id/lessons/:lessonId',
      await linkOn(page, course, /^\/courses\/[^/]+\/lessons\/[^/]+$/),
    ],
    ['/library', '/library'],
    ['/library/alerts/:productId', `/library/alerts/${alerts.id}`],
    ['/apps', '/apps'],
  ]);
  await page.close();
});

test('affiliate pages, as the demo affiliate', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, 'affiliate@demo.tradeshelf.test');
  await check(page, AFFILIATE, [
    ['/affiliate', '/affiliate'],
    ['/affiliate/connected', '/affiliate/connected'],
  ]);
  await page.close();
});

test('the vendor workspace, as the demo vendor', async ({ browser }) => {
  test.setTimeout(420_000);
  const page = await signedIn(browser, 'vendor@demo.tradeshelf.test');
  /** A real item of a workspace list: the first link to one (not to "new"). */
  const item = (list: string) =>
    linkOn(page, `/vendor/${list}`, new RegExp(`^/vendor/${list}/(?!new$)[^/]+$`));
  const visits: Visits = VENDOR.filter((p) => !p.includes(':')).map((p) => [p, p]);
  const product = await item('products');
  visits.push(
    ['/vendor/products/:id', product],
    ['/vendor/bundles/:id', await item('bundles')],
    ['/vendor/sales/:id', await item('sales')],
    ['/vendor/courses/:productId', await item('courses')],
    // The demo vendor sells no app: the terms screen of one of its products, as a link would open it.
    ['/vendor/licences/:productId', product.replace('/products/', '/licences/')],
  );
  await check(page, VENDOR, visits);
  await page.close();
});
