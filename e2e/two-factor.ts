import { expect, type Page } from './test.ts';
// One authenticator for the API tests and the browser walks.
import { codeSource, NoCodeYet } from '../apps/api/test/factories/two-factor.ts';

/** Turns two-factor on from the account page, reading the key off the page as a person would. */
export async function turnOnTwoFactor(page: Page, timeout = 30_000) {
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Turn on two-factor authentication' }).click({
    timeout,
  });
  await expect(
    section.getByRole('img', { name: 'QR code for your authenticator app' }),
  ).toBeVisible({ timeout });
  const secret = (await section.getByTestId('two-factor-secret').textContent())!.trim();
  // A browser walk takes seconds from typing a code to the server checking it.
  const source = codeSource(secret, 15_000);
  // The server takes each step's code once, so a few per 30 s at most: past them a person waits for
  // the app's next code, and so does the walk (the clock, not a race, decides when it comes).
  const nextCode = async (): Promise<string> => {
    for (;;) {
      try {
        return source();
      } catch (err) {
        if (!(err instanceof NoCodeYet)) throw err;
        await new Promise((done) => setTimeout(done, err.waitMs + 100));
      }
    }
  };
  await section.getByLabel('Code from the app').fill(await nextCode());
  await section.getByRole('button', { name: 'Confirm' }).click();
  const codes = section.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10, { timeout });
  const recoveryCodes = await codes.allTextContents();
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section).toContainText('10 recovery codes left', { timeout });
  return { secret, recoveryCodes, nextCode };
}

/** Logs out and back in with the password, as far as the second step's question. */
export async function logInToSecondStep(
  page: Page,
  email: string,
  password: string,
  timeout = 30_000,
) {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible({
    timeout,
  });
}
