import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a loopback receiver was sent. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = (req: Received) => { status: number; headers?: Record<string, string> };

/**
 * A webhook endpoint on loopback for the API tests and browser walks: records what it is sent
 * and answers as told (204 until told otherwise).
 */
export async function receiver() {
  const got: Received[] = [];
  let answer: Answer = () => ({ status: 204 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      got.push(r);
      const a = answer(r);
      res.writeHead(a.status, a.headers).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    answer: (fn: Answer) => void (answer = fn),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
export type Receiver = Awaited<ReturnType<typeof receiver>>;
