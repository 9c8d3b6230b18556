import { authRoutes } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories/users.ts';
import { nextIp, useTestApp } from '../../../test/harness.ts';
import { rules } from '../../platform/rate-limit.ts';

const t = useTestApp();

const attempt = (email: string, ip: string, password = 'wrong-password-1') =>
  t.call(authRoutes.login, { ip, body: { email, password } });

/** `n` wrong passwords, each from a new address; returns those addresses. */
async function failFromManyAddresses(email: string, n: number): Promise<string[]> {
  const ips = Array.from({ length: n }, () => nextIp());
  const answers = await Promise.all(ips.map((ip) => attempt(email, ip)));
  expect(answers.map((a) => a.statusCode)).toEqual(ips.map(() => 401));
  return ips;
}

const expectLimited = (res: Awaited<ReturnType<typeof attempt>>) => {
  expect(res.statusCode).toBe(429);
  expect(res.json().code).toBe('rate_limited');
  const wait = Number(res.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(15 * 60);
};

describe('login lockout', () => {
  it('ten wrong passwords lock that address out of that account, not the owner elsewhere', async () => {
    const user = await createUser(t);
    const attacker = nextIp();
    for (let i = 0; i < rules.loginPair.limit; i++)
      expect((await attempt(user.email, attacker)).statusCode).toBe(401);
    expectLimited(await attempt(user.email, attacker));
    // Even the right password: the address is locked out of this account, whoever it is.
    expectLimited(await attempt(user.email, attacker, DEFAULT_PASSWORD));

    expect((await attempt(user.email, nextIp(), DEFAULT_PASSWORD)).statusCode).toBe(200);
    // The owner's success elsewhere does not unlock the attacker.
    expectLimited(await attempt(user.email, attacker));
    // Nor does the lock reach the attacker's other targets.
    const other = await createUser(t);
    expect((await attempt(other.email, attacker, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('past the per-account ceiling, only addresses that have not failed may try, once', async () => {
    const user = await createUser(t);
    const failed = await failFromManyAddresses(user.email, rules.loginAccountFailures.limit);

    // A guessing address gets no second try, right password or not.
    expectLimited(await attempt(user.email, failed[0]!, DEFAULT_PASSWORD));
    // The owner, from an address that did not fail, gets in.
    expect((await attempt(user.email, nextIp(), DEFAULT_PASSWORD)).statusCode).toBe(200);
    // A new guessing address gets one guess, then is refused.
    const fresh = nextIp();
    expect((await attempt(user.email, fresh)).statusCode).toBe(401);
    expectLimited(await attempt(user.email, fresh));
  });

  it('answers alike whether or not the account exists', async () => {
    const user = await createUser(t);
    const ghost = 'ghost-lockout@example.com';
    const statuses = async (email: string) => {
      const ip = nextIp();
      const out: Array<[number, string | undefined]> = [];
      for (let i = 0; i <= rules.loginPair.limit; i++) {
        const res = await attempt(email, ip);
        out.push([res.statusCode, res.json().code]);
      }
      return out;
    };
    expect(await statuses(ghost)).toEqual(await statuses(user.email));

    await failFromManyAddresses(user.email, rules.loginAccountFailures.limit);
    const failed = await failFromManyAddresses(ghost, rules.loginAccountFailures.limit);
    expectLimited(await attempt(ghost, failed[0]!));
    expect((await attempt(ghost, nextIp())).statusCode).toBe(401);
  });

  it('a correct password clears the address’s count for that account', async () => {
    const user = await createUser(t);
    const ip = nextIp();
    for (let i = 0; i < rules.loginPair.limit - 1; i++)
      expect((await attempt(user.email, ip)).statusCode).toBe(401);
    expect((await attempt(user.email, ip, DEFAULT_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < rules.loginPair.limit - 1; i++)
      expect((await attempt(user.email, ip)).statusCode).toBe(401);
  });
});
