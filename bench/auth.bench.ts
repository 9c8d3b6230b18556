import { authRoutes } from '@tradeshelf/contract';
import { measure, report, startBenchApp } from './lib.ts';

/**
 * Authenticated read (JWT verify + one indexed user lookup + presenter) against the bare `/healthz`
 * route of the same server: the ratio is what the session layer and database cost per request.
 */
export async function run(): Promise<void> {
  const b = await startBenchApp();
  try {
    const email = `bench-${Date.now()}@example.com`;
    const signup = await fetch(`${b.url}${authRoutes.signupBuyer.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password-1' }),
    });
    const { token } = (await signup.json()) as { token: string };
    const baseline = await measure('GET /healthz', `${b.url}/healthz`);
    const profile = await measure(
      'GET /api/v1/user/profile (bearer)',
      `${b.url}/api/v1/user/profile`,
      {
        authorization: `Bearer ${token}`,
      },
    );
    report('accounts: authenticated profile read', b.backend, baseline, [profile]);
  } finally {
    await b.close();
  }
}
