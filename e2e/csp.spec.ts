import { expect, test, type Page } from './test.ts';
import { productPath } from './shop.ts';

/**
 * Content-Security-Policy in a real browser (ADR 022): the pages hydrate and work under their
 * policies with nothing refused, and markup injected without the nonce is refused and reported.
 */

/** Every violation the page reports, across navigations, from before its first script runs. */
async function recordViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => seen.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation(v: string): void }).__cspViolation;
      report(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  // Chromium also logs each refusal; a violation without an event would still show here.
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  return seen;
}

/** Waits for the violations already raised to reach the test (events, then one round trip). */
async function settled(page: Page, seen: string[]): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  return seen;
}

/** A page survives client-side navigation only if it hydrated: a full load would drop the mark. */
const mark = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1));
const marked = (page: Page) =>
  page.evaluate(() => (window as unknown as { __mark?: number }).__mark === 1);

async function logIn(page: Page) {
  await page.getByLabel('Email').fill('buyer@demo.tradeshelf.test');
  await page.getByLabel('Password').fill('tradeshelf-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  // The session is stored 5 s after the answer (docs/product.md#sessions).
  await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeVisible({
    timeout: 15_000,
  });
}

test('home → search → filter → product → storefront hydrate and work with nothing refused', async ({
  page,
}) => {
  const seen = await recordViolations(page);
  const res = await page.goto('/');
  // The document's policy names the nonce its router scripts carry.
  const nonce = /'nonce-([^']+)'/.exec(res!.headers()['content-security-policy'] ?? '')?.[1];
  expect(nonce).toBeTruthy();
  const html = await res!.text();
  expect(html).toContain(`<script nonce="${nonce}">window.__reactRouterContext = `);
  // Every script in the page carries it, the one that starts the app after first paint too (ADR 069).
  const tags = html.match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length).toBeGreaterThan(2);
  for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);

  await expect(page.getByRole('heading', { name: 'Best sellers' })).toBeVisible();
  // The hero search is a plain form (works before hydration); the filters submit from script.
  await page.getByLabel('Search the marketplace').fill('divergence');
  await page.getByLabel('Search the marketplace').press('Enter');
  await expect(page.getByRole('heading', { name: 'Results for “divergence”' })).toBeVisible();
  // A select submits from script: wait for the hydration the plain search form's load started (the
  // header stops being busy); under load a change made before it was lost.
  await expect(page.getByRole('banner').locator('[aria-busy="true"]')).toHaveCount(0);
  await page.getByLabel('Category').selectOption('indicators');
  await expect(page).toHaveURL(/category=indicators/);
  await mark(page);
  await page.getByRole('link', { name: 'RSI Divergence Pro' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'RSI Divergence Pro' })).toBeVisible();
  await page.getByRole('radio', { name: '$249 / year' }).check();
  await expect(page.getByRole('link', { name: /Subscribe · \$249/ })).toBeVisible();
  await page.getByRole('link', { name: 'Visit the storefront' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Alpha Edge Labs/ })).toBeVisible();
  expect(await marked(page)).toBe(true);

  // A page loaded on its own (server-rendered product page, then a 404) hydrates too.
  await page.goto(await productPath(page.request, 'Supertrend Ribbon'));
  await mark(page);
  await page.getByRole('link', { name: 'Visit the storefront' }).click();
  await expect(page).toHaveURL(/\/v\/[^/?#]+$/);
  expect(await marked(page)).toBe(true);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  expect(await settled(page, seen)).toEqual([]);
});

test('log in, reload, log out with nothing refused', async ({ page }) => {
  const seen = await recordViolations(page);
  await page.goto('/login');
  await logIn(page);
  expect(await page.evaluate(() => localStorage.getItem('tokens'))).not.toBeNull();
  await page.goto('/account');
  await expect(page.locator('#main').getByText('buyer@demo.tradeshelf.test')).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('tokens'))).toBeNull();
  expect(await settled(page, seen)).toEqual([]);
});

test('hosted checkout, customer portal, outbox and API docs work under their policies', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const seen = await recordViolations(page);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  await page.goto('/login');
  await logIn(page);
  await page.goto(await productPath(page.request, 'Momentum Breakout Alerts'));
  await page.getByRole('button', { name: /^Subscribe · / }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/?#]+$/);
  // The page's nonced `<style>` applied.
  expect(await background()).toBe('rgb(15, 17, 21)');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({
    timeout: 30_000,
  });
  await page.locator('#main').getByRole('link', { name: 'View your order' }).click();
  await page.getByRole('button', { name: 'Manage subscription' }).click();
  await expect(page).toHaveURL(/\/sandbox\/portal\/[^/?#]+$/);
  const back = page.getByRole('link', { name: 'Back to your orders' });
  // The link's `style` attribute, allowed by its hash.
  await expect(back).toHaveCSS('color', 'rgb(157, 182, 255)');
  const row = page.getByRole('row').filter({ hasText: 'Momentum Breakout Alerts' });
  await row.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(row.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
  await back.click();
  await expect(page).toHaveURL('/orders');

  await page.goto('/dev/mail');
  expect(await background()).toBe('rgb(11, 15, 23)');
  await page.goto('/docs');
  // Swagger UI draws the whole OpenAPI document first: on a loaded machine that took over 10 s, and
  // over 30 s beside `npm test` on a machine twice as slow.
  await expect(page.getByRole('heading', { name: /Tradeshelf API/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText('/auth/signup/buyer').first()).toBeVisible();
  expect(await settled(page, seen)).toEqual([]);
});

test('markup injected without the nonce is refused and reported; the page still works', async ({
  page,
}) => {
  const seen = await recordViolations(page);
  // As if the server had written attacker markup into the page: the real page and its real policy.
  await page.route('/', async (route) => {
    const res = await route.fetch();
    const injected =
      '<script>window.__injected = "inline"</script>' +
      '<img src="/no-such-image.png" alt="" onerror="window.__injected = \'handler\'">' +
      '<script src="/docs/static/swagger-ui-bundle.js"></script>';
    await route.fulfill({
      response: res,
      body: (await res.text()).replace('</body>', `${injected}</body>`),
    });
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Best sellers' })).toBeVisible();
  await expect
    .poll(() =>
      seen
        .filter((v) => !v.startsWith('console:'))
        .map((v) => v.split(' ')[0])
        .sort(),
    )
    .toEqual(['script-src-attr', 'script-src-elem', 'script-src-elem']);
  expect(seen.some((v) => v.includes('/docs/static/swagger-ui-bundle.js'))).toBe(true);
  expect(
    await page.evaluate(() => [
      (window as unknown as { __injected?: string }).__injected,
      typeof (window as unknown as { SwaggerUIBundle?: unknown }).SwaggerUIBundle,
    ]),
  ).toEqual([undefined, 'undefined']);
  // Strings are not code: no `'unsafe-eval'`.
  expect(
    await page.evaluate(
      () =>
        new Promise((resolve) =>
          setTimeout(() => {
            try {
              resolve(eval('"evaluated"'));
            } catch (e) {
              resolve((e as Error).name);
            }
          }),
        ),
    ),
  ).toBe('EvalError');

  // The page's own scripts ran: it navigates on the client.
  await mark(page);
  await page.getByRole('link', { name: 'Indicators', exact: true }).first().click();
  await expect(page).toHaveURL(/\/search\?category=indicators$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await marked(page)).toBe(true);
});
