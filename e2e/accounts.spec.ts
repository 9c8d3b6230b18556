import { expect, test } from './test.ts';
import { mailbox } from './mailbox.ts';
import { a11yViolations } from './axe.ts';
import { STORED_SESSION_FIELDS } from '../apps/web/app/test/stored-session.ts';

const PASSWORD = 'market-maker-77';

test('sign up, activate, log in, pick a username, keep the session, log out', async ({ page }) => {
  // Two 5 s session stores and four axe runs: ~36 s alone, over 60 s beside another worker under load,
  // over 120 s beside `npm test` on a machine twice as slow (session 24's).
  test.setTimeout(240_000);
  const email = `e2e-${Date.now()}@example.com`;

  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();

  // The activation code arrives through real SMTP.
  await expect(page).toHaveURL(/\/activate/);
  await expect.poll(() => mailbox.codeFor(email), { timeout: 20_000 }).toMatch(/^\d{6}$/);
  await page.getByLabel('Code').fill(mailbox.codeFor(email)!);
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page.getByText('Your account is activated.')).toBeVisible();
  expect(await a11yViolations(page)).toEqual([]);

  // Sign-up signed this tab in too (stored 5 s after its answer, docs/product.md#sessions): on a slow machine that can
  // happen before this line. Leave the page, which ends any pending store, drop the session, and log in.
  await page.goto('/login');
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();

  // The session is stored after 5 s; then the username prompt blocks the app.
  const drawer = page.getByRole('dialog', { name: 'Action Required! Update Your Username' });
  await expect(drawer).toBeVisible({ timeout: 15_000 });
  const input = drawer.getByPlaceholder('Enter your username');
  const save = drawer.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  expect(await a11yViolations(page)).toEqual([]);

  for (const [value, message] of [
    ['abc', 'Username must be between 4 and 15 characters long.'],
    ['ab__cd', 'Username cannot contain consecutive underscores.'],
    ['bad-name', 'Invalid username. Use letters, numbers, or underscores.'],
  ] as const) {
    await input.fill(value);
    await save.click();
    await expect(drawer.getByText(message)).toBeVisible();
  }

  const username = `e2e_${Date.now() % 1_000_000}`;
  await input.fill(username);
  await save.click();
  await expect(page.getByText('Username updated successfully')).toBeVisible();
  await expect(drawer).toBeHidden();

  // A reload keeps the session (local storage) and the prompt stays away.
  await page.goto('/account');
  await expect(page.locator('#main').getByText(username)).toBeVisible();
  await page.reload();
  await expect(page.locator('#main').getByText(username)).toBeVisible();
  await expect(drawer).toBeHidden();
  expect(await a11yViolations(page)).toEqual([]);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('tokens') ?? 'null'));
  expect(Object.keys(stored).sort()).toEqual(STORED_SESSION_FIELDS);

  // Change password, then become a vendor.
  await page.goto('/account/password');
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('brand-new-pass-9');
  await page.getByLabel('Confirm new password').fill('brand-new-pass-9');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText('Password changed. Other devices have been signed out.'),
  ).toBeVisible();
  expect(await a11yViolations(page)).toEqual([]);

  await page.goto('/account');
  await page.getByRole('button', { name: 'Become a vendor' }).click();
  await expect
    .poll(async () => (await page.context().cookies()).map((c) => c.name).sort())
    .toEqual(expect.arrayContaining(['access_token_expiry', 'auth_token_vendor', 'user_details']));

  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('tokens'))).toBeNull();
});

test('a tampered access token leads to logged out', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('buyer@demo.tradeshelf.test');
  await page.getByLabel('Password').fill('tradeshelf-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeVisible({
    timeout: 15_000,
  });

  await page.evaluate(() => {
    const tokens = JSON.parse(localStorage.getItem('tokens')!);
    tokens.accessToken = tokens.accessToken.slice(0, -4) + 'AAAA';
    tokens.refreshToken = 'tampered';
    localStorage.setItem('tokens', JSON.stringify(tokens));
    localStorage.setItem('token', tokens.accessToken);
  });
  await page.goto('/account');
  // The API refuses the token, the refresh fails, the session is cleared and the page sends us to log in.
  await expect(page).toHaveURL(/\/login\?next=%2Faccount/);
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('tokens'))).toBeNull();
});
