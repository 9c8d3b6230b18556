// Local only: the affiliate hold's test clock (ADR 037). A person (or the e2e walk) moves the clock
// past the hold to see commission become available; `moveClock` refuses production.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import { cspNonce } from '../../platform/csp.ts';
import { localOnly } from '../../platform/local-only.ts';
import { clockOffset, moveClock } from './clock.ts';

export async function sandboxClockPages(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  app.addHook('onRequest', localOnly(deps.config));
  // The page's forms post no fields.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, _body, done) => done(null, {}),
  );
  const step = deps.config.AFFILIATE_HOLD_DAYS + 1;

  app.get('/sandbox/affiliates', { schema: { hide: true } }, async (_req, reply) => {
    const db = deps.database.db;
    const offset = await clockOffset(db);
    const payouts = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from affiliate_payouts where status = 'requested'`,
    );
    return page(
      reply,
      `<h1>Affiliate hold clock</h1>
<p>Commission becomes available ${deps.config.AFFILIATE_HOLD_DAYS} days after the sale
(<code>AFFILIATE_HOLD_DAYS</code>). The clock runs <strong id="offset">${offset} days</strong> ahead.</p>
<p class="muted">${payouts.rows[0]!.n} payouts wait for the provider.
Fail or reverse a transfer on <a href="/sandbox/payments">the payments sandbox</a>.</p>
<div class="row"><form method="post" action="/sandbox/affiliates/clock/advance"><button class="primary" type="submit">Advance ${step} days</button></form>
<form method="post" action="/sandbox/affiliates/clock/reset"><button type="submit">Reset the clock</button></form></div>`,
    );
  });

  app.post('/sandbox/affiliates/clock/advance', { schema: { hide: true } }, async (_req, reply) => {
    await moveClock(deps, deps.database.db, step);
    return reply.redirect('/sandbox/affiliates', 303);
  });
  app.post('/sandbox/affiliates/clock/reset', { schema: { hide: true } }, async (_req, reply) => {
    await moveClock(deps, deps.database.db, 0);
    return reply.redirect('/sandbox/affiliates', 303);
  });
}

function page(reply: FastifyReply, body: string) {
  const nonce = cspNonce(reply);
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Affiliate clock · Sandbox</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#0f1115;color:#e8eaf0;margin:0;padding:2rem 1rem}
main{max-width:34rem;margin:0 auto;background:#181b22;border:1px solid #2a2f3a;border-radius:12px;padding:1.5rem}
a{color:#9db6ff} .muted{color:#9aa3b2} .row{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #3a4150;background:#232833;color:#e8eaf0;cursor:pointer}
button.primary{background:#3b63e6;border-color:#3b63e6;color:#fff} button:focus-visible{outline:2px solid #9db6ff;outline-offset:2px}</style>
</head><body><main><p class="muted">Tradeshelf sandbox: local only.</p>${body}</main></body></html>`,
    );
}
