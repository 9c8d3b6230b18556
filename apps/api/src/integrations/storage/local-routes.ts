import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { LocalDiskStorage } from './local.ts';
import { attachmentDisposition } from './port.ts';
import { byteRange, sendPart, unsatisfiable } from '../../platform/byte-range.ts';
import { AppError } from '../../platform/errors.ts';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.zip': 'application/zip',
};

/**
 * Serves the local storage adapter's files: keys under `public/` to anyone, the rest only with a
 * valid, unexpired signature (else 403 with the error shape). Supports single HTTP ranges so videos
 * can seek and downloads resume (206, `Content-Range`; 416 outside the file; `ETag`/`Last-Modified`
 * with `If-Range`). A signed `dl` name downloads the file under
 * that name (ADR 033).
 */
export async function filesModule(app: FastifyInstance): Promise<void> {
  const storage = app.deps.storage;
  if (!(storage instanceof LocalDiskStorage)) return;

  app.get<{
    Params: { '*': string };
    Querystring: { exp?: string; sig?: string; dl?: string | string[] };
  }>('/files/*', { schema: { hide: true } }, async (req, reply) => {
    const key = req.params['*'];
    const missing = new AppError('not_found', 'File not found.');
    if (!key || key.includes('\0') || key.split('/').some((p) => p === '..' || p === ''))
      throw missing;
    const isPublic = key.startsWith('public/');
    const dl = typeof req.query.dl === 'string' && req.query.dl ? req.query.dl : undefined;
    if (!isPublic) {
      const verdict = storage.check(key, req.query.exp, req.query.sig, dl);
      if (verdict === 'expired')
        throw new AppError('forbidden', 'This link expired. Ask for a new one.');
      if (verdict !== 'ok') throw new AppError('forbidden', 'This link is not valid.');
    }
    let file: string;
    let size: number;
    let modified: Date;
    try {
      file = storage.resolve(key);
      const info = await stat(file);
      if (!info.isFile()) throw missing;
      size = info.size;
      modified = info.mtime;
    } catch {
      throw missing;
    }
    const etag = `"${size.toString(16)}-${Math.floor(modified.getTime()).toString(16)}"`;
    const lastModified = modified.toUTCString();
    void reply
      .header('content-type', TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', lastModified)
      .header('x-content-type-options', 'nosniff')
      .header(
        'cache-control',
        isPublic ? 'public, max-age=31536000, immutable' : 'private, no-store',
      );
    if (dl && !isPublic) void reply.header('content-disposition', attachmentDisposition(dl));

    const range = byteRange(req.headers, size, { etag, lastModified });
    if (range.kind === 'unsatisfiable') return unsatisfiable(reply, size);
    if (range.kind === 'part') return sendPart(reply, range, size, createReadStream(file, range));
    return reply.header('content-length', size).send(createReadStream(file));
  });
}
