// What an uploaded file is, from its first bytes: a name or a declared type says nothing an uploader
// could not fake, and a browser would treat a mislabelled file by its bytes anyway.

const starts = (b: Buffer, sig: number[] | string, at = 0) => {
  const bytes = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
  return b.length >= at + bytes.length && b.subarray(at, at + bytes.length).equals(bytes);
};

/** ISO-BMFF brands that are stills or audio, not video. */
const NOT_VIDEO_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'mif1', 'msf1', 'M4A ', 'M4B ']);

/** A picture the image pipeline takes: PNG, JPEG or WebP (not SVG, TIFF, AVIF … it could decode). */
export function sniffImage(b: Buffer): 'png' | 'jpeg' | 'webp' | null {
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts(b, 'RIFF') && starts(b, 'WEBP', 8)) return 'webp';
  return null;
}

/** `video/mp4` (an ISO-BMFF `ftyp` box of a video brand) or `video/webm` (EBML, doctype webm). */
export function sniffVideo(b: Buffer): 'video/mp4' | 'video/webm' | null {
  if (starts(b, 'ftyp', 4)) {
    const brand = b.subarray(8, 12).toString('latin1');
    return NOT_VIDEO_BRANDS.has(brand) ? null : 'video/mp4';
  }
  if (starts(b, [0x1a, 0x45, 0xdf, 0xa3]) && b.subarray(0, 64).includes('webm', 0, 'latin1'))
    return 'video/webm';
  return null;
}

/**
 * Text a person could open: UTF-8 without NUL or other control characters than tab and breaks.
 * Fed a file in pieces (`push`), it checks each as it comes; `end` says whether the whole was text.
 */
export class TextCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private ok = true;
  private seen = false;

  push(chunk: Buffer): boolean {
    if (!this.ok) return false;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      return (this.ok = false);
    }
    for (const c of chunk)
      if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return (this.ok = false);
    this.seen ||= chunk.length > 0;
    return true;
  }

  end(): boolean {
    if (!this.ok || !this.seen) return false;
    try {
      this.decoder.decode();
    } catch {
      return (this.ok = false);
    }
    return true;
  }
}

/** Whether `b` is text: all of a file (`whole`), or its start (a character may be cut at the end). */
function isText(b: Buffer, whole: boolean): boolean {
  const check = new TextCheck();
  return check.push(b) && (!whole || check.end()) && b.length > 0;
}

export type AttachmentType =
  | 'application/pdf'
  | 'application/zip'
  | 'text/csv'
  | 'text/plain'
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp';

/**
 * A course attachment's type from its first bytes (`whole`: they are all of it); text is CSV when its
 * name says so. Null: not one we take. Text must stay text to its end: see `TextCheck`.
 */
export function sniffAttachment(b: Buffer, name: string, whole = true): AttachmentType | null {
  if (starts(b, '%PDF-')) return 'application/pdf';
  if (starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0x50, 0x4b, 0x05, 0x06]))
    return 'application/zip';
  const image = sniffImage(b);
  if (image) return `image/${image}`;
  if (starts(b, 'GIF87a') || starts(b, 'GIF89a')) return 'image/gif';
  if (isText(b, whole)) return /\.csv$/i.test(name) ? 'text/csv' : 'text/plain';
  return null;
}

export type BuildType =
  'application/zip' | 'application/gzip' | 'application/x-msdownload' | 'application/x-msi';

/** An app build: a ZIP or gzip archive, a Windows program (MZ) or an installer (MSI, OLE2). */
export function sniffBuild(b: Buffer): BuildType | null {
  if (starts(b, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (starts(b, [0x1f, 0x8b])) return 'application/gzip';
  if (starts(b, 'MZ')) return 'application/x-msdownload';
  if (starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/x-msi';
  return null;
}
