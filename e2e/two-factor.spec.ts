import { expect, test } from './test.ts';
import { a11yViolations } from './axe.ts';
import { signUp } from './accounts.ts';
import { logInToSecondStep, turnOnTwoFactor } from './two-factor.ts';

// Issue 33's proof: set up two-factor with a code computed here, log out, log in with it.
const SLOW = 30_000;
const PASSWORD = 'two-factor-77';

test('turn on two-factor, log out, log in with a code from the app', async ({ page }) => {
  test.setTimeout(120_000);
  const { email } = await signUp(page, 'tfa', PASSWORD);
  const logOut = page.getByRole('banner').getByRole('button', { name: 'Log out' });

  const { nextCode } = await turnOnTwoFactor(page);
  expect(await a11yViolations(page)).toEqual([]);

  // The password alone does not sign in: the second step asks for the code.
  await logInToSecondStep(page, email, PASSWORD, SLOW);
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
