import { expect, test } from '@playwright/test';
import { a11yViolations } from './axe.ts';
import { turnOnTwoFactor } from './two-factor.ts';

// Issue 33's proof: set up two-factor with a code computed here, log out, log in with it.
const SLOW = 30_000;
const PASSWORD = 'two-factor-77';

test('turn on two-factor, log out, log in with a code from the app', async ({ page }) => {
  test.setTimeout(120_000);
  const email = `tfa-${Date.now()}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  const logOut = page.getByRole('banner').getByRole('button', { name: 'Log out' });
  await expect(logOut).toBeVisible({ timeout: SLOW });
  await page.getByPlaceholder('Enter your username').fill(`tfa${Date.now() % 100_000_000}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByPlaceholder('Enter your username')).toHaveCount(0, { timeout: SLOW });

  const { nextCode } = await turnOnTwoFactor(page);
  expect(await a11yViolations(page)).toEqual([]);

  await logOut.click();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();

  // The password alone does not sign in: the second step asks for the code.
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible({
    timeout: SLOW,
  });
  await expect(logOut).toHaveCount(0);
  await page.getByLabel('Code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  // Said at the field, which is marked invalid.
  await expect(page.getByText('That code is not valid')).toBeVisible({ timeout: SLOW });
  await expect(page.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  expect(await a11yViolations(page)).toEqual([]);

  await page.getByLabel('Code').fill(await nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  // The same session behaviour as a password login: a welcome, stored after the delay.
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible({ timeout: SLOW });
  await expect(logOut).toBeVisible({ timeout: SLOW });
});
