/**
 * Issue 26 (ADR 048): the server's memory while 12 lesson videos of 190 MB arrive at once. The app
 * runs as its own process (`uploads-server.ts`) on a loopback port; this process sends the uploads
 * (each body generated as it goes, never held) and samples the server's RSS from /proc every 50 ms.
 * The figure is the peak RSS growth over the same server's idle RSS, measured just before (the
 * baseline). Two servers: one with a slot for each of the 12 uploads, so all 12 stream at once; one
 * with the default slots, showing what is accepted (12 vendors: 503 past the process's slots; one
 * vendor: 429 past the account's) and that memory stays bounded there too.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleRss, rssMb, startServerProcess, stopServerProcess } from './server-process.ts';

const FILE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 190);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 12);
const TARGET_MB = 256;
const MB = 1024 * 1024;
const dir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(dir, '..');
const mp4 = readFileSync(
  path.join(root, 'apps/api/src/modules/courses/demo-media/momentum-intro.mp4'),
);

interface Server {
  child: ChildProcess;
  url: string;
  pid: number;
  vendors: Array<{ token: string; productId: string; lessonIds: string[] }>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  return startServerProcess<Omit<Server, 'child'>>('uploads-server.ts', 'upload', {
    // Uploads have their own deadlines (UPLOAD_TIMEOUT_SECONDS, an hour): the defaults serve.
    env: { BENCH_UPLOAD_VENDORS: String(UPLOADS), ...env },
  });
}

/** Samples RSS every 50 ms until stopped; answers the peak. */
function sampleRss(pid: number) {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}

/** One upload of a `size`-byte video, the body written as it goes; answers status and Retry-After. */
function upload(
  s: Server,
  who: { token: string; productId: string },
  lessonId: string,
  size: number,
): Promise<{ status: number; retryAfter: string | undefined }> {
  const boundary = 'bench' + Math.random().toString(16).slice(2);
  const open = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lesson.mp4"\r\n` +
      'Content-Type: video/mp4\r\n\r\n',
  );
  const close = Buffer.from(`\r\n--${boundary}--\r\n`);
  const first = Buffer.concat([mp4, Buffer.alloc(MB - mp4.length, 7)]);
  const filler = Buffer.alloc(MB, 7);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      `${s.url}/api/v1/vendor/courses/${who.productId}/lessons/${lessonId}/video`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${who.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': open.length + size + close.length,
        },
      },
      (res) => {
        answered = true;
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] }),
        );
        res.on('error', reject);
      },
    );
    // An answer before the body's end (429/503) closes the connection: what is unsent stays so. A
    // connection cut with no answer counts as status 0.
    req.on('error', () => {
      if (answered) return;
      answered = true;
      resolve({ status: 0, retryAfter: undefined });
    });
    const write = async () => {
      req.write(open);
      for (let sent = 0; sent < size && !answered;) {
        const piece = (sent === 0 ? first : filler).subarray(0, Math.min(MB, size - sent));
        sent += piece.length;
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      }
      if (!answered) req.end(close);
    };
    write().catch(reject);
  });
}

interface Outcome {
  title: string;
  idle: number;
  peak: number;
  statuses: Map<string, number>;
  seconds: number;
}

async function phase(
  s: Server,
  title: string,
  sends: Array<{ who: Server['vendors'][number]; lessonId: string }>,
): Promise<Outcome> {
  const idle = await idleRss(s.pid);
  const sampler = sampleRss(s.pid);
  const started = Date.now();
  const answers = await Promise.all(sends.map((x) => upload(s, x.who, x.lessonId, FILE_MB * MB)));
  const seconds = (Date.now() - started) / 1000;
  const peak = sampler.stop();
  const statuses = new Map<string, number>();
  for (const a of answers) {
    const key = a.retryAfter ? `${a.status} (Retry-After ${a.retryAfter})` : String(a.status);
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  return { title, idle, peak, statuses, seconds };
}

function print(o: Outcome) {
  const answers = [...o.statuses].map(([k, n]) => `${n} × ${k}`).join(', ');
  console.log(`  ${o.title}`);
  console.log(
    `    RSS idle ${o.idle.toFixed(0)} MB (baseline), peak ${o.peak.toFixed(0)} MB: growth +${(o.peak - o.idle).toFixed(0)} MB (target ≤ ${TARGET_MB} MB), ratio peak/idle ${(o.peak / o.idle).toFixed(2)}; ${o.seconds.toFixed(1)} s`,
  );
  console.log(`    answers: ${answers}`);
}

export async function run(): Promise<void> {
  console.log(
    `\nuploads: ${UPLOADS} × ${FILE_MB} MB lesson videos at once (${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version})`,
  );
  const warm = async (s: Server) => {
    // Loads the upload path's code before the idle reading.
    const v = s.vendors[UPLOADS - 1]!;
    const { status } = await upload(s, v, v.lessonIds[0]!, MB);
    if (status !== 200) throw new Error(`warm-up upload: ${status}`);
  };

  const all = await startServer({ UPLOADS_PER_PROCESS: String(UPLOADS) });
  try {
    await warm(all);
    print(
      await phase(
        all,
        `${UPLOADS} vendors, a slot for each (UPLOADS_PER_PROCESS=${UPLOADS})`,
        all.vendors.map((who) => ({ who, lessonId: who.lessonIds[0]! })),
      ),
    );
  } finally {
    await stopServerProcess(all.child);
  }

  const capped = await startServer({});
  try {
    await warm(capped);
    print(
      await phase(
        capped,
        `${UPLOADS} vendors, default slots (8 per process)`,
        capped.vendors.map((who) => ({ who, lessonId: who.lessonIds[0]! })),
      ),
    );
    const one = capped.vendors[0]!;
    print(
      await phase(
        capped,
        `one vendor, ${UPLOADS} at once, default slots (3 per account)`,
        one.lessonIds.slice(0, UPLOADS).map((lessonId) => ({ who: one, lessonId })),
      ),
    );
  } finally {
    await stopServerProcess(capped.child);
  }
}
