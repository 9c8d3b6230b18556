// Signed tokens of the deliverables module (ADR 053): short-lived download links and per-product
// unsubscribe links. HMAC-SHA256 under the storage secret, each kind with its own prefix so one
// cannot stand for the other; checked in constant time.
import { hmac, safeEqual } from '../../lib.ts';

export interface DownloadClaim {
  versionId: string;
  userId: string;
  /** Unix seconds. */
  exp: number;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

const downloadSig = (secret: string, c: DownloadClaim) =>
  hmac(secret, `download:${c.versionId}:${c.userId}:${c.exp}`);

/** The query of a download link: `u` (the buyer), `exp` and `sig` (the path names the version). */
export function signDownload(secret: string, claim: DownloadClaim): string {
  const sig = downloadSig(secret, claim);
  return `u=${encodeURIComponent(claim.userId)}&exp=${claim.exp}&sig=${sig}`;
}

/** The claim of a well-signed link (expired or not); null when it is malformed or tampered with. */
export function readDownload(
  secret: string,
  versionId: string,
  query: { u?: unknown; exp?: unknown; sig?: unknown },
): DownloadClaim | null {
  const { u, exp, sig } = query;
  if (typeof u !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') return null;
  if (!u || u.length > 100 || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return null;
  const claim = { versionId, userId: u, exp: Number(exp) };
  return safeEqual(downloadSig(secret, claim), sig) ? claim : null;
}

export function signUnsubscribe(secret: string, userId: string, productId: string): string {
  const body = b64(`${userId}:${productId}`);
  return `${body}.${hmac(secret, `version-mails:${body}`)}`;
}

export function readUnsubscribe(
  secret: string,
  token: string,
): { userId: string; productId: string } | null {
  const m = /^([A-Za-z0-9_-]{1,400})\.([0-9a-f]{64})$/.exec(token);
  if (!m) return null;
  if (!safeEqual(hmac(secret, `version-mails:${m[1]}`), m[2]!)) return null;
  const [userId, productId] = unb64(m[1]!).split(':');
  return userId && productId ? { userId, productId } : null;
}
