import { authRoutes } from '@tradeshelf/contract';
import { newId } from '../apps/api/src/lib.ts';
import { hashPassword } from '../apps/api/src/modules/auth/passwords.ts';
import { insertUser } from '../apps/api/src/modules/users/repository.ts';
import { queues } from '../apps/api/src/jobs/queue.ts';
import { percentile, startBenchApp } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_TIMING_ROUNDS ?? 200);
const LOGIN_ROUNDS = Number(process.env.BENCH_TIMING_LOGIN_ROUNDS ?? 30);
const SIGNUP_ROUNDS = Number(process.env.BENCH_TIMING_SIGNUP_ROUNDS ?? 60);
/** `BENCH_TIMING_ONLY=signup` measures that endpoint alone (a name's start). */
const ONLY = process.env.BENCH_TIMING_ONLY;
const WARMUP = 10;

/**
 * Account enumeration by timing (ADR 021): the median answer time of each public account endpoint
 * for e-mails that have an account against e-mails that do not, one request at a time, alternating,
 * over real HTTP with the pg-boss queue and an in-process worker as `npm start` runs them. The unknown
 * e-mail is the baseline; a ratio as near 1.00 as the control's (two sets of unknown e-mails)
 * means the clock tells nothing. Sign-up (ADR 003) compares a taken e-mail (another password: 409)
 * with a new one (201, an account made): its unknown e-mails are the ones it creates.
 */
export async function run(): Promise<void> {
  const b = await startBenchApp(null, { queue: true, env: { TRUST_PROXY: 'true' } });
  try {
    const total = WARMUP + Math.max(ROUNDS, LOGIN_ROUNDS, SIGNUP_ROUNDS);
    const passwordHash = await hashPassword('bench-password-1');
    const known: string[] = [];
    for (let i = 0; i < total; i++) {
      const email = `timing-${i}-${Date.now()}@example.com`;
      // Unverified, so the activation job has an account to mail too.
      await insertUser(b.database.db, { id: newId('usr'), email, passwordHash });
      known.push(email);
    }
    const unknown = known.map((_, i) => `nobody-${i}-${Date.now()}@example.com`);
    const control = known.map((_, i) => `nobody-else-${i}-${Date.now()}@example.com`);

    let ip = 0;
    const post = async (path: string, body: object): Promise<number> => {
      ip++;
      const t0 = performance.now();
      const res = await fetch(b.url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // A new client address per request, so per-address limits stay out of the figures.
          'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
        },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (res.status === 429 || res.status >= 500) throw new Error(`${path}: ${res.status}`);
      if (path === authRoutes.signupBuyer.path && res.status !== 201 && res.status !== 409)
        throw new Error(`${path}: ${res.status}`);
      return ms;
    };

    /**
     * Each round sends a known e-mail, an unknown one and a second unknown one (the control: its
     * ratio to the first is what noise alone gives), in rotating order so none always follows
     * another's background work. The first WARMUP rounds are not counted.
     */
    const compare = async (
      title: string,
      rounds: number,
      send: (email: string) => Promise<number>,
    ) => {
      const lists = [known, unknown, control];
      const times: number[][] = [[], [], []];
      for (let i = 0; i < WARMUP + rounds; i++) {
        for (let k = 0; k < 3; k++) {
          const which = (i + k) % 3;
          const ms = await send(lists[which]![i]!);
          if (i >= WARMUP) times[which]!.push(ms);
        }
      }
      const [mk, mu, mc] = times.map((t) => percentile(t, 50)) as [number, number, number];
      rows.push({ title, rounds, known: mk, unknown: mu, control: mc });
    };
    const rows: Array<{
      title: string;
      rounds: number;
      known: number;
      unknown: number;
      control: number;
    }> = [];

    const wanted = (title: string) => !ONLY || title.startsWith(ONLY);
    if (wanted('send-forgot-password-email'))
      await compare('send-forgot-password-email', ROUNDS, (email) =>
        post(authRoutes.sendForgotPasswordEmail.path, { email }),
      );
    if (wanted('send-account-verification-email'))
      await compare('send-account-verification-email', ROUNDS, (email) =>
        post(authRoutes.sendAccountVerificationEmail.path, { email }),
      );
    // Known e-mails now hold a live reset code; a wrong guess counts an attempt against it.
    await drain(b.deps.boss!);
    if (wanted('check-forgot-password-code'))
      await compare('check-forgot-password-code (wrong code)', ROUNDS, (email) =>
        post(authRoutes.checkForgotPasswordCode.path, { email, code: '000000' }),
      );
    if (wanted('login'))
      await compare('login (wrong password)', LOGIN_ROUNDS, (email) =>
        post(authRoutes.login.path, { email, password: 'not-the-password-1' }),
      );
    // Last: it creates the unknown e-mails' accounts.
    if (wanted('signup'))
      await compare('signup (taken: 409 / new: 201)', SIGNUP_ROUNDS, (email) =>
        post(authRoutes.signupBuyer.path, { email, password: 'another-password-7' }),
      );

    console.log(
      `\naccount enumeration by timing (${b.backend}, pg-boss worker in process, median of alternating requests)`,
    );
    for (const r of rows) {
      const ms = (v: number) => `${v.toFixed(2).padStart(7)} ms`;
      console.log(
        `  ${r.title.padEnd(40)} known ${ms(r.known)}  unknown ${ms(r.unknown)} (baseline)  ratio ${(
          r.known / r.unknown
        ).toFixed(2)}  | control: another unknown ${ms(r.control)}, ratio ${(
          r.control / r.unknown
        ).toFixed(2)}  n=${r.rounds}`,
      );
    }
  } finally {
    await b.close();
  }
}

/** Waits until the account-mail jobs sent so far have run. */
async function drain(boss: NonNullable<Awaited<ReturnType<typeof startBenchApp>>['deps']['boss']>) {
  for (;;) {
    let left = 0;
    for (const q of [queues.authResetMail, queues.authActivationMail, queues.mailDeliver])
      left += await boss.getQueueSize(q);
    if (!left) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}
