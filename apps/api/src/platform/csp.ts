import { createHash, randomFillSync } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * Content-Security-Policy for every answer (ADR 022). Pages get a fresh nonce per response and run
 * only scripts that carry it, or that a script carrying it loaded; anything else (JSON, files,
 * assets) may load nothing and be framed by nobody.
 */

/** 128 random bits, base64: always 24 characters, so a cached page can swap it in place. */
export const NONCE_LENGTH = 24;
// Drawn from the CSPRNG 256 nonces at a time: one call cost ~15 µs on a busy 2-core machine, a
// page-cache hit ~500 µs in all (as `crypto.randomUUID` caches its entropy).
const pool = Buffer.alloc(16 * 256);
let used = pool.length;
export function newNonce(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 16;
  return pool.toString('base64', used - 16, used);
}

/** Helmet's CSP option: sent on every response; pages and HTML routes replace it with their own. */
export const API_CSP = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Swagger UI (`/docs`): its page has no inline script, so same-origin files suffice and no nonce is
 * needed. Its logo is an SVG with a `<style>` of its own, allowed by hash; its stylesheet inlines
 * icons as `data:` images.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${sha256('.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}')}`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface PagePolicyOptions {
  /** Origins images come from besides this one (S3 or a CDN in front of it). */
  imgSrc?: readonly string[];
  /** Origins course videos and captions stream from besides this one (signed S3 or CDN URLs). */
  mediaSrc?: readonly string[];
  /** `style="…"` attribute values allowed by hash: a nonce cannot cover an attribute. */
  styleAttributes?: readonly string[];
}

/**
 * The policy for our HTML pages, as a function of the response's nonce (the rest is built once).
 * `'strict-dynamic'`: the inline router script (nonced) imports the route modules, the manifest and
 * the client entry, and they load what they need; no list of script URLs to keep in step, and an
 * injected `<script src>` (even same-origin) without the nonce is refused. The API is this origin
 * (`apps/web/app/lib/config.ts`), so `connect-src 'self'`; forms post only here.
 */
export function pagePolicy(options: PagePolicyOptions = {}): (nonce: string) => string {
  const img = ["'self'", ...(options.imgSrc ?? [])].join(' ');
  // Same-origin media are covered by `default-src 'self'`; another origin needs naming.
  const media = options.mediaSrc?.length ? `; media-src 'self' ${options.mediaSrc.join(' ')}` : '';
  const attrs = options.styleAttributes ?? [];
  const styleAttr = attrs.length
    ? `; style-src-attr 'unsafe-hashes' ${attrs.map(sha256).join(' ')}`
    : '';
  const rest =
    `; img-src ${img}${media}; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'` +
    `; form-action 'self'; frame-ancestors 'none'${styleAttr}`;
  return (nonce) =>
    `default-src 'self'; script-src 'nonce-${nonce}' 'strict-dynamic'; style-src 'self' 'nonce-${nonce}'${rest}`;
}

/** Where stored media are served from when that is another origin (S3 or its CDN). */
export function mediaOrigins(storage: { publicUrl(key: string): string }): string[] {
  const url = storage.publicUrl('probe');
  return /^https?:\/\//.test(url) ? [new URL(url).origin] : [];
}

const plainPage = pagePolicy();

/**
 * For HTML a route writes itself: sets this reply's policy with a fresh nonce and returns the nonce
 * for its inline `<style>`/`<script>` tags. Call once per reply.
 */
export function cspNonce(
  reply: FastifyReply,
  policy: (nonce: string) => string = plainPage,
): string {
  const nonce = newNonce();
  void reply.header('content-security-policy', policy(nonce));
  return nonce;
}
