/** `npm run bench [name]`: runs every bench/*.bench.ts (or the named one) and prints figures with ratios. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.NODE_ENV ??= 'production';
const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') || f.endsWith('.bench.tsx'))
  .filter((f) => !only || f.startsWith(only));
for (const file of files) {
  const mod = (await import(path.join(dir, file))) as { run(): Promise<void> };
  await mod.run();
}
