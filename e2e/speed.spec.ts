import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './test.ts';

/** Issue 14: what a public page may cost a phone in JavaScript, compressed as it travels. */
const JS_BUDGET_BYTES = 135 * 1024;

async function publicPages(request: APIRequestContext): Promise<string[]> {
  const found = (await (
    await request.get('/api/v1/products/term/search?q=indicator&limit=1')
  ).json()) as { products: Array<{ id: string; slug: string; vendor: { vendorUrl: string } }> };
  const product = found.products[0]!;
  return [
    '/',
    '/search?q=indicator',
    `/p/${product.id}/${product.slug}`,
    `/v/${product.vendor.vendorUrl}`,
  ];
}

/** Bytes of JavaScript the page downloaded, as they came over the wire (compressed), by URL. */
function scriptBytes(page: Page): Map<string, number> {
  const bytes = new Map<string, number>();
  page.on('requestfinished', (req) => {
    if (req.resourceType() !== 'script') return;
    void req.sizes().then((s) => bytes.set(req.url(), s.responseBodySize));
  });
  return bytes;
}

test('public pages download at most 135 KB of JavaScript, compressed', async ({
  browser,
  request,
}) => {
  const paths = await publicPages(request);
  for (const path of paths) {
    // A new context each time: an empty HTTP cache, as a first visit from search has.
    const context = await browser.newContext();
    const fresh = await context.newPage();
    const bytes = scriptBytes(fresh);
    const encodings: string[] = [];
    fresh.on('response', (res) => {
      if (res.request().resourceType() === 'script')
        encodings.push(res.headers()['content-encoding'] ?? 'none');
    });
    await fresh.goto(path, { waitUntil: 'networkidle' });
    const total = [...bytes.values()].reduce((n, b) => n + b, 0);
    // The figure docs/benchmarks.md's table keeps, printed on every run.
    console.log(`${path}: ${(total / 1024).toFixed(1)} KB of JavaScript (brotli)`);
    if (process.env.JS_DETAIL)
      console.log([...bytes].map(([u, b]) => `  ${b} ${u.split('/').pop()}`).join('\n'));
    expect(bytes.size, `${path}: scripts loaded`).toBeGreaterThan(2);
    expect(new Set(encodings), `${path}: scripts come brotli-compressed`).toEqual(new Set(['br']));
    expect(total, `${path}: ${(total / 1024).toFixed(1)} KB of JavaScript`).toBeLessThanOrEqual(
      JS_BUDGET_BYTES,
    );
    await context.close();
  }
});

test('no stylesheet blocks first paint: the CSS is in the page, and stays across navigations', async ({
  page,
}) => {
  const stylesheets: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'stylesheet') stylesheets.push(req.url());
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
  const inlined = page.locator('head style[data-href]');
  await expect(inlined).toHaveCount(1);
  // Styled after hydration: the dark theme's background and the self-hosted font.
  const styled = () =>
    page.evaluate(() => {
      const css = getComputedStyle(document.body);
      return { background: css.backgroundColor, font: css.fontFamily.split(',')[0] };
    });
  expect(await styled()).toEqual({ background: 'rgb(7, 10, 18)', font: 'Montserrat' });
  // Fonts come early (preloaded with the HTML) and swap in rather than hide text.
  const preloads = await page
    .locator('link[rel="preload"][as="font"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(preloads.length).toBeGreaterThan(0);
  const swaps = await page.evaluate(() =>
    [...document.fonts]
      .filter((f) => f.family.replaceAll('"', '') === 'Montserrat')
      .map((f) => f.display),
  );
  expect(swaps.length).toBeGreaterThan(0);
  expect(new Set(swaps)).toEqual(new Set(['swap']));

  // A client-side navigation keeps the styles (nothing refetched, nothing removed).
  await page.locator('a[href^="/p/"]').first().click();
  await page.waitForURL(/\/p\//);
  await expect(inlined).toHaveCount(1);
  expect((await inlined.textContent())!.length).toBeGreaterThan(10_000);
  expect(await styled()).toEqual({ background: 'rgb(7, 10, 18)', font: 'Montserrat' });
  expect(stylesheets).toEqual([]);
});

test('scripts start after the first paint, then the page hydrates', async ({
  browser,
  request,
}) => {
  // ADR 069: pictures and text are not kept waiting behind ~130 KB of JavaScript.
  for (const path of await publicPages(request)) {
    const context = await browser.newContext();
    const fresh = await context.newPage();
    // `goto` waits for `<html data-hydrated>` (e2e/test.ts).
    await fresh.goto(path);
    const timing = await fresh.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      const resources = performance.getEntriesByType('resource');
      return {
        paint,
        scripts: resources
          .filter((e) => /\/assets\/[^/]+\.js$/.test(e.name))
          .map((e) => e.startTime),
        picturesBeforePaint: resources
          .filter((e) => e.name.includes('/files/') && paint !== null && e.startTime < paint)
          .map((e) => new URL(e.name).pathname),
      };
    });
    expect(timing.paint, `${path}: a first contentful paint`).not.toBeNull();
    expect(timing.scripts.length, `${path}: scripts loaded`).toBeGreaterThan(2);
    expect(Math.min(...timing.scripts), `${path}: first script request`).toBeGreaterThanOrEqual(
      timing.paint!,
    );
    expect(await fresh.locator('html').getAttribute('data-hydrated')).toBe('true');
    // Pictures off the first screen are in the HTML only inside <noscript> (they follow hydration):
    // what is fetched before the first paint is named outside it.
    const html = await (await fresh.request.get(path)).text();
    const firstScreen = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
    for (const picture of timing.picturesBeforePaint)
      expect(firstScreen, `${path}: ${picture} fetched before the first paint`).toContain(picture);
    await context.close();
  }
});

/**
 * Whether a script the page downloaded so far holds `needle`. Reading a body is asynchronous, so
 * the check waits for every body read started by then: a script that ran has been counted.
 */
function scriptsHold(page: Page): (needle: string) => Promise<boolean> {
  const reads: Array<Promise<string>> = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') reads.push(res.text().catch(() => ''));
  });
  return async (needle) => (await Promise.all(reads)).some((t) => t.includes(needle));
}

test('code below the first screen waits: the reviews load as they near it, the TradingView step only where it delivers', async ({
  page,
  request,
}) => {
  // ADR 070. The first screen of a product page is 1280 × 720 here; its reviews start below it.
  await page.setViewportSize({ width: 1280, height: 720 });
  const hold = scriptsHold(page);
  const reviewsCode = () => hold('Sort reviews');
  const stepCode = () => hold('TradingView username (optional)');
  const productPath = (await publicPages(request))[2]!;
  await page.goto(productPath, { waitUntil: 'networkidle' });
  const reviews = page.getByRole('region', { name: 'Reviews' });
  // Server-rendered, and shown before its code comes; its sort waits for the code (disabled).
  await expect(reviews.getByTestId('review-item').first()).toBeVisible();
  const sort = reviews.getByLabel('Sort reviews');
  await expect(sort).toBeDisabled();
  expect(await reviewsCode(), 'the reviews’ code before they near the screen').toBe(false);
  // A product for TradingView that delivers no invite-only scripts never loads the username step.
  await expect(page.getByText('Works with')).toContainText('TradingView');
  expect(await stepCode(), 'the TradingView step for a product without scripts').toBe(false);

  // Scrolled to, the reviews' code comes, the sort works and asks the server in its new order.
  await reviews.scrollIntoViewIfNeeded();
  await expect(sort).toBeEnabled();
  expect(await reviewsCode()).toBe(true);
  const asked = page.waitForRequest(
    (r) => r.url().includes('/api/v1/review/get-all-reviews') && r.url().includes('sort=highest'),
  );
  await sort.selectOption('highest');
  await asked;

  // After a client-side navigation nobody waits on a first paint: the reviews load at once.
  const fromHome = await page.context().newPage();
  await fromHome.setViewportSize({ width: 1280, height: 720 });
  await fromHome.goto('/');
  const tile = fromHome.locator('article a[href^="/p/"]:not([aria-hidden])').first();
  const href = (await tile.getAttribute('href'))!;
  await tile.click();
  await fromHome.waitForURL((url) => url.pathname === href);
  const navigated = fromHome.getByRole('region', { name: 'Reviews' });
  await expect(navigated.getByRole('heading', { name: 'Reviews' })).toBeAttached();
  expect(await fromHome.evaluate(() => window.scrollY)).toBe(0);
  await fromHome.close();

  // A product whose scripts are invite-only loads the step and lists them in its buy box.
  const found = (await (
    await request.get('/api/v1/products/term/search?q=RSI%20Divergence%20Pro&limit=5')
  ).json()) as { products: Array<{ id: string; slug: string; title: string }> };
  const rsi = found.products.find((p) => p.title === 'RSI Divergence Pro')!;
  await page.goto(`/p/${rsi.id}/${rsi.slug}`);
  const step = page.locator('#buy').getByTestId('tradingview-checkout');
  await expect(step).toContainText('invite-only TradingView script');
  expect(await stepCode()).toBe(true);
});

// A test per page: the four in one test took 1.7 min of its 90 s in CI beside `npm test` (session 21).
for (const [index, name] of ['home', 'search', 'product', 'storefront'].entries()) {
  test(`headings in order and touch targets large enough on the ${name} page`, async ({
    page,
    request,
  }) => {
    const path = (await publicPages(request))[index]!;
    await page.goto(path, { waitUntil: 'networkidle' });
    const { violations } = await new AxeBuilder({ page })
      .withRules(['heading-order', 'target-size'])
      .analyze();
    expect(
      violations.map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.html) })),
      path,
    ).toEqual([]);
  });
}
