// Uploads with progress. The API client uses fetch, which reports no upload progress, so file
// uploads go through XMLHttpRequest: same base URL, same bearer token, same error shape.
import type { ApiError, RouteRef } from '@tradeshelf/contract';
import { buildPath } from '@tradeshelf/contract/client';
import { currentConfig } from '../../lib/config.ts';
import { NETWORK_ERROR, SIGNED_OUT_ERROR } from '../../lib/http.ts';
import type { ThunkExtra } from '../../store.ts';

/** The part of XMLHttpRequest an upload uses (tests pass a fake). */
export interface UploadXhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  readonly upload: {
    onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

export const UPLOAD_CANCELLED: ApiError = { error: 'Upload cancelled.', code: 'cancelled' };

export interface UploadRequest {
  method: string;
  url: string;
  token: string | null;
  file: Blob;
  fileName: string;
  /** 0 to 1, as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function parseError(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as Partial<ApiError>;
    if (typeof body.error === 'string' && typeof body.code === 'string') return body as ApiError;
  } catch {
    // fall through
  }
  return {
    error: status === 413 ? 'The file is too large.' : `Upload failed (${status}).`,
    code: status >= 500 ? 'internal' : 'bad_request',
  };
}

/**
 * Sends one file as multipart field `file`; answers the JSON body of a 2xx, rejects with the
 * server's `{ error, code, fields? }` (or a network or cancel error of the same shape).
 */
export function uploadWithProgress<T>(
  req: UploadRequest,
  makeXhr: () => UploadXhr = () => new XMLHttpRequest() as unknown as UploadXhr,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (req.signal?.aborted) return reject(UPLOAD_CANCELLED);
    const xhr = makeXhr();
    xhr.open(req.method, req.url);
    xhr.setRequestHeader('accept', 'application/json');
    if (req.token) xhr.setRequestHeader('authorization', `Bearer ${req.token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) req.onProgress?.(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        req.onProgress?.(1);
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : {}) as T);
        } catch {
          reject({ error: 'The server sent an answer we could not read.', code: 'internal' });
        }
      } else reject(parseError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(NETWORK_ERROR);
    xhr.onabort = () => reject(UPLOAD_CANCELLED);
    req.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', req.file, req.fileName);
    xhr.send(form);
  });
}

export interface FileUpload {
  file: File;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** A contract route's upload with the session's token (fresh: the session refreshes it if due). */
export async function uploadTo<T>(
  extra: Pick<ThunkExtra, 'session'>,
  route: RouteRef,
  params: Record<string, string>,
  upload: FileUpload,
  query?: Record<string, string>,
): Promise<T> {
  const token = (await extra.session.current())?.accessToken ?? null;
  if (!token) throw SIGNED_OUT_ERROR;
  const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
  return uploadWithProgress<T>({
    method: route.method,
    url: currentConfig().apiBase + buildPath(route.path, params) + qs,
    token,
    file: upload.file,
    fileName: upload.file.name,
    ...(upload.onProgress ? { onProgress: upload.onProgress } : {}),
    ...(upload.signal ? { signal: upload.signal } : {}),
  });
}
