import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR } from '../../lib/http.ts';
import { UPLOAD_CANCELLED, uploadWithProgress } from './upload.ts';
import { FakeXhr } from './fake-xhr.ts';

function start(extra: { signal?: AbortSignal } = {}) {
  const xhr = new FakeXhr();
  const seen: number[] = [];
  const file = new File(['video bytes'], 'intro.mp4', { type: 'video/mp4' });
  const done = uploadWithProgress<{ course: string }>(
    {
      method: 'POST',
      url: 'http://api.test/api/v1/vendor/courses/prd_1/lessons/les_1/video',
      token: 'access-token',
      file,
      fileName: file.name,
      onProgress: (f) => seen.push(f),
      ...extra,
    },
    () => xhr,
  );
  return { xhr, seen, done };
}

describe('uploadWithProgress', () => {
  it('sends the file as field `file` with the bearer token and reports progress to the end', async () => {
    const { xhr, seen, done } = start();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toMatch(/\/lessons\/les_1\/video$/);
    expect(xhr.headers.authorization).toBe('Bearer access-token');
    const sent = xhr.body!.get('file') as File;
    expect(sent.name).toBe('intro.mp4');
    expect(await sent.text()).toBe('video bytes');
    xhr.progress(25, 100);
    xhr.progress(80, 100);
    xhr.upload.onprogress?.({ loaded: 1, total: 0, lengthComputable: false });
    xhr.answer(200, { course: 'updated' });
    await expect(done).resolves.toEqual({ course: 'updated' });
    expect(seen).toEqual([0.25, 0.8, 1]);
  });

  it('rejects with the server’s error shape, field messages included', async () => {
    const { xhr, done } = start();
    const refusal = {
      error: 'Upload the video as MP4 or WebM.',
      code: 'unsupported_media_type',
      fields: { file: 'Upload the video as MP4 or WebM.' },
    };
    xhr.answer(415, refusal);
    await expect(done).rejects.toEqual(refusal);
  });

  it('gives a readable error when a proxy answers without the error shape', async () => {
    const { xhr, done } = start();
    xhr.status = 413;
    xhr.responseText = '<html>Request Entity Too Large</html>';
    xhr.onload?.();
    await expect(done).rejects.toEqual({ error: 'The file is too large.', code: 'bad_request' });
  });

  it('reports a network failure and a cancel as errors of the same shape', async () => {
    const failed = start();
    failed.xhr.onerror?.();
    await expect(failed.done).rejects.toEqual(NETWORK_ERROR);

    const controller = new AbortController();
    const cancelled = start({ signal: controller.signal });
    controller.abort();
    expect(cancelled.xhr.aborted).toBe(true);
    await expect(cancelled.done).rejects.toEqual(UPLOAD_CANCELLED);
  });
});
