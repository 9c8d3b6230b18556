/**
 * Issue 33's export (ADR 060): the server's memory while it answers `POST /api/v1/account/export`
 * for an account with `BENCH_EXPORT_ROWS` (50 000) orders, library entries and ledger lines. The
 * app runs as its own process (`export-server.ts`); this process reads the answer as it comes,
 * writing it to a temporary file (never holding it), and samples the server's RSS from /proc every
 * 20 ms. The figure is the peak RSS growth over the same server's idle RSS just before; the
 * baseline, in alternating rounds, is the same for an account of 20 rows of each. After each
 * answer the file is parsed and its lists counted: the export must be whole and valid JSON.
 *
 * RSS also counts garbage V8 has not collected yet (it grows the heap rather than collect often),
 * so a second server runs with its heap capped (`BENCH_EXPORT_HEAP_MB`, 192 MB of old space, about
 * twice what the idle app holds): an export that holds the account in memory dies there; one
 * that streams answers whole, its garbage collected as it goes.
 */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { idleRss, rssMb, startServerProcess, stopServerProcess } from './server-process.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 50_000);
/** The export allows 5 an hour per account: a warm-up and at most 4 rounds. */
const ROUNDS = Math.min(4, Number(process.env.BENCH_ROUNDS ?? 3));
const TARGET_MB = 64;
const HEAP_MB = Number(process.env.BENCH_EXPORT_HEAP_MB ?? 192);

interface Account {
  email: string;
  rows: number;
}
interface Server {
  child: ChildProcess;
  url: string;
  pid: number;
  password: string;
  large: Account;
  small: Account;
  backend: string;
}

async function startServer(heapMb?: number): Promise<Server> {
  return startServerProcess<Omit<Server, 'child'>>('export-server.ts', 'export', {
    nodeArgs: heapMb ? [`--max-old-space-size=${heapMb}`] : [],
    env: { BENCH_EXPORT_ROWS: String(ROWS) },
  });
}

async function post(s: Server, path: string, body: unknown, token?: string) {
  const res = await fetch(s.url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { token: string };
}

/** The export streamed to `file`; answers its status, bytes and seconds. */
function exportTo(s: Server, token: string, file: string) {
  return new Promise<{ status: number; bytes: number; seconds: number }>((resolve, reject) => {
    const started = performance.now();
    const req = http.request(`${s.url}/api/v1/account/export`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'accept-encoding': 'identity',
      },
    });
    req.on('response', (res) => {
      const out = createWriteStream(file);
      res.pipe(out);
      out.on('finish', () =>
        resolve({
          status: res.statusCode!,
          bytes: statSync(file).size,
          seconds: (performance.now() - started) / 1000,
        }),
      );
      res.on('error', reject);
      // A server that dies mid-answer (out of memory) cuts it short.
      res.on('aborted', () => reject(new Error('the answer was cut short')));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ password: s.password }));
  });
}

interface Sample {
  growth: number;
  idle: number;
  bytes: number;
  seconds: number;
}

async function measureOne(s: Server, token: string, account: Account, file: string) {
  const idle = await idleRss(s.pid);
  let peak = idle;
  const timer = setInterval(() => {
    if (s.child.exitCode === null) peak = Math.max(peak, rssMb(s.pid));
  }, 20);
  let answer;
  try {
    answer = await exportTo(s, token, file);
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, rssMb(s.pid));
  if (answer.status !== 200)
    throw new Error(`export: ${answer.status} ${readFileSync(file, 'utf8')}`);
  // Whole and valid: parsed here, after the measurement, and counted.
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown[]>;
  for (const list of ['orders', 'library', 'ledger'])
    if (data[list]?.length !== account.rows)
      throw new Error(`export of ${account.rows} rows: ${list} has ${data[list]?.length}`);
  return { growth: peak - idle, idle, bytes: answer.bytes, seconds: answer.seconds };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function run(): Promise<void> {
  console.log(
    `\nexport: POST /api/v1/account/export, ${ROWS} orders + library entries + ledger lines (${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version})`,
  );
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-bench-export-'));
  try {
    const s = await startServer();
    try {
      const large = await post(s, '/auth/login', { email: s.large.email, password: s.password });
      const small = await post(s, '/auth/login', { email: s.small.email, password: s.password });
      // Loads the export's code before any idle reading.
      await measureOne(s, small.token, s.small, path.join(tmp, 'warm.json'));
      const runs: { small: Sample[]; large: Sample[] } = { small: [], large: [] };
      for (let i = 0; i < ROUNDS; i++) {
        runs.small.push(await measureOne(s, small.token, s.small, path.join(tmp, 'small.json')));
        runs.large.push(await measureOne(s, large.token, s.large, path.join(tmp, 'large.json')));
      }
      const l = runs.large;
      const b = runs.small;
      console.log(`  ${s.backend}, ${ROUNDS} alternating rounds`);
      console.log(
        `    baseline, 20 rows each: RSS growth ${b.map((x) => `+${x.growth.toFixed(0)}`).join(' / ')} MB, ${(mean(b.map((x) => x.bytes)) / 1024).toFixed(0)} KB in ${(mean(b.map((x) => x.seconds)) * 1000).toFixed(0)} ms`,
      );
      console.log(
        `    ${ROWS} rows each: RSS growth ${l.map((x) => `+${x.growth.toFixed(0)}`).join(' / ')} MB (idle ${l[0]!.idle.toFixed(0)} MB; target ≤ ${TARGET_MB} MB), ${(mean(l.map((x) => x.bytes)) / 1024 / 1024).toFixed(1)} MB of JSON in ${mean(l.map((x) => x.seconds)).toFixed(2)} s; first-round growth / baseline's ${(l[0]!.growth / Math.max(1, b[0]!.growth)).toFixed(1)}x`,
      );
    } finally {
      await stopServerProcess(s.child);
    }

    const capped = await startServer(HEAP_MB);
    try {
      const large = await post(capped, '/auth/login', {
        email: capped.large.email,
        password: capped.password,
      });
      const samples: Sample[] = [];
      let failure: string | null = null;
      for (let i = 0; i < 2 && !failure; i++) {
        try {
          samples.push(
            await measureOne(capped, large.token, capped.large, path.join(tmp, 'capped.json')),
          );
        } catch (err) {
          // A server that ran out of memory is gone, or going: give it a moment to be seen so.
          await Promise.race([
            new Promise((r) => capped.child.once('exit', r)),
            new Promise((r) => setTimeout(r, 3000)),
          ]);
          failure =
            capped.child.exitCode !== null || capped.child.signalCode !== null
              ? 'the server died (JavaScript heap out of memory)'
              : String(err);
        }
      }
      console.log(
        `    heap capped at ${HEAP_MB} MB of old space, ${ROWS} rows each: ${failure ?? 'answered whole'}${samples.length ? `; RSS growth ${samples.map((x) => `+${x.growth.toFixed(0)}`).join(' / ')} MB (idle ${samples[0]!.idle.toFixed(0)} MB), ${mean(samples.map((x) => x.seconds)).toFixed(2)} s` : ''}`,
      );
    } finally {
      await stopServerProcess(capped.child);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
