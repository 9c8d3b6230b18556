import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { accepting, freePort } from './http.ts';

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

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

const running = new Set<ChildProcess>();

/** Kills every server this process started: for `afterAll`, so a test that timed out leaves none. */
export function killOwnRedisServers(): void {
  for (const c of running) {
    c.kill('SIGCONT');
    c.kill('SIGKILL');
  }
}
process.once('exit', killOwnRedisServers);

export async function startOwnRedis(): Promise<OwnRedis> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(`no ${REDIS_SERVER} (Debian's redis-server; set REDIS_SERVER elsewhere)`);
  const p = await freePort();
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
    await accepting(p, 'redis-server');
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
