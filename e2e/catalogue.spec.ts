import { expect, test } from './test.ts';

test('home → search → filter → product → storefront, and the back button restores the search', async ({
  page,
}) => {
  // The whole route manifest comes with the first page (ADR 018): no discovery round trips.
  const discovery: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/__manifest') discovery.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Best sellers' })).toBeVisible();
  await page.getByLabel('Search the marketplace').fill('divergence');
  await page.getByLabel('Search the marketplace').press('Enter');

  await expect(page).toHaveURL(/\/search\?q=divergence/);
  await expect(page.getByRole('heading', { name: 'Results for “divergence”' })).toBeVisible();
  // A select submits from script: wait for the hydration the plain search form's load started (the
  // header stops being busy); under load a change made before it was lost.
  await expect(page.getByRole('banner').locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'RSI Divergence Pro' }).first()).toBeVisible();

  await page.getByLabel('Category').selectOption('indicators');
  await expect(page).toHaveURL(/category=indicators/);
  await expect(
    page.getByRole('link', { name: 'Cumulative Delta Divergence' }).first(),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Momentum Trading Masterclass' })).toHaveCount(0);

  await page.goBack();
  await expect(page).not.toHaveURL(/category=/);
  await expect(
    page.getByRole('link', { name: 'Momentum Trading Masterclass' }).first(),
  ).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(/category=indicators/);

  await page.getByRole('link', { name: 'RSI Divergence Pro' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'RSI Divergence Pro' })).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(3);
  // The monthly plan has a free trial: nothing is charged today, and the page says what follows.
  await expect(
    page.getByRole('link', { name: 'Start 7-day free trial', exact: true }),
  ).toBeVisible();
  await expect(
    page.getByText('Then $29 / month. Cancel before the trial ends and you pay nothing.'),
  ).toBeVisible();
  await page.getByRole('radio', { name: '$249 / year' }).check();
  await expect(page.getByRole('link', { name: /Subscribe · \$249/ })).toBeVisible();

  await page.getByRole('link', { name: 'Visit the storefront' }).click();
  await expect(page).toHaveURL(/\/v\/alpha-edge$/);
  await expect(page.getByRole('heading', { level: 1, name: /Alpha Edge Labs/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Momentum Trader Bundle' })).toBeVisible();
  expect(discovery).toEqual([]);
});

test('typos find results and say what was searched', async ({ page }) => {
  await page.goto('/search?q=footprnt');
  await expect(page.getByText('No exact matches. Showing results for')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Footprint Delta Bars' }).first()).toBeVisible();
});

test('type and platform words search the fields; a search that finds nothing offers others', async ({
  page,
}) => {
  await page.goto('/search?q=mt5%20scanner');
  await expect(page.getByRole('link', { name: 'Currency Strength Scanner' }).first()).toBeVisible();

  await page.goto('/search?q=rsi%20discord');
  await expect(page.getByText('Nothing matches yet')).toBeVisible();
  await page
    .getByRole('list', { name: 'Other searches' })
    .getByRole('link', { name: /“rsi”/ })
    .click();
  await expect(page).toHaveURL(/\/search\?q=rsi$/);
  await expect(page.getByRole('link', { name: 'RSI Divergence Pro' }).first()).toBeVisible();
});

test('server-rendered HTML carries title, meta and valid JSON-LD before any script runs', async ({
  request,
}) => {
  const search = await request.get('/api/v1/products/term/search?q=RSI%20Divergence%20Pro&limit=1');
  const { products } = await search.json();
  const product = products[0];
  const res = await request.get(`/p/${product.id}/${product.slug}`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain('<title>RSI Divergence Pro · Tradeshelf</title>');
  expect(html).toMatch(
    /<meta name="description" content="Finds regular and hidden RSI divergences/,
  );
  expect(html).toMatch(/<link rel="canonical" href="[^"]+\/p\/prd_[^"]+\/rsi-divergence-pro"/);
  expect(html).toContain('property="og:title"');
  const blocks = [
    ...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g),
  ].map((m) => JSON.parse(m[1]!));
  const types = blocks.map((b) => b['@type']);
  expect(types).toEqual(
    expect.arrayContaining(['Product', 'BreadcrumbList', 'Organization', 'WebSite']),
  );
  const ld = blocks.find((b) => b['@type'] === 'Product');
  expect(ld.offers.length).toBe(3);
  expect(ld.offers[0]).toMatchObject({ '@type': 'Offer', priceCurrency: 'USD' });
  expect(ld.aggregateRating['@type']).toBe('AggregateRating');
  // The visible content is in the HTML itself, not only after hydration.
  expect(html).toContain('Choose a plan');

  const missing = await request.get('/p/prd_missing/anything');
  expect(missing.status()).toBe(404);
  const unknownVendor = await request.get('/v/no-such-vendor');
  expect(unknownVendor.status()).toBe(404);
  expect((await request.get('/sitemap.xml')).status()).toBe(200);
});

test('public pages are served again from the page cache; 404s and signed requests are not', async ({
  request,
}) => {
  const first = await request.get('/vendor/login');
  expect(first.status()).toBe(200);
  expect(first.headers()['cache-control']).toContain('s-maxage');
  expect(first.headers()['age']).toBeUndefined();
  const second = await request.get('/vendor/login');
  expect(second.headers()['age']).toMatch(/^\d+$/);
  // The same page, with a nonce of its own (ADR 022).
  const nonce = (res: typeof first) =>
    /'nonce-([^']+)'/.exec(res.headers()['content-security-policy'] ?? '')![1]!;
  expect(nonce(second)).not.toBe(nonce(first));
  expect((await second.text()).replaceAll(nonce(second), nonce(first))).toBe(await first.text());
  // Cached or not, a page carries its own request id and the security headers the API sends.
  for (const res of [first, second]) {
    expect(res.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    // As frame-ancestors 'none' says, for browsers that read only X-Frame-Options.
    expect(res.headers()['x-frame-options']).toBe('DENY');
  }
  expect(second.headers()['x-request-id']).not.toBe(first.headers()['x-request-id']);

  const signed = await request.get('/vendor/login', { headers: { authorization: 'Bearer x' } });
  expect(signed.headers()['age']).toBeUndefined();

  await request.get('/no-such-page-here');
  const missing = await request.get('/no-such-page-here');
  expect(missing.status()).toBe(404);
  expect(missing.headers()['age']).toBeUndefined();
});
