import { createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hmac, safeEqual } from '../../lib.ts';
import type { ByteRange, SignedUrlOptions, Storage } from './port.ts';

/** Sandbox adapter: files on disk, served by the app; private files need an HMAC-signed, expiring URL. */
export class LocalDiskStorage implements Storage {
  readonly kind = 'local' as const;
  constructor(
    readonly root: string,
    private readonly secret: string,
    private readonly urlPrefix = '/files',
  ) {}

  resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error('bad storage key');
    return full;
  }

  async put(key: string, body: Buffer): Promise<void> {
    await this.writeAside(key, (tmp) => writeFile(tmp, body));
  }

  async putStream(key: string, body: AsyncIterable<Buffer>): Promise<void> {
    await this.writeAside(key, (tmp) => pipeline(Readable.from(body), createWriteStream(tmp)));
  }

  /** Written aside and renamed, so a reader never sees half a file; a failed write leaves none. */
  private async writeAside(key: string, write: (tmp: string) => Promise<void>): Promise<void> {
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await write(tmp);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return access(this.resolve(key)).then(
      () => true,
      () => false,
    );
  }

  /** Opened before it resolves, so a missing file rejects here rather than mid-stream. */
  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await open(this.resolve(key), 'r');
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  publicUrl(key: string): string {
    return `${this.urlPrefix}/${key}`;
  }

  /** The download name is signed too, so a link cannot be made to serve a file under another name. */
  private sign(key: string, exp: number | string, downloadName: string | undefined): string {
    return hmac(this.secret, downloadName ? `${key}:${exp}:dl:${downloadName}` : `${key}:${exp}`);
  }

  async signedUrl(key: string, ttlSeconds: number, options: SignedUrlOptions = {}) {
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const sig = this.sign(key, exp, options.downloadName);
    const dl = options.downloadName ? `&dl=${encodeURIComponent(options.downloadName)}` : '';
    return { url: `${this.urlPrefix}/${key}?exp=${exp}&sig=${sig}${dl}`, expiresAt };
  }

  /** Whether a private key's URL is signed (`invalid` when not, or tampered with) and unexpired. */
  check(
    key: string,
    exp: string | undefined,
    sig: string | undefined,
    downloadName?: string,
  ): 'ok' | 'expired' | 'invalid' {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'invalid';
    if (!safeEqual(this.sign(key, exp, downloadName), sig)) return 'invalid';
    return Number(exp) * 1000 < Date.now() ? 'expired' : 'ok';
  }

  /** True when a private key's URL is signed and unexpired. */
  verify(key: string, exp: string | undefined, sig: string | undefined): boolean {
    return this.check(key, exp, sig) === 'ok';
  }
}
