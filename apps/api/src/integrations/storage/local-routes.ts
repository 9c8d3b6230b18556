import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { LocalDiskStorage } from './local.ts';
import { attachmentDisposition } from './port.ts';
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
 * can seek (206, `Content-Range`; 416 outside the file). A signed `dl` name downloads the file under
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
    try {
      file = storage.resolve(key);
      const info = await stat(file);
      if (!info.isFile()) throw missing;
      size = info.size;
    } catch {
      throw missing;
    }
    void reply
      .header('content-type', TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
      .header('accept-ranges', 'bytes')
      .header('x-content-type-options', 'nosniff')
      .header(
        'cache-control',
        isPublic ? 'public, max-age=31536000, immutable' : 'private, no-store',
      );
    if (dl && !isPublic) void reply.header('content-disposition', attachmentDisposition(dl));

    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      let start = range[1] ? Number(range[1]) : size - Number(range[2]);
      let end = range[1] && range[2] ? Number(range[2]) : size - 1;
      start = Math.max(0, start);
      end = Math.min(end, size - 1);
      if (start > end || start >= size) {
        return reply
          .status(416)
          .header('content-range', `bytes */${size}`)
          .type('application/json; charset=utf-8')
          .send({
            error: `The range is outside the file (${size} bytes).`,
            code: 'range_not_satisfiable',
          });
      }
      return reply
        .status(206)
        .header('content-range', `bytes ${start}-${end}/${size}`)
        .header('content-length', end - start + 1)
        .send(createReadStream(file, { start, end }));
    }
    return reply.header('content-length', size).send(createReadStream(file));
  });
}
