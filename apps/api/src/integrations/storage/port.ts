/** The storage port: media and downloads, on local disk or S3-compatible storage. */
export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Whether an object is stored under `key` (content-addressed images skip work they have done). */
  exists(key: string): Promise<boolean>;
  /** A permanent URL for keys under `public/` (avatars, product images). */
  publicUrl(key: string): string;
  /** A URL that expires, for private objects (downloads, videos). */
  signedUrl(key: string, ttlSeconds: number): Promise<{ url: string; expiresAt: Date }>;
}
