import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Role } from '@tradeshelf/contract';

export const ISSUER = 'tradeshelf';
/** Audiences: the API proper, and the vendor area (docs/product.md#roles). */
export type Audience = 'tradeshelf:api' | 'tradeshelf:vendor';

export interface AccessClaims {
  sub: string;
  email: string;
  roles: Role[];
  aud: Audience;
  /** The sign-in (refresh-token family) the token belongs to: ending it refuses the token. */
  sid: string;
  /** Set when the caller is a vendor's API key, not a session (ADR 057): `sub` is who made it. */
  apiKey?: { id: string; vendorId: string };
}

/** Seconds nodes' clocks may disagree when checking `iat` and `exp`. */
const CLOCK_TOLERANCE_SECONDS = 5;

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    readonly accessTtlSeconds: number,
    /** Whether a sign-in has been ended (ADR 021); consulted after the signature checks out. */
    private readonly isDenied: (sid: string) => Promise<boolean> = async () => false,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Without `sid` the token is a sign-in of its own, which nothing can end (tests, scripts). */
  async sign(
    claims: Omit<AccessClaims, 'aud' | 'sid'> & { sid?: string },
    aud: Audience = 'tradeshelf:api',
  ): Promise<string> {
    const sid = claims.sid ?? `tok_${randomBytes(12).toString('base64url')}`;
    return new SignJWT({ email: claims.email, roles: claims.roles, typ: 'access', sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.accessTtlSeconds)
      .sign(this.key);
  }

  /**
   * Verifies signature, issuer, audience, type, expiry (required) and age (no older than this
   * app's lifetime, so a denial outlives every token it covers), then that its sign-in has not
   * been ended; returns null for any bad token.
   */
  async verify(token: string, audiences: Audience[]): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: audiences,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub', 'sid'],
        maxTokenAge: this.accessTtlSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      const { sub, sid } = payload;
      if (payload.typ !== 'access' || typeof sub !== 'string' || typeof sid !== 'string') {
        return null;
      }
      if (await this.isDenied(sid)) return null;
      return {
        sub,
        sid,
        email: String(payload.email),
        roles: (payload.roles as Role[]) ?? [],
        aud: (Array.isArray(payload.aud) ? payload.aud[0] : payload.aud) as Audience,
      };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }
}
