import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { addressKey } from './rate-limit.ts';

/** Room for part headers, boundaries and a few small fields around the one file. */
const ENVELOPE_BYTES = 64 * 1024;

/** The one file of an upload, as it arrives. */
export interface IncomingFile {
  /** Its bytes; the parser stops one byte past `maxBytes`, and the reader counts (`uploads.ts`). */
  stream: Readable;
  /** The name the client gave the file (untrusted: check it before showing or using it). */
  filename: string;
}

/**
 * Reads an upload's file field, handing it to `take` as it arrives; null when the form had no file.
 * When `take` fails, the parser stops: the rest of the body is not read.
 */
export type FileReader = (<R>(take: (file: IncomingFile) => Promise<R>) => Promise<R | null>) & {
  /** The client's address as limits key it (IPv6 per /64): upload slots count per address too. */
  readonly from?: string;
};

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
export function fileUpload(req: FastifyRequest, options: FileFieldOptions): FileReader {
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
  const read = <R>(take: (file: IncomingFile) => Promise<R>) => readFileField(req, options, take);
  return Object.assign(read, { from: addressKey(req.ip) });
}

/** An error of the caller's `take`, carried past the parser's own error handling unchanged. */
class TakeFailed {
  constructor(readonly cause: unknown) {}
}

/**
 * Reads the part named `field`. Every other part is drained, not skipped: the parser waits for a
 * part's stream to be consumed before it reads on, so an unread part would stall the request.
 */
async function readFileField<R>(
  req: FastifyRequest,
  { field, maxBytes }: FileFieldOptions,
  take: (file: IncomingFile) => Promise<R>,
): Promise<R | null> {
  let found = false;
  let result: R | null = null;
  let misnamed: string | null = null;
  try {
    const files = req.files({
      // One past the limit, so the reader sees that the file is too large and stops there.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 5, fieldSize: 1024, parts: 10 },
      // The client's name as sent (the parser would keep only its last part): callers refuse paths.
      preservePath: true,
      throwFileSizeLimit: false,
    });
    for await (const part of files) {
      if (part.fieldname !== field || found) {
        misnamed ??= part.fieldname;
        part.file.resume();
        continue;
      }
      found = true;
      try {
        result = await take({ stream: part.file, filename: part.filename ?? '' });
      } catch (err) {
        // Destroying the part unpipes the request: what the client still sends is not read, and
        // the answer closes the connection (platform/http.ts).
        const broken = part.file.errored;
        part.file.destroy();
        // The body's own faults (it ended inside the part …) are the parser's to name, below.
        throw broken && !(err instanceof AppError) ? err : new TakeFailed(err);
      }
    }
  } catch (err) {
    if (err instanceof TakeFailed) throw err.cause;
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
  return result;
}
