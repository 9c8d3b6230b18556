import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition, type SignedUrlOptions, type Storage } from './port.ts';

/** Real adapter: S3 or any S3-compatible store; public objects are read through `publicBaseUrl` (a CDN). */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  constructor(
    private readonly bucket: string,
    options: { region: string; endpoint?: string; publicBaseUrl?: string },
  ) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    });
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
      this.client,
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
