import { expect, type Browser, type Page } from './test.ts';

// New accounts for walks that must not change the shared demo ones (two-factor on the demo vendor
// would lock every other spec's login out).

const SLOW = 30_000;

/** A new account, signed in and not yet named (the shell asks for a username); answers its e-mail. */
export async function register(page: Page, prefix: string, password = 'walk-password-77') {
  const email = `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log out' })).toBeVisible({
    timeout: SLOW,
  });
  return email;
}

/** A new account, named through the shell's prompt; answers its e-mail and username. */
export async function signUp(page: Page, prefix: string, password = 'walk-password-77') {
  const email = await register(page, prefix, password);
  const username = `${prefix}${Date.now() % 100_000_000}`.slice(0, 15);
  await page.getByPlaceholder('Enter your username').fill(username);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByPlaceholder('Enter your username')).toHaveCount(0, { timeout: SLOW });
  return { email, username };
}

export const workspaceNav = (page: Page) =>
  page.getByRole('navigation', { name: 'Vendor workspace' });

/** The signed-in account becomes a vendor and opens a storefront at `/v/<address>`. */
export async function openStorefront(page: Page, address: string, name: string, bio: string) {
  await page.goto('/vendor');
  await page.getByRole('button', { name: 'Become a vendor' }).click({ timeout: SLOW });
  await expect(workspaceNav(page)).toBeVisible({ timeout: SLOW });
  await workspaceNav(page).getByRole('link', { name: 'Storefront' }).click();
  await page.getByLabel('Storefront address').fill(address);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Bio').fill(bio);
  await page.getByRole('button', { name: 'Create storefront' }).click();
  await expect(page.getByText(/^Storefront created/).first()).toBeVisible({ timeout: SLOW });
}

/**
 * A draft product of `kind` (the Kind menu's label) for one platform and one asset class, with one
 * one-time plan at `price`; leaves the browser in its editor.
 */
export async function draftProduct(
  page: Page,
  d: {
    kind: string;
    title: string;
    summary: string;
    description: string;
    platform: string;
    assetClass: string;
    price: string;
  },
) {
  await page.goto('/vendor/products/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible({
    timeout: SLOW,
  });
  await page.getByLabel('Kind').selectOption({ label: d.kind });
  await page.getByLabel('Title').fill(d.title);
  await page.getByLabel('Summary').fill(d.summary);
  await page.getByRole('textbox', { name: 'Description' }).fill(d.description);
  await page.getByRole('checkbox', { name: d.platform }).check();
  await page.getByRole('checkbox', { name: d.assetClass }).check();
  await page.getByRole('button', { name: 'Add a plan' }).click();
  await page.getByLabel('Price').fill(d.price);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/vendor\/products\/(?!new)[^/]+$/, { timeout: SLOW });
}

/** A draft MetaTrader 5 indicator with one one-time plan; leaves the browser in its editor. */
export const draftIndicator = (page: Page, title: string, price: string) =>
  draftProduct(page, {
    kind: 'Indicator',
    title,
    summary: 'Marks the London, New York and Tokyo sessions.',
    description: 'Draws each trading session as a box on MetaTrader 5.',
    platform: 'MetaTrader 5',
    assetClass: 'Forex',
    price,
  });

/** Publishes the product open in the editor; answers its public page's path. */
export async function publishProduct(page: Page) {
  await page.getByRole('button', { name: 'Publish…' }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unpublish…' })).toBeVisible({ timeout: SLOW });
  return (await page.getByRole('link', { name: /^View public page/ }).getAttribute('href'))!;
}

/** A vendor's and a buyer's page, each in its own context (its own session); `close` ends both. */
export async function vendorAndBuyer(browser: Browser) {
  const vendor = await (await browser.newContext()).newPage();
  const buyer = await (await browser.newContext()).newPage();
  const close = async () => {
    await vendor.context().close();
    await buyer.context().close();
  };
  return { vendor, buyer, close };
}
