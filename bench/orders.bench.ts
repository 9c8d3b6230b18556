/**
 * Checkout and payment-event throughput, this tree against an earlier commit (`BENCH_ORDERS_BASE`,
 * by default the last commit before issue 15's events and boundaries) in one run. Each tree runs in
 * its own process on its own fresh database; the rounds alternate so background load lands on both.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const base = process.env.BENCH_ORDERS_BASE ?? '8e0846c';
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

interface Figures {
  checkoutRate: number;
  paymentRate: number;
  backend: string;
}

/** The base commit checked out beside this one, sharing installed packages by hard links. */
function baseTree(): string {
  const dir = path.join(os.tmpdir(), `tradeshelf-bench-${base}`);
  if (!existsSync(dir)) {
    execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', dir, base], {
      stdio: 'ignore',
    });
    // Relative workspace links inside node_modules then point at the base tree's own packages.
    execFileSync('cp', ['-al', path.join(repo, 'node_modules'), path.join(dir, 'node_modules')]);
  }
  return dir;
}

function measureTree(root: string): Figures {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'orders-driver.ts'), root],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as Figures;
}

export async function run(): Promise<void> {
  const before = baseTree();
  const runs: { before: Figures[]; after: Figures[] } = { before: [], after: [] };
  for (let i = 0; i < rounds; i++) {
    runs.before.push(measureTree(before));
    runs.after.push(measureTree(repo));
  }
  const mean = (xs: Figures[], k: 'checkoutRate' | 'paymentRate') =>
    xs.reduce((n, x) => n + x[k], 0) / xs.length;
  console.log(
    `\norders throughput (${runs.after[0]!.backend}, ${os.cpus().length} cores, Node ${process.version}; ${rounds} alternating rounds, 8 in flight)`,
  );
  for (const k of ['checkoutRate', 'paymentRate'] as const) {
    const b = mean(runs.before, k);
    const a = mean(runs.after, k);
    const label = k === 'checkoutRate' ? 'checkouts/s' : 'payments applied/s';
    console.log(
      `  ${label.padEnd(20)} before (${base}) ${b.toFixed(1).padStart(7)}  now ${a.toFixed(1).padStart(7)}  ratio ${(a / b).toFixed(2)}`,
    );
  }
}
