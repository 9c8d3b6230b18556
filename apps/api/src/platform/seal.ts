import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Secrets we must keep but never show (a provider's OAuth tokens): AES-256-GCM under a key derived
 * from the app's secret, so a database dump alone does not hand them out.
 */
export class Sealer {
  private readonly key: Buffer;
  private readonly macKey: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`seal:${secret}`).digest();
    this.macKey = createHash('sha256').update(`mac:${secret}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Null when the text was not sealed by this key (tampered, or another secret). */
  open(sealed: string): string | null {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || !body) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }

  /** `payload.signature`, for values that travel through a browser and come back. */
  sign(payload: string): string {
    return `${payload}.${createHmac('sha256', this.macKey).update(payload).digest('base64url')}`;
  }

  /** The payload when the signature is ours, compared in constant time; else null. */
  verify(signed: string): string | null {
    const cut = signed.lastIndexOf('.');
    if (cut <= 0) return null;
    const payload = signed.slice(0, cut);
    const given = Buffer.from(signed.slice(cut + 1));
    const expected = Buffer.from(
      createHmac('sha256', this.macKey).update(payload).digest('base64url'),
    );
    return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
  }
}
