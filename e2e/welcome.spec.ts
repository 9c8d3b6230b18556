import { expect, test, type Page } from './test.ts';
import { a11yViolations } from './axe.ts';

const BUYER = { email: 'buyer@demo.tradeshelf.test', password: 'tradeshelf-demo' };
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('tokens'));

test('logging in shows a welcome at once while the session is stored (docs/product.md#sessions: after 5 s)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto('/login?next=/orders');
  await page.getByLabel('Email').fill(BUYER.email);
  await page.getByLabel('Password').fill(BUYER.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  // Well inside the 5 s: a welcome, not a spinning button; the header no longer offers Log in.
  const welcome = page.getByRole('heading', { name: 'Welcome back' });
  await expect(welcome).toBeVisible({ timeout: 2000 });
  await expect(welcome).toBeFocused();
  expect(await stored(page)).toBeNull();
  await expect(page.getByRole('button', { name: 'Log in' })).toHaveCount(0);
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Signing you in')).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(banner.getByRole('link', { name: 'Sign up' })).toHaveCount(0);
  await expect(page.getByText('Taking you to your orders')).toBeVisible();
  // The next page's code is already being fetched.
  await expect(page.locator('link[href*="/assets/orders-"]')).not.toHaveCount(0);
  expect(await a11yViolations(page)).toEqual([]);

  // Then the session is stored and the next page opens.
  await page.waitForURL((url) => url.pathname === '/orders', { timeout: 15_000 });
  expect(await stored(page)).not.toBeNull();
  await expect(banner.getByRole('button', { name: 'Log out' })).toBeVisible();
  // The signed-in header fits a 360 px phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // A signed-in buyer's e-mail is filled in on the contact form.
  await page.goto('/contact');
  await expect(page.getByLabel('Email')).toHaveValue(BUYER.email);
});

test('right after sign-up the header no longer offers Log in / Sign up', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(`welcome-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('market-maker-77');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/activate/);
  const banner = page.getByRole('banner');
  expect(await stored(page)).toBeNull();
  await expect(banner.getByText('Signing you in')).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(banner.getByRole('link', { name: 'Sign up' })).toHaveCount(0);
  await expect(banner.getByRole('button', { name: 'Log out' })).toBeVisible({ timeout: 15_000 });
});
