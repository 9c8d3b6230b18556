import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

/**
 * A Redis server of the caller's own on a free loopback port (no persistence), so a test or bench
 * may kill or freeze it without touching the shared one on 6379.
 */
export interface OwnRedis {
  url: string;
  port: number;
  /** Starts it again on the same port (after `kill`) and waits until it accepts connections. */
  start(): Promise<void>;
  /** SIGKILL: the port refuses connections at once. */
  kill(): Promise<void>;
  /** SIGSTOP: the kernel still accepts connections, nothing ever answers (a black hole). */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  stop(): Promise<void>;
}

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts a TCP connection on the port. */
async function accepting(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const running = new Set<ChildProcess>();

/** Kills every server this process started: for `afterAll`, so a test that timed out leaves none. */
export function killOwnRedisServers(): void {
  for (const c of running) {
    c.kill('SIGCONT');
    c.kill('SIGKILL');
  }
}
process.once('exit', killOwnRedisServers);

export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(`no ${REDIS_SERVER} (Debian's redis-server; set REDIS_SERVER elsewhere)`);
  const p = port ?? (await freePort());
  let child: ChildProcess | null = null;
  let frozen = false;

  const start = async () => {
    if (child) return;
    const c = spawn(
      REDIS_SERVER,
      ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = c;
    running.add(c);
    c.once('exit', () => {
      running.delete(c);
      if (child === c) child = null;
    });
    await accepting(p);
  };
  const kill = async () => {
    const c = child;
    if (!c) return;
    if (frozen) c.kill('SIGCONT');
    frozen = false;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    start,
    kill,
    freeze() {
      frozen = true;
      child?.kill('SIGSTOP');
    },
    thaw() {
      frozen = false;
      child?.kill('SIGCONT');
    },
    stop: kill,
  };
}
