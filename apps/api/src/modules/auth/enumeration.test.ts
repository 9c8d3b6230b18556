import { authRoutes, type RouteDef } from '@tradeshelf/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type * as Argon2 from '@node-rs/argon2';
import type { PoolClient } from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';
import { idleWorkerDeps } from '../../../test/workers.ts';
import { buildApp } from '../../app.ts';
import { createDeps } from '../../deps.ts';
import { mailOutbox } from '../../integrations/mail/tables.ts';
import { jobHandlers } from '../../jobs/handlers.ts';
import { queues, startQueue } from '../../jobs/queue.ts';
import { startWorkers } from '../../jobs/workers.ts';
import { verifyPassword } from './passwords.ts';
import { emailCodes } from './tables.ts';

/** Every argon2 computation (hash or verify) counted: the password work a request does. */
const argon2 = vi.hoisted(() => {
  // API test files share their worker's modules (vitest.config.ts): evaluate them afresh, so the
  // app this file builds imports the counting argon2 below even if an earlier file loaded the real one.
  vi.resetModules();
  return { runs: 0 };
});
vi.mock('@node-rs/argon2', async (actual) => {
  const real = await actual<typeof Argon2>();
  return {
    ...real,
    hash: (...args: Parameters<typeof real.hash>) => (argon2.runs++, real.hash(...args)),
    verify: (...args: Parameters<typeof real.verify>) => (argon2.runs++, real.verify(...args)),
  };
});

const t = useTestApp();

/** Everything a caller sees, except what differs on every answer (request id, clock). */
const seen = (res: LightMyRequestResponse) => {
  const { 'x-request-id': _id, date: _date, ...headers } = res.headers;
  return { status: res.statusCode, headers, body: res.rawPayload.toString('hex') };
};

/** The catalogue poll's statement (`catalog-changes.ts`): the app's own work every 500 ms. */
const CATALOGUE_POLL = /^select version from content_versions where name = 'catalog'$/;

/**
 * Sends each e-mail to `route` with jobs held; returns the answers and the database round trips made
 * meanwhile, less the catalogue poll's: on a slow (embedded, loaded) run a request outlasts 500 ms
 * and the poll's round trip fell inside it.
 */
async function answersWithoutJobs(route: RouteDef, emails: string[]) {
  let roundTrips = 0;
  const count = (client: PoolClient) => {
    roundTrips++;
    // The first statement on the connection says whose round trip it is.
    const query = client.query;
    client.query = ((...args: unknown[]) => {
      client.query = query;
      const first = args[0] as string | { text?: unknown } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      if (typeof text === 'string' && CATALOGUE_POLL.test(text.trim())) roundTrips--;
      return (query as (...a: unknown[]) => unknown).apply(client, args);
    }) as PoolClient['query'];
  };
  t.database.pool.on('acquire', count);
  t.jobs.hold();
  try {
    const answers = [];
    for (const email of emails) answers.push(await t.call(route, { body: { email } }));
    return { answers, roundTrips };
  } finally {
    t.database.pool.off('acquire', count);
  }
}

const codesOf = (userId: string) =>
  t.database.db.select().from(emailCodes).where(eq(emailCodes.userId, userId));
const mailTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));

describe('forgot-password and activation answer before doing any account work', () => {
  it('forgot password: same bytes for a known and an unknown e-mail, no lookup, mail after', async () => {
    const user = await createUser(t);
    const ghost = 'ghost-after@example.com';
    const { answers, roundTrips } = await answersWithoutJobs(authRoutes.sendForgotPasswordEmail, [
      user.email,
      ghost,
    ]);
    expect(answers[0]!.statusCode).toBe(200);
    expect(seen(answers[0]!)).toEqual(seen(answers[1]!));
    // The answer was written without touching the database: nothing in it can depend on the account.
    expect(roundTrips).toBe(0);
    expect(await codesOf(user.id)).toHaveLength(0);
    expect(await mailTo(user.email)).toHaveLength(0);

    await t.jobs.settle();
    expect(t.smtp.codeFor(user.email)).toMatch(/^\d{6}$/);
    expect(t.smtp.codeFor(ghost)).toBeNull();
    expect(await mailTo(ghost)).toHaveLength(0);
  });

  it('activation: same bytes for unverified, verified and unknown e-mails; only the first gets mail', async () => {
    const unverified = await createUser(t, { verified: false });
    const verified = await createUser(t);
    const ghost = 'ghost-activation-after@example.com';
    const { answers, roundTrips } = await answersWithoutJobs(
      authRoutes.sendAccountVerificationEmail,
      [unverified.email, verified.email, ghost],
    );
    expect(answers[0]!.statusCode).toBe(200);
    expect(seen(answers[1]!)).toEqual(seen(answers[0]!));
    expect(seen(answers[2]!)).toEqual(seen(answers[0]!));
    expect(roundTrips).toBe(0);
    expect(await codesOf(unverified.id)).toHaveLength(0);

    await t.jobs.settle();
    expect(t.smtp.codeFor(unverified.email)).toMatch(/^\d{6}$/);
    expect(t.smtp.codeFor(verified.email)).toBeNull();
    expect(t.smtp.codeFor(ghost)).toBeNull();
  });

  it('keeps the limits on the request path, alike for known and unknown e-mails', async () => {
    const user = await createUser(t);
    for (const email of [user.email, 'ghost-limit-after@example.com']) {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await t.call(authRoutes.sendForgotPasswordEmail, { body: { email } })).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
    await t.jobs.settle();
    // Three answers, three codes: only the last one is live.
    expect((await codesOf(user.id)).filter((c) => c.consumedAt === null)).toHaveLength(1);
  });
});

/** Where wrapped clients write the SQL they send, while a request is being recorded. */
let recording: string[] | null = null;
const wrapped = new WeakSet<PoolClient>();
const wrap = (client: PoolClient) => {
  if (wrapped.has(client)) return;
  wrapped.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    const q = args[0];
    recording?.push(typeof q === 'string' ? q : (q as { text: string }).text);
    return query(...args);
  };
};

/**
 * The SQL a request sends, in order (text only; values differ). Pooled clients are wrapped as they
 * are handed out, so statements inside transactions count too.
 */
async function statementsOf(send: () => Promise<LightMyRequestResponse>) {
  t.database.pool.on('acquire', wrap);
  const sql: string[] = [];
  recording = sql;
  try {
    const res = await send();
    // The catalogue's version poll (every 500 ms, ADR 040) runs beside requests, not in them.
    return { res, sql: sql.filter((q) => !q.startsWith('select version from content_versions')) };
  } finally {
    recording = null;
    t.database.pool.off('acquire', wrap);
  }
}

describe('code checks cost the same whether or not the account or a code exists', () => {
  it.each([
    ['check-forgot-password-code', authRoutes.checkForgotPasswordCode, 'password_reset'],
    ['verify-account-code', authRoutes.verifyAccountCode, 'activation'],
  ] as const)(
    '%s: a wrong code, no code and an unknown e-mail run the same statements',
    async (_, route, purpose) => {
      const withCode = await createUser(t, { verified: purpose === 'password_reset' });
      const withoutCode = await createUser(t, { verified: false });
      await t.call(
        purpose === 'password_reset'
          ? authRoutes.sendForgotPasswordEmail
          : authRoutes.sendAccountVerificationEmail,
        { body: { email: withCode.email } },
      );
      await t.jobs.settle();
      const code = t.smtp.codeFor(withCode.email)!;
      const wrong = code === '123456' ? '654321' : '123456';
      const check = (email: string) => () => t.call(route, { body: { email, code: wrong } });

      const a = await statementsOf(check(withCode.email));
      const b = await statementsOf(check(withoutCode.email));
      const c = await statementsOf(check(`nobody-${purpose}@example.com`));
      expect(a.res.statusCode).toBe(400);
      expect(seen(b.res)).toEqual(seen(a.res));
      expect(seen(c.res)).toEqual(seen(a.res));
      expect(a.sql.length).toBeGreaterThan(1);
      expect(b.sql).toEqual(a.sql);
      expect(c.sql).toEqual(a.sql);
      // Nothing written or locked either: a commit that wrote waits for the disk, which is timeable.
      for (const statement of a.sql)
        expect(statement).not.toMatch(/^\s*(update|insert|delete)|for update/i);
    },
  );
});

// Probe of issue 26: sign-up answered 409 for a taken e-mail in ~9.5 ms and 201 for a new one in
// ~14.7 ms (ADR 003 says the 409 is as slow as a sign-up). Both now do the same work in the request.
describe('sign-up costs the same for a taken and a new e-mail (ADR 003)', () => {
  /** A statement's kind: its verb and the table it writes or reads first. */
  const kind = (q: string) => {
    const verb = /^\s*(\w+)/.exec(q)![1]!.toLowerCase();
    const table = /\b(?:into|from)\s+"?(\w+)"?/i.exec(q)?.[1];
    return table ? `${verb} ${table}` : verb;
  };

  it('one verification and one hash, then the same statements: a read, a transaction of two writes', async () => {
    const owner = await createUser(t);
    // The throwaway hash unknown e-mails are verified against is made once per process.
    await verifyPassword(null, 'warm-up-password-1');
    const signUp = async (email: string) => {
      const before = argon2.runs;
      const { res, sql } = await statementsOf(() =>
        t.call(authRoutes.signupBuyer, { body: { email, password: 'another-password-7' } }),
      );
      return { status: res.statusCode, argon2: argon2.runs - before, sql };
    };
    t.jobs.hold();
    const taken = await signUp(owner.email);
    const fresh = await signUp('fresh-signup-timing@example.com');
    expect(taken.status).toBe(409);
    expect(fresh.status).toBe(201);
    expect(taken.argon2).toBe(2);
    expect(fresh.argon2).toBe(2);
    expect(taken.sql.length).toBe(fresh.sql.length);
    expect(taken.sql.map(kind)).toEqual([
      'select users',
      'begin',
      'insert users',
      'insert mail_outbox',
      'commit',
    ]);
    expect(fresh.sql.map(kind)).toEqual([
      'select users',
      'begin',
      'insert users',
      'insert refresh_tokens',
      'commit',
    ]);

    // After the answers: the owner is told someone tried, the new account gets its code.
    await t.jobs.settle();
    expect(
      t.smtp.inbox.filter((m) => m.to.includes(owner.email) && /tried to create/.test(m.subject)),
    ).toHaveLength(1);
    expect(t.smtp.codeFor('fresh-signup-timing@example.com')).toMatch(/^\d{6}$/);
  });
});

describe('with the pg-boss queue, as npm start and npm run worker run it', () => {
  it('queues the lookup as a job; a worker mails the code', async () => {
    const user = await createUser(t);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const boss = await startQueue(t.config.DATABASE_URL!, quiet);
    const deps = createDeps(t.config, t.database, quiet, { boss });
    const app = await buildApp(deps);
    try {
      const answer = await app.inject({
        method: 'POST',
        url: authRoutes.sendForgotPasswordEmail.path,
        payload: { email: user.email },
      });
      expect(answer.statusCode).toBe(200);
      // Nothing ran in process: the job waits in the queue for a worker.
      expect(await codesOf(user.id)).toHaveLength(0);
      const queued = await boss.getQueueSize(queues.authResetMail);
      expect(queued).toBe(1);

      await startWorkers(boss, idleWorkerDeps(deps.mailer, jobHandlers(deps)));
      await expect.poll(() => t.smtp.codeFor(user.email), { timeout: 15_000 }).toMatch(/^\d{6}$/);
    } finally {
      await app.close();
      await boss.stop({ graceful: false, wait: true });
      await deps.close();
    }
  });
});
