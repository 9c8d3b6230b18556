/**
 * The container image's entry (Containerfile): `npm start`'s path without its build step and without
 * the embedded database, which serves one process only. Migrates, then serves.
 */
if (!process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL is required: this image runs against PostgreSQL (the embedded database is for `npm start` on one machine).',
  );
  process.exit(1);
}
await import('./main.ts');

export {};
