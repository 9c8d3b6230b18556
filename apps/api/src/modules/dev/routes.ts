import type { FastifyInstance } from 'fastify';
import { localOnly } from '../../platform/local-only.ts';
import { cspNonce } from '../../platform/csp.ts';

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Local environment only: the mail outbox, so codes can be read without an SMTP server. */
export async function devModule(app: FastifyInstance): Promise<void> {
  // Codes in the outbox reset passwords: only this machine may read them.
  app.addHook('onRequest', localOnly(app.deps.config));
  app.get('/dev/mail', { schema: { hide: true } }, async (_req, reply) => {
    const rows = await app.deps.mailer.recent(50);
    const items = rows
      .map(
        (m) =>
          `<article><h2>${escape(m.subject)}</h2><p>To ${escape(m.to)}${m.replyTo ? ` · Reply-To ${escape(m.replyTo)}` : ''} · ${m.createdAt.toISOString()} · ${m.status}</p><pre>${escape(m.text)}</pre></article>`,
      )
      .join('');
    const nonce = cspNonce(reply);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox (local)</title><style nonce="${nonce}">body{font-family:system-ui;background:#0b0f17;color:#e6e9ef;max-width:760px;margin:2rem auto;padding:0 1rem}article{border:1px solid #2a3242;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style></head><body><h1>Outbox (local environment)</h1>${items || '<p>No mail yet.</p>'}</body></html>`,
      );
  });
}
