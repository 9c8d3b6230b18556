import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

/** A code for `secret` at `offsetSteps` 30 s steps from now, as an authenticator app computes it. */
export function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/**
 * Codes the server takes in turn (each step used must be newer than the last; one step either
 * side of now is accepted): up to three per 30 s, then it throws rather than sleep.
 */
export function codeSource(secret: string) {
  let last = -Infinity;
  return () => {
    const now = Math.floor(Date.now() / 30_000);
    const step = Math.max(now - 1, last + 1);
    if (step > now + 1) throw new Error('two-factor helper: more than three codes in one step');
    last = step;
    return totpCode(secret, step - now);
  };
}

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
  const nextCode = codeSource(secret);
  await section.getByLabel('Code from the app').fill(nextCode());
  await section.getByRole('button', { name: 'Confirm' }).click();
  const codes = section.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10, { timeout });
  const recoveryCodes = await codes.allTextContents();
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section).toContainText('10 recovery codes left', { timeout });
  return { secret, recoveryCodes, nextCode };
}
