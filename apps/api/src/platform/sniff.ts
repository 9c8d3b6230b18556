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

/**
 * UTF-16LE text after its byte-order mark (MetaTrader writes presets and sources so): code units
 * that are not control characters other than tab and breaks. Fed in pieces, like `TextCheck`.
 */
export class Utf16TextCheck {
  private carry: number | null = null;
  private ok = true;
  private units = 0;

  push(chunk: Buffer): boolean {
    if (!this.ok) return false;
    let i = 0;
    if (this.carry !== null && chunk.length) {
      if (!this.unit(this.carry | (chunk[0]! << 8))) return (this.ok = false);
      this.carry = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2)
      if (!this.unit(chunk[i]! | (chunk[i + 1]! << 8))) return (this.ok = false);
    if (i < chunk.length) this.carry = chunk[i]!;
    return true;
  }

  private unit(u: number): boolean {
    this.units += 1;
    return !(u < 0x20 && u !== 0x09 && u !== 0x0a && u !== 0x0d) && u !== 0x7f;
  }

  end(): boolean {
    return this.ok && this.carry === null && this.units > 1;
  }
}

/** A byte-order mark saying the rest is UTF-16LE. */
export const isUtf16Le = (b: Buffer) => starts(b, [0xff, 0xfe]);

/** Whether `b` starts as text: UTF-8, or UTF-16LE with its mark (`whole`: it is all of it). */
export function startsAsText(b: Buffer, whole: boolean): 'utf-8' | 'utf-16le' | null {
  if (isUtf16Le(b)) {
    const check = new Utf16TextCheck();
    return check.push(b.subarray(0, whole ? b.length : b.length & ~1)) && (!whole || check.end())
      ? 'utf-16le'
      : null;
  }
  return isText(b, whole) ? 'utf-8' : null;
}

/** A page or script a browser would run, whatever the file is called (refused as any download). */
export function looksLikeMarkup(b: Buffer): boolean {
  const start = (isUtf16Le(b) ? b.subarray(2).toString('utf16le') : b.toString('latin1'))
    .slice(0, 512)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return /^<(!doctype html|html|head|body|script|svg|iframe|\?xml-stylesheet)/.test(start);
}

export const ZIP_MAGIC = (b: Buffer) =>
  starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0x50, 0x4b, 0x05, 0x06]);
export const PDF_MAGIC = (b: Buffer) => starts(b, '%PDF-');
export const PE_MAGIC = (b: Buffer) => starts(b, 'MZ');
/** OLE2 compound files: MSI installers, TradeStation ELD exports. */
export const OLE_MAGIC = (b: Buffer) => starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** A macOS flat installer package (xar). */
export const XAR_MAGIC = (b: Buffer) => starts(b, 'xar!');
