import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResponsiveImage } from '@tradeshelf/contract';
import sharp from 'sharp';
import type { Storage } from '../integrations/storage/port.ts';

/**
 * The one place images are decoded and encoded (ADR 026). Every stored image is a directory of
 * variants named by width (`<w>.avif`, `<w>.webp`, and `<W>.jpg` at the largest width for share
 * cards and old clients); rows hold an image reference `<dir>/<W>x<H>`, from which the variants'
 * names follow without reading storage.
 */

// Decoding happens on libuv's pool; the operation cache only helps repeated work on one file.
sharp.cache(false);

/** Larger inputs are refused before decoding: a small PNG can declare a 60000² canvas. */
export const MAX_INPUT_PIXELS = 40_000_000;
const LADDER = [128, 256, 480, 800, 1200] as const;
const REF = /^(public\/[a-z0-9_/-]+)\/(\d{1,5})x(\d{1,5})$/i;

export type ImageShape =
  /** A square crop (avatars, logos). */
  | { fit: 'square'; size: number }
  /** A fixed frame, cropped to fill (covers, share cards). */
  | { fit: 'frame'; width: number; height: number }
  /** Kept whole, its longest side at most `max` (gallery pictures). */
  | { fit: 'inside'; max: number };

/** The widths stored for an image whose largest variant is `width`. */
export function variantWidths(width: number): number[] {
  // Down to a third of the largest: 1200 → 480, 800, 1200; 256 → 128, 256.
  return [...LADDER.filter((w) => w < width && w * 3 >= width), width];
}

export function isImageRef(key: string): boolean {
  return REF.test(key);
}

/** The image a reference names, as responses carry it; null for a legacy single-file key. */
export function presentImage(storage: Storage, key: string | null): ResponsiveImage | null {
  const m = key ? REF.exec(key) : null;
  if (!m) return null;
  const width = Number(m[2]);
  return {
    base: storage.publicUrl(m[1]!),
    width,
    height: Number(m[3]),
    widths: variantWidths(width),
  };
}

/** One URL for a stored key: the JPEG of an image reference, or a legacy file's own URL. */
export function imageFileUrl(storage: Storage, key: string | null): string | null {
  if (!key) return null;
  if (key.startsWith('/')) return key;
  const m = REF.exec(key);
  return m ? storage.publicUrl(`${m[1]}/${m[2]}.jpg`) : storage.publicUrl(key);
}

/** Every file an image reference stands for (to delete them, or to check one exists). */
export function variantKeys(ref: string): string[] {
  const m = REF.exec(ref);
  if (!m) return [ref];
  const width = Number(m[2]);
  const keys = variantWidths(width).flatMap((w) => [`${m[1]}/${w}.avif`, `${m[1]}/${w}.webp`]);
  // The JPEG is written last, so its presence means the whole set is there.
  return [...keys, `${m[1]}/${width}.jpg`];
}

export class ImageRejected extends Error {
  constructor(readonly reason: 'undecodable' | 'too_many_pixels') {
    super(reason);
  }
}

/** Short content hash for a variant directory: the same input and shape give the same directory. */
export function contentHash(...parts: Array<string | Buffer>): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 20);
}

/**
 * Decodes `input` fully (a truncated or corrupt file throws here, not in a browser), applies its
 * orientation, drops every piece of metadata (EXIF, GPS, XMP, ICC after conversion to sRGB), and
 * bounds it to `shape`. Returns raw RGBA pixels ready to encode.
 */
async function decode(
  input: Buffer,
  shape: ImageShape,
): Promise<{ pixels: Buffer; width: number; height: number }> {
  let meta;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected('undecodable');
  }
  if (!meta.width || !meta.height) throw new ImageRejected('undecodable');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new ImageRejected('too_many_pixels');
  try {
    // `failOn: 'warning'` refuses files libvips can only half read (a cut-off PNG, a bad CRC).
    let pipeline = sharp(input, { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .toColourspace('srgb');
    if (shape.fit === 'square') {
      // Cropped square, never enlarged: a small picture stays small (the browser scales it).
      const side = Math.min(meta.width, meta.height, shape.size);
      pipeline = pipeline.resize(side, side, { fit: 'cover', position: 'attention' });
    } else if (shape.fit === 'frame')
      pipeline = pipeline.resize(shape.width, shape.height, { fit: 'cover' });
    else
      pipeline = pipeline.resize(shape.max, shape.max, { fit: 'inside', withoutEnlargement: true });
    const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { pixels: data, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof ImageRejected) throw err;
    throw new ImageRejected('undecodable');
  }
}

/**
 * How hard the encoders try. Uploads get smaller files; generated demo pictures (flat colours, ~170
 * of them on a first start) get the fastest settings, about 3x quicker for ~2x the AVIF bytes.
 */
export type Effort = 'small' | 'fast';
const EFFORT = {
  small: { avif: 2, webp: 3 },
  fast: { avif: 0, webp: 1 },
} as const;

/** Encodes every variant from decoded pixels; metadata is never copied (sharp's default). */
async function encodeVariants(
  decoded: { pixels: Buffer; width: number; height: number },
  dir: string,
  effort: Effort,
): Promise<Array<{ key: string; body: Buffer; type: string }>> {
  const raw = { raw: { width: decoded.width, height: decoded.height, channels: 4 as const } };
  const from = (w: number) => {
    const s = sharp(decoded.pixels, raw);
    return w === decoded.width ? s : s.resize(w);
  };
  const files = await Promise.all(
    variantWidths(decoded.width).flatMap((w) => [
      // AVIF at the default effort (4) costs ~10x effort 2's time for a few per cent of bytes.
      from(w)
        .avif({ quality: 55, effort: EFFORT[effort].avif })
        .toBuffer()
        .then((body) => ({ key: `${dir}/${w}.avif`, body, type: 'image/avif' })),
      from(w)
        .webp({ quality: 78, effort: EFFORT[effort].webp })
        .toBuffer()
        .then((body) => ({ key: `${dir}/${w}.webp`, body, type: 'image/webp' })),
    ]),
  );
  const jpeg = await from(decoded.width)
    .flatten({ background: '#0b0f17' })
    .jpeg({ quality: 80, mozjpeg: effort === 'small' })
    .toBuffer();
  files.push({ key: `${dir}/${decoded.width}.jpg`, body: jpeg, type: 'image/jpeg' });
  return files;
}

/**
 * Decodes, cleans, resizes and stores an image under `prefix/<content hash>/`; returns its reference.
 * Throws `ImageRejected` for anything that does not decode as an image within the limits.
 */
export async function storeImage(
  storage: Storage,
  input: Buffer,
  prefix: string,
  shape: ImageShape,
): Promise<string> {
  const decoded = await decode(input, shape);
  const dir = `${prefix}/${contentHash(input, JSON.stringify(shape))}`;
  const files = await encodeVariants(decoded, dir, 'small');
  for (const f of files) await storage.put(f.key, f.body, f.type);
  return `${dir}/${decoded.width}x${decoded.height}`;
}

/**
 * Renders an SVG once per content hash: when the set already exists in storage (a restart, a
 * second seed), nothing is decoded or encoded. The reference is known before rendering.
 */
export function svgImageRef(
  prefix: string,
  svg: string,
  width: number,
  height: number,
): { ref: string; dir: string } {
  const dir = `${prefix}/${contentHash(svg, `${width}x${height}`)}`;
  return { ref: `${dir}/${width}x${height}`, dir };
}

export async function renderSvgImage(
  storage: Storage,
  svg: string,
  ref: string,
  /** A directory keeping rendered files across data directories (e2e runs start from nothing). */
  cacheDir?: string,
): Promise<'stored' | 'copied' | 'rendered'> {
  const m = REF.exec(ref);
  if (!m) throw new Error(`not an image reference: ${ref}`);
  const keys = variantKeys(ref);
  if (await storage.exists(keys.at(-1)!)) return 'stored';
  const fromCache = cacheDir ? await readCached(cacheDir, keys) : null;
  if (fromCache) {
    for (const [i, body] of fromCache.entries())
      await storage.put(keys[i]!, body, typeOf(keys[i]!));
    return 'copied';
  }
  const width = Number(m[2]);
  const height = Number(m[3]);
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 })
    .resize(width, height, { fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const files = await encodeVariants(
    { pixels: data, width: info.width, height: info.height },
    m[1]!,
    'fast',
  );
  // The JPEG goes last (see `variantKeys`): an interrupted run is redone, not half-served.
  for (const f of files) {
    await storage.put(f.key, f.body, f.type);
    if (cacheDir) await writeCached(cacheDir, f.key, f.body);
  }
  return 'rendered';
}

const typeOf = (key: string) =>
  key.endsWith('.avif') ? 'image/avif' : key.endsWith('.webp') ? 'image/webp' : 'image/jpeg';

async function readCached(dir: string, keys: string[]): Promise<Buffer[] | null> {
  try {
    return await Promise.all(keys.map((k) => readFile(path.join(dir, k))));
  } catch {
    return null;
  }
}

async function writeCached(dir: string, key: string, body: Buffer): Promise<void> {
  const file = path.join(dir, key);
  // A cache is an optimisation: a read-only or full disk (the container image's code is read-only
  // to the app) only costs the next run a render.
  await mkdir(path.dirname(file), { recursive: true })
    .then(() => writeFile(`${file}.tmp`, body))
    .then(() => rename(`${file}.tmp`, file))
    .catch(() => undefined);
}

/** Removes every file of an image (or a legacy file); failures leave orphans, never errors. */
export async function deleteImage(storage: Storage, key: string): Promise<void> {
  await Promise.all(variantKeys(key).map((k) => storage.delete(k).catch(() => undefined)));
}
