import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './http.ts';

const run = promisify(execFile);

/** A throwaway PostgreSQL server of the test's own, so a test may stop it without touching anyone else's. */
export interface OwnCluster {
  url: string;
  port: number;
  dataDir: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m <mode>`: `fast` terminates every session (57P01) and waits for the server to exit. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server if it runs and removes its files. */
  destroy(): Promise<void>;
}

/**
 * Whether a test file that starts clusters of its own runs here: wherever DATABASE_URL is set, as CI
 * does; elsewhere it says why it is skipped. `starts`: what it starts, for that line.
 */
export function ownClustersRun(file: string, starts: string): boolean {
  if (process.env.DATABASE_URL) return true;
  console.warn(
    `${file}: skipped, DATABASE_URL is unset (it starts ${starts} with the Debian binaries and ` +
      'runs wherever DATABASE_URL is set, as CI does)',
  );
  return false;
}

/** The newest Debian PostgreSQL install's bin directory, or null when none has initdb and pg_ctl. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** The `postgres` account's ids: initdb and the server refuse to run as root. */
export function postgresAccount(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres account to run initdb as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** initdb and pg_ctl refuse to run as root: as root, run them as the `postgres` account. */
const runAs = () => (process.getuid?.() === 0 ? postgresAccount() : null);

/** initdb's options after `-D <dir>`: a superuser `postgres` trusted locally, UTF-8, no fsync. */
export const INITDB_OPTIONS = [
  '-U',
  'postgres',
  '-A',
  'trust',
  '-E',
  'UTF8',
  '--locale=C.UTF-8',
  '--no-sync',
  '--no-instructions',
];

/**
 * initdb into a temporary directory and start it on a free loopback port (trust auth, no fsync).
 * `replicaOf`: instead a streaming replica of that cluster (`pg_basebackup -R`, read-only).
 */
export async function startOwnCluster(replicaOf?: OwnCluster): Promise<OwnCluster> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error('no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin');
  const user = runAs();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-pgfault-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const dataDir = path.join(dir, 'data');
  // A clean environment: PG* variables from the caller must not redirect these tools.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  const exec = (tool: string, args: string[]) =>
    run(path.join(bin, tool), args, { env, cwd: dir, ...(user ?? {}) });

  if (replicaOf) {
    // A copy of the primary that streams its WAL from then on (-R writes standby.signal and the
    // connection); a fast checkpoint starts it in under a second rather than at the next one.
    await exec('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(replicaOf.port),
      '-U',
      'postgres',
      '-D',
      dataDir,
      '-R',
      '--checkpoint=fast',
      '--no-sync',
    ]);
  } else {
    await exec('initdb', ['-D', dataDir, ...INITDB_OPTIONS]);
  }

  let port = 0;
  const start = async () => {
    // pg_ctl hands -o to a shell; the paths are ours (mkdtemp) and hold no spaces or quotes.
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=60',
      '-c shared_buffers=32MB',
    ].join(' ');
    await exec('pg_ctl', [
      'start',
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      '30',
      '-o',
      options,
    ]);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '30']);
  };

  // A free port can be taken between the probe and the bind: a few attempts, then fail loudly.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    start,
    stop,
    async destroy() {
      if (existsSync(path.join(dataDir, 'postmaster.pid')))
        await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
