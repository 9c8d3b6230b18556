import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** Room for part headers, boundaries and a few small fields around the one file. */
const ENVELOPE_BYTES = 64 * 1024;

export interface FilePart {
  bytes: Buffer;
  /** The file was longer than `maxBytes`; `bytes` holds only its start. */
  truncated: boolean;
  /** The name the client gave the file (untrusted: check it before showing or using it). */
  filename: string;
}

export interface FileFieldOptions {
  field: string;
  maxBytes: number;
  /** Shown when the request is larger than the file may be. */
  tooLarge: string;
}

/**
 * Checks a one-file multipart upload's headers now (not multipart: 415; declared larger than the
 * file may be: 413) and returns the reader for its body, so callers can apply limits in between.
 */
export function fileUpload(
  req: FastifyRequest,
  options: FileFieldOptions,
): () => Promise<FilePart | null> {
  if (!req.isMultipart()) {
    throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data.');
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxBytes + ENVELOPE_BYTES) {
    // Closing the connection spares reading a body nobody wants.
    throw new AppError(
      'payload_too_large',
      options.tooLarge,
      { [options.field]: options.tooLarge },
      { connection: 'close' },
    );
  }
  return () => readFileField(req, options);
}

/**
 * Reads the part named `field`. Every other part is drained, not skipped: the parser waits for a
 * part's stream to be consumed before it reads on, so an unread part would stall the request.
 */
async function readFileField(
  req: FastifyRequest,
  { field, maxBytes }: FileFieldOptions,
): Promise<FilePart | null> {
  let found: FilePart | null = null;
  let misnamed: string | null = null;
  try {
    const files = req.files({
      limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 10 },
      // The client's name as sent (the parser would keep only its last part): callers refuse paths.
      preservePath: true,
      // Truncation is reported on the part, so the caller can say what was too large.
      throwFileSizeLimit: false,
    });
    for await (const part of files) {
      if (part.fieldname !== field || found) {
        misnamed ??= part.fieldname;
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      found = {
        bytes: Buffer.concat(chunks),
        truncated: part.file.truncated,
        filename: part.filename ?? '',
      };
    }
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413)
      throw new AppError('payload_too_large', 'The form has too many parts or fields.');
    if (status !== undefined && status < 500) throw err;
    // The parser's own errors (no boundary, body ends inside a part …) carry no status.
    throw new AppError('bad_request', 'The multipart body is malformed.');
  }
  if (!found && misnamed !== null) {
    const message = `Send the file in the form field "${field}".`;
    throw new AppError('validation_failed', message, { [field]: message });
  }
  return found;
}
