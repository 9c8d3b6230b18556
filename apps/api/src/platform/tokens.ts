import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Role } from '@tradeshelf/contract';

export const ISSUER = 'tradeshelf';
/** Audiences: the API proper, and the vendor area (SPEC §6 vendor cookies). */
export type Audience = 'tradeshelf:api' | 'tradeshelf:vendor';

export interface AccessClaims {
  sub: string;
  email: string;
  roles: Role[];
  aud: Audience;
}

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    readonly accessTtlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: Omit<AccessClaims, 'aud'>, aud: Audience = 'tradeshelf:api'): Promise<string> {
    return new SignJWT({ email: claims.email, roles: claims.roles, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.accessTtlSeconds)
      .sign(this.key);
  }

  /** Verifies signature, issuer, audience, type and expiry; returns null for any bad token. */
  async verify(token: string, audiences: Audience[]): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: audiences,
        algorithms: ['HS256'],
      });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string') return null;
      return {
        sub: payload.sub,
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
