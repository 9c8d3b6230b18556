import { authRoutes, ordersRoutes, type ConnectPurpose } from '@tradeshelf/contract';
import { Secret, TOTP } from 'otpauth';
import type { TestApp } from '../harness.ts';

/** A code for `secret` at `offsetSteps` 30-second steps from now, computed as an app would. */
export function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** No unused step is left in the window: the next code comes with the next step, `waitMs` away. */
export class NoCodeYet extends Error {
  constructor(readonly waitMs: number) {
    super('two-factor helper: more than three codes in one step');
  }
}

/**
 * Codes that the server takes in turn: each used step must be newer than the last (replay), and
 * steps one either side of now are accepted, so up to three per 30 s; past that it throws rather
 * than sleep. The step before now stops being accepted when the next step starts: a caller that
 * may take `deliveryMs` to hand the code over (a browser on a loaded machine) gets it only while
 * that much of the current step is left.
 */
export function codeSource(secret: string, deliveryMs = 0) {
  let last = -Infinity;
  return () => {
    const at = Date.now();
    const now = Math.floor(at / 30_000);
    const previousHolds = (now + 1) * 30_000 - at >= deliveryMs;
    const step = Math.max(previousHolds ? now - 1 : now, last + 1);
    if (step > now + 1) throw new NoCodeYet((now + 1) * 30_000 - at);
    last = step;
    return totpCode(secret, step - now);
  };
}

export interface Enrolled {
  secret: string;
  recoveryCodes: string[];
  nextCode: () => string;
}

/** Turns two-factor on for the token's account through HTTP, as the account page does. */
export async function enrolTwoFactor(t: TestApp, token: string): Promise<Enrolled> {
  const setup = await t.call(authRoutes.twoFactorSetup, { token });
  if (setup.statusCode !== 200) throw new Error(`two-factor setup: ${setup.body}`);
  const secret = setup.json().secret as string;
  const nextCode = codeSource(secret);
  const confirmed = await t.call(authRoutes.twoFactorConfirm, {
    token,
    body: { code: nextCode() },
  });
  if (confirmed.statusCode !== 200) throw new Error(`two-factor confirm: ${confirmed.body}`);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes as string[], nextCode };
}

const enrolled = new Map<string, Enrolled>();
const subjectOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string })
    .sub;

/**
 * Starts payout onboarding as a user would now: two-factor turned on once per account (the
 * token's subject) and a fresh code given.
 */
export async function startPayoutOnboarding(t: TestApp, token: string, as?: ConnectPurpose) {
  const sub = subjectOf(token);
  let e = enrolled.get(sub);
  if (!e) enrolled.set(sub, (e = await enrolTwoFactor(t, token)));
  return t.call(ordersRoutes.connectAccount, {
    token,
    ...(as ? { query: { as } } : {}),
    body: { twoFactorCode: e.nextCode() },
  });
}
