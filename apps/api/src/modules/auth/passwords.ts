import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id floor: 19 MiB, two passes, one lane. */
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | null = null;

/**
 * Verifies a password. With no stored hash (unknown e-mail) it still runs one full verification,
 * against a throwaway hash, so response time does not reveal whether the account exists.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hash('not-a-real-password-' + Math.random(), OPTIONS);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
