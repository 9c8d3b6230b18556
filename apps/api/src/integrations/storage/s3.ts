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
