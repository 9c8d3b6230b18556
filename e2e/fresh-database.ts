// With E2E_DATABASE_URL (a PostgreSQL server; CI sets it) the e2e server runs on a database of
// its own on that server, emptied before each run, so one run never sees another's rows.
import pg from 'pg';

const server = process.env.E2E_DATABASE_URL;
const name = process.argv[2];
if (!server || !name || !/^[a-z0-9_]+$/.test(name)) throw new Error('usage: fresh-database <name>');
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
