import { expect, test } from './test.ts';
import { readFileSync } from 'node:fs';
import { signUp } from './accounts.ts';

// Issue 33 (ADR 060): a new user downloads their data, deletes the account through the confirm
// step on the account page, and cannot log in with the same credentials afterwards.
const SLOW = 30_000;
const PASSWORD = 'delete-me-please-8';

test('download my data, delete the account, and the old credentials no longer log in', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { email } = await signUp(page, 'leaver', PASSWORD);
  await page.goto('/account');
  const data = page.getByRole('region', { name: 'Your data' });
  await expect(data).toBeVisible({ timeout: SLOW });
  await data.getByLabel('Current password').fill(PASSWORD);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    data.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  const saved = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
    profile: { email: string };
  };
  expect(saved.profile.email).toBe(email);

  // A wrong password changes nothing and says so at the field.
  await data.getByLabel('Current password').fill('not-my-password');
  await data.getByRole('button', { name: 'Delete account' }).click();
  await page.getByTestId('confirm-delete-account').click();
  await expect(data.getByText('The current password is incorrect.')).toBeVisible({
    timeout: SLOW,
  });

  await data.getByLabel('Current password').fill(PASSWORD);
  await data.getByRole('button', { name: 'Delete account' }).click();
  const step = page.getByRole('group', { name: 'Delete your account?' });
  await expect(step).toBeFocused();
  await page.getByTestId('confirm-delete-account').click();
  await expect(page).toHaveURL(/\/$/, { timeout: SLOW });
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible({
    timeout: SLOW,
  });

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Invalid e-mail or password.')).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
});
