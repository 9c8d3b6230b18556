import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Real-HTTP helpers: stream hangs and socket-level errors do not show through `app.inject`. */

export interface RawResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** Listens on a free loopback port; returns it. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** A loopback port free now, for a server of the test's own (closed again before it is used). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Resolves once something accepts a TCP connection on the loopback port; `alive` throws to give up
 * early (the server's process exited), and after `timeoutMs` it throws `what`.
 */
export async function accepting(
  port: number,
  what: string,
  options: { timeoutMs?: number; alive?: () => void } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    options.alive?.();
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(socket.destroy() !== undefined));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Polls a real condition until it holds (`probe` answers other than `undefined` or `false`) and
 * answers what it found; after `timeoutMs` it throws, naming `what`, instead of waiting forever.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every wait in these tests is bounded: rejects with `what` if `promise` takes longer than `ms`. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** One raw HTTP/1.1 connection: write bytes when the test says, read whole responses in order. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private readonly parsed: RawResponse[] = [];
  private waiting: Array<{ resolve(r: RawResponse): void; reject(e: Error): void }> = [];
  private ended = false;
  /** Answers carry no body (the requests are HEAD), whatever their Content-Length says. */
  headOnly = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    // A reset after the server answered is fine: the answer is what the tests look at.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.parse();
        for (const w of this.waiting.splice(0))
          w.reject(new Error('connection closed without a (whole) response'));
        resolve();
      }),
    );
  }

  static connect(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** The next whole response on this connection. */
  response(): Promise<RawResponse> {
    const ready = this.parsed.shift();
    if (ready) return Promise.resolve(ready);
    if (this.ended) return Promise.reject(new Error('connection closed without a response'));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const [statusLine = '', ...lines] = this.buffer
        .subarray(0, headEnd)
        .toString('latin1')
        .split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = this.buffer.subarray(headEnd + 4);
      let body: Buffer;
      let used: number;
      if (this.headOnly) {
        body = Buffer.alloc(0);
        used = 0;
      } else if (headers['content-length'] !== undefined) {
        const length = Number(headers['content-length']);
        if (rest.length < length) return;
        body = rest.subarray(0, length);
        used = length;
      } else if (headers['transfer-encoding']?.includes('chunked')) {
        const chunks: Buffer[] = [];
        let at = 0;
        for (;;) {
          const lineEnd = rest.indexOf('\r\n', at);
          if (lineEnd < 0) return;
          const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
          if (rest.length < lineEnd + 2 + size + 2) return;
          chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
          if (size === 0) break;
        }
        body = Buffer.concat(chunks);
        used = at;
      } else {
        // No length: the body runs to the end of the connection.
        if (!this.ended) return;
        body = rest;
        used = rest.length;
      }
      this.buffer = this.buffer.subarray(headEnd + 4 + used);
      const response = {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: body.toString('utf8'),
      };
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(response);
      else this.parsed.push(response);
    }
  }
}

/** Sends one whole request on a fresh connection and reads its answer, within `ms`. */
export async function rawRequest(
  port: number,
  request: string | Buffer,
  ms = 10_000,
): Promise<RawResponse> {
  const conn = await RawConnection.connect(port);
  try {
    conn.write(request);
    return await within(ms, 'answer', conn.response());
  } finally {
    conn.destroy();
  }
}

/** A multipart/form-data body with one file part. */
export function multipartBody(
  parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>,
  boundary = 'tradeshelf' + Math.random().toString(16).slice(2),
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.name}"; filename="${p.filename}"`
      : `form-data; name="${p.name}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          (p.type ? `Content-Type: ${p.type}\r\n` : '') +
          '\r\n',
      ),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The head of an HTTP/1.1 request, ready for a body. */
export function requestHead(
  method: string,
  url: string,
  headers: Record<string, string | number> = {},
): string {
  const lines = [`${method} ${url} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return lines.join('\r\n') + '\r\n\r\n';
}
