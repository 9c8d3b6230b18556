// Dev probe: times each benchmark search query alone against DATABASE_URL (not part of `npm run bench`).
import { startBenchApp } from './lib.ts';
const { searchQueries } = await import('./catalog.bench.ts');
const b = await startBenchApp();
const times: Array<[number, string]> = [];
for (const q of searchQueries()) await fetch(b.url + q);
for (const q of searchQueries()) {
  const t0 = performance.now();
  await fetch(b.url + q);
  times.push([performance.now() - t0, q]);
}
times.sort((a, b) => b[0] - a[0]);
for (const [t, q] of times.slice(0, 15)) console.log(t.toFixed(1), decodeURIComponent(q));
console.log('median', times[Math.floor(times.length / 2)]![0].toFixed(1));
await b.close();
