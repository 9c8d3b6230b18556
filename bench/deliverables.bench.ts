/**
 * Issue 29 (ADR 053): deliverables of 200 MB, streamed both ways. The app runs as its own process
 * (`deliverables-server.ts`) on a loopback port; this process sends a vendor's uploads through the
 * upload route and takes a buyer's downloads through the signed download link, sampling the server's
 * RSS from /proc every 50 ms. Memory: the peak RSS growth over the same server's idle RSS measured
 * just before (the baseline). Throughput: the same stored file through the download link and from a
 * bare static file server (`node:http` + `fs.createReadStream`, same process, same disk) in
 * alternating rounds, side by side with the ratio; for a plain file (.ex5) and a ZIP (the traced
 * download adds the buyer's LICENSE-<id>.txt to it).
 */
import type { ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { deliverablesRoutes as r } from '@tradeshelf/contract';
import { makeZip } from '../apps/api/test/zip.ts';
import { idleRss, rssMb, startServerProcess, stopServerProcess } from './server-process.ts';

const MB = 1024 * 1024;
const FILE_MB = Number(process.env.BENCH_DELIVERABLE_MB ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/** Flat: tens of MB, not the file's size. */
const TARGET_GROWTH_MB = 64;
const TARGET_RATIO = 0.8;

interface Server {
  child: ChildProcess;
  url: string;
  staticUrl: string;
  pid: number;
  vendorToken: string;
  buyerToken: string;
  productId: string;
}

async function startServer(): Promise<Server> {
  return startServerProcess<Omit<Server, 'child'>>('deliverables-server.ts', 'deliverables');
}

/** The process's CPU time (user + system) in seconds, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  // Fields after the parenthesised command name: state is the 1st, utime the 12th, stime the 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs `work` while sampling the server's RSS every 50 ms: idle before, peak during, seconds. */
async function sampled<T>(pid: number, work: () => Promise<T>) {
  const idle = await idleRss(pid);
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  try {
    const result = await work();
    return {
      result,
      idle,
      peak: Math.max(peak, rssMb(pid)),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    clearInterval(timer);
  }
}

// ---- The files: written to disk once, then streamed from there (never held) --------------------

/** 1 MiB of bytes that do not compress (an LCG), with zeros in its head as an .ex5 has. */
function block(): Buffer {
  const b = Buffer.alloc(MB);
  let s = 0x2545f491;
  for (let i = 0; i < MB; i += 4) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    b.writeUInt32LE(s, i);
  }
  b.fill(0, 4, 16);
  return b;
}

/** `bench.ex5` of `FILE_MB` MiB and `bench.zip` holding one stored entry of the same bytes. */
async function writeFiles(tmp: string) {
  const data = block();
  const plain = path.join(tmp, 'bench.ex5');
  const f = await open(plain, 'w');
  for (let i = 0; i < FILE_MB; i++) await f.write(data);
  await f.close();

  // A ZIP as a vendor's export would be: one stored entry of nearly the whole size.
  const archive = path.join(tmp, 'bench.zip');
  const entry = Buffer.concat(Array.from({ length: FILE_MB - 1 }, () => data));
  await writeFile(archive, makeZip([{ name: 'MQL5/Experts/Bench.ex5', data: entry }]));
  return { plain, archive };
}

// ---- HTTP -------------------------------------------------------------------------------------

/** Uploads a file from disk through the vendor upload route, the multipart body streamed. */
function upload(
  s: Server,
  file: string,
  query: { platform: string; version: string },
): Promise<{ status: number; body: string }> {
  const boundary = 'bench' + Math.random().toString(16).slice(2);
  const open = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const close = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = `${s.url}${r.uploadDeliverable.path.replace('{productId}', s.productId)}?platform=${query.platform}&version=${query.version}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${s.vendorToken}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': open.length + statSync(file).size + close.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(open);
    const body = createReadStream(file, { highWaterMark: MB });
    body.on('error', reject);
    body.on('end', () => req.end(close));
    body.pipe(req, { end: false });
  });
}

async function call(s: Server, method: string, route: string, token: string, body?: unknown) {
  const res = await fetch(`${s.url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Uploads and publishes one version; answers its id. */
async function release(s: Server, file: string, platform: string, version: string) {
  const up = await sampled(s.pid, () => upload(s, file, { platform, version }));
  if (up.result.status !== 201) throw new Error(`upload: ${up.result.status} ${up.result.body}`);
  const versionId = (JSON.parse(up.result.body) as { versionId: string }).versionId;
  await call(
    s,
    'POST',
    r.publishDeliverable.path.replace('{productId}', s.productId).replace('{versionId}', versionId),
    s.vendorToken,
    { notes: 'Bench release.' },
  );
  return { versionId, ...up };
}

/** GETs a URL to its end, counting bytes; answers bytes and seconds. */
function drain(url: string): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`GET ${url}: ${res.statusCode}`));
        }
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ bytes, seconds: (performance.now() - started) / 1000 }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The buyer's way: ask for a signed link, then follow it. Timed from the ask. */
async function download(s: Server, versionId: string) {
  const started = performance.now();
  const link = (await call(
    s,
    'POST',
    r.downloadLink.path.replace('{productId}', s.productId).replace('{versionId}', versionId),
    s.buyerToken,
  )) as { url: string };
  const got = await drain(new URL(link.url, s.url).toString());
  return { bytes: got.bytes, seconds: (performance.now() - started) / 1000 };
}

const mbps = (bytes: number, seconds: number) => bytes / MB / seconds;

export async function run(): Promise<void> {
  console.log(
    `\ndeliverables: ${FILE_MB} MB up and down, ${ROUNDS} alternating rounds (${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, load ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version})`,
  );
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-bench-files-'));
  const s = await startServer();
  try {
    const files = await writeFiles(tmp);
    // Loads the upload and download paths' code before any idle reading.
    const warm = path.join(tmp, 'warm.ex5');
    const w = await open(warm, 'w');
    await w.write(block());
    await w.close();
    const warmed = await release(s, warm, 'mt5', '0.9');
    await download(s, warmed.versionId);

    console.log('  memory (server RSS; baseline: the same server idle just before)');
    const growth = (o: { idle: number; peak: number; seconds: number }, bytes: number) =>
      `RSS idle ${o.idle.toFixed(0)} MB, peak ${o.peak.toFixed(0)} MB: growth +${(o.peak - o.idle).toFixed(0)} MB (target ≤ ${TARGET_GROWTH_MB} MB), ratio peak/idle ${(o.peak / o.idle).toFixed(2)}; ${o.seconds.toFixed(1)} s, ${mbps(bytes, o.seconds).toFixed(0)} MB/s`;
    const plainSize = statSync(files.plain).size;
    const zipSize = statSync(files.archive).size;
    const firstIdle = await idleRss(s.pid);
    let peak = firstIdle;
    const plain = await release(s, files.plain, 'mt5', '1.0');
    console.log(`    upload   ${FILE_MB} MB .ex5 ${growth(plain, plainSize)}`);
    peak = Math.max(peak, plain.peak);
    const archive = await release(s, files.archive, 'ninjatrader', '1.0');
    console.log(`    upload   ${FILE_MB} MB .zip ${growth(archive, zipSize)}`);
    peak = Math.max(peak, archive.peak);
    for (const [label, v, size] of [
      ['.ex5', plain.versionId, plainSize],
      ['.zip', archive.versionId, zipSize],
    ] as const) {
      const got = await sampled(s.pid, () => download(s, v));
      // A plain file comes back as stored; a ZIP longer by the buyer's LICENSE-<id>.txt entry.
      const traced = label === '.zip';
      if (traced ? got.result.bytes <= size : got.result.bytes !== size)
        throw new Error(`download ${label}: ${got.result.bytes} bytes of ${size}`);
      console.log(`    download ${FILE_MB} MB ${label} ${growth(got, got.result.bytes)}`);
      peak = Math.max(peak, got.peak);
    }
    console.log(
      `    all four: peak ${peak.toFixed(0)} MB over the idle ${firstIdle.toFixed(0)} MB before the first: +${(peak - firstIdle).toFixed(0)} MB for ${((2 * (plainSize + zipSize)) / MB).toFixed(0)} MB moved`,
    );

    console.log(
      `  download throughput, MB/s (mean of ${ROUNDS} alternating rounds; baseline: a bare node:http + fs.createReadStream server on the same file)`,
    );
    for (const [label, v] of [
      ['.ex5', plain.versionId],
      ['.zip (traced: + LICENSE-<id>.txt)', archive.versionId],
    ] as const) {
      const bare: number[] = [];
      const ours: number[] = [];
      // The server's CPU per download: what the link costs beyond the bare server, whatever else
      // the machine runs (the throughput moves with the load of the shared cores).
      const bareCpu: number[] = [];
      const oursCpu: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        let cpu = cpuSeconds(s.pid);
        const a = await drain(`${s.staticUrl}/${encodeURIComponent(v)}`);
        bareCpu.push(cpuSeconds(s.pid) - cpu);
        bare.push(mbps(a.bytes, a.seconds));
        cpu = cpuSeconds(s.pid);
        const b = await download(s, v);
        oursCpu.push(cpuSeconds(s.pid) - cpu);
        ours.push(mbps(b.bytes, b.seconds));
      }
      const mean = (xs: number[]) => xs.reduce((n, x) => n + x, 0) / xs.length;
      const ratio = mean(ours) / mean(bare);
      console.log(
        `    ${label.padEnd(36)} bare ${mean(bare).toFixed(0).padStart(5)} MB/s (baseline)  download link ${mean(ours).toFixed(0).padStart(5)} MB/s  ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO})  rounds: bare ${bare.map((x) => x.toFixed(0)).join('/')}, link ${ours.map((x) => x.toFixed(0)).join('/')}`,
      );
      console.log(
        `    ${''.padEnd(36)} server CPU per download: bare ${(mean(bareCpu) * 1000).toFixed(0)} ms, link ${(mean(oursCpu) * 1000).toFixed(0)} ms: per CPU second the link moves ${(mean(bareCpu) / mean(oursCpu)).toFixed(2)}× the bare server's bytes`,
      );
    }
  } finally {
    await stopServerProcess(s.child);
    rmSync(tmp, { recursive: true, force: true });
  }
}
