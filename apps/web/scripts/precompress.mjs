/**
 * Build step (ADR 025): writes `file.br` (brotli 11) and `file.gz` (gzip 9) beside every text file of
 * the client build over 1 KB, so the server sends assets at the best ratio without compressing per
 * request. Runs after `react-router build`, which writes the route manifest after the bundle.
 * A copy is kept only where it is smaller than the file.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const clientDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  process.env.WEB_BUILD_DIR ?? 'build',
  'client',
);
/** Text the browser downloads; fonts and images are compressed formats already. */
const text = /\.(js|mjs|css|json|svg|txt|xml|html|webmanifest)$/;

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );

let files = 0;
let before = 0;
let after = 0;
for (const file of walk(clientDir)) {
  if (!text.test(file) || statSync(file).size < 1024) continue;
  const body = readFileSync(file);
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: 9 });
  if (br.length < body.length) writeFileSync(`${file}.br`, br);
  if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
  files++;
  before += body.length;
  after += br.length;
}
process.stdout.write(
  `precompressed ${files} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli\n`,
);
