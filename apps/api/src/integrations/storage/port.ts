import type { Readable } from 'node:stream';

/** The storage port: media and downloads, on local disk or S3-compatible storage. */
export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Stores a body as it arrives, holding a bounded part of it at a time (uploads, ADR 048). When the
   * body throws (too large, wrong type, the client went away) nothing is left under `key`.
   */
  putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * An object's bytes as a stream (the app serves them itself: traced downloads, ADR 053), or the
   * bytes `start`..`end` (inclusive) of it. Rejects when nothing is stored under `key`.
   */
  getStream(key: string, range?: ByteRange): Promise<Readable>;
  /** Whether an object is stored under `key` (content-addressed images skip work they have done). */
  exists(key: string): Promise<boolean>;
  /** A permanent URL for keys under `public/` (avatars, product images). */
  publicUrl(key: string): string;
  /**
   * A URL that expires, for private objects (downloads, videos). `downloadName` makes it download
   * under that file name (`Content-Disposition: attachment`); `contentType` names what it serves.
   */
  signedUrl(
    key: string,
    ttlSeconds: number,
    options?: SignedUrlOptions,
  ): Promise<{ url: string; expiresAt: Date }>;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP ranges. */
  end: number;
}

export interface SignedUrlOptions {
  downloadName?: string;
  contentType?: string;
}

/** `attachment` with the name twice: an ASCII fallback, and the exact name (RFC 6266, RFC 8187). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
