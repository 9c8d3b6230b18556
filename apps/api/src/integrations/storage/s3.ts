import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  attachmentDisposition,
  type ByteRange,
  type SignedUrlOptions,
  type Storage,
} from './port.ts';

/** A multipart upload's part size: S3's minimum is 5 MiB; one part is all a stream holds at a time. */
const PART_BYTES = 8 * 1024 * 1024;

/** Real adapter: S3 or any S3-compatible store; public objects are read through `publicBaseUrl` (a CDN). */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  /** Signs links for browsers: the same store, named as browsers reach it (`signedUrlEndpoint`). */
  private readonly signer: S3Client;
  constructor(
    private readonly bucket: string,
    options: {
      region: string;
      endpoint?: string;
      publicBaseUrl?: string;
      signedUrlEndpoint?: string;
    },
  ) {
    const client = (endpoint: string | undefined) =>
      new S3Client({
        region: options.region,
        ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      });
    this.client = client(options.endpoint);
    // A signature covers the host, so a link signed for the nodes' name of the store (a private
    // network name) would not open in a browser: links are signed for the name browsers use.
    this.signer =
      options.signedUrlEndpoint && options.signedUrlEndpoint !== options.endpoint
        ? client(options.signedUrlEndpoint)
        : this.client;
    this.publicBase =
      options.publicBaseUrl ??
      (options.endpoint
        ? `${options.endpoint.replace(/\/$/, '')}/${bucket}`
        : `https://${bucket}.s3.${options.region}.amazonaws.com`);
  }
  private readonly publicBase: string;

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  /**
   * A body up to one part is one PUT; a longer one is a multipart upload sent part by part, aborted
   * when the body fails, so S3 keeps no object and no parts.
   */
  async putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<void> {
    const iterator = body[Symbol.asyncIterator]();
    let pending: Buffer[] = [];
    let size = 0;
    let done = false;
    const fill = async () => {
      while (size < PART_BYTES) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        pending.push(next.value);
        size += next.value.length;
      }
      const all = Buffer.concat(pending);
      const part = all.subarray(0, PART_BYTES);
      pending = all.length > PART_BYTES ? [all.subarray(PART_BYTES)] : [];
      size = all.length - part.length;
      return part;
    };
    const first = await fill();
    if (done && size === 0) return this.put(key, first, contentType);
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    const parts: CompletedPart[] = [];
    try {
      let part = first;
      for (let n = 1; ; n++) {
        const { ETag } = await this.client.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId,
            PartNumber: n,
            Body: part,
          }),
        );
        parts.push({ ETag, PartNumber: n });
        if (done && size === 0) break;
        part = await fill();
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId }))
        .catch(() => undefined);
      throw err;
    }
  }

  /** The SDK's body is the HTTP response itself: read as it arrives, never held whole. */
  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    const out = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    if (!(out.Body instanceof Readable)) throw new Error(`no body for ${key}`);
    return out.Body;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return false;
      throw err;
    }
  }

  publicUrl(key: string): string {
    return `${this.publicBase}/${key}`;
  }

  async signedUrl(key: string, ttlSeconds: number, options: SignedUrlOptions = {}) {
    const url = await getSignedUrl(
      this.signer,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(options.downloadName
          ? { ResponseContentDisposition: attachmentDisposition(options.downloadName) }
          : {}),
        ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
      }),
      { expiresIn: ttlSeconds },
    );
    return { url, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
  }
}

/**
 * Why the SDK's default credential chain (environment, shared files, web identity, container or
 * instance role), as the adapter's client uses it, finds no credentials within `timeoutMs`; null
 * when it finds some. Checked at start: without them every upload would answer 500 (ADR 049).
 */
export async function s3CredentialsProblem(
  region: string,
  timeoutMs: number,
): Promise<string | null> {
  const client = new S3Client({ region });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`none found within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      client.config.credentials().then(
        () => null,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}
