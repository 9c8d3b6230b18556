// The object store stand-in's entrypoint: MinIO's `server DIR --address [HOST]:PORT` as compose.yaml gives
// it, served by s3rver, with MinIO's root credentials (MINIO_ROOT_USER, MINIO_ROOT_PASSWORD) as its
// one access key. s3rver checks the key id; it does not check V4 signatures, bucket policies or
// anonymous access (docs/operations.md "Containers").
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';

const [command, directory, ...rest] = process.argv.slice(2);
if (command !== 'server' || !directory) {
  console.error('usage: server DIR [--address [HOST]:PORT]');
  process.exit(2);
}
const flag = rest.indexOf('--address');
const [host, port] = (flag >= 0 ? rest[flag + 1] : ':9000').split(':');
const user = process.env.MINIO_ROOT_USER;
const password = process.env.MINIO_ROOT_PASSWORD;
if (!user || !password) {
  console.error('MINIO_ROOT_USER and MINIO_ROOT_PASSWORD are required');
  process.exit(2);
}
AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
AWSAccount.DUMMY_ACCOUNT.createKeyPair(user, password);

// Path-style only, as the app asks (forcePathStyle): else s3rver takes the host name `objects` for a bucket.
const server = new S3rver({
  directory,
  address: host || '0.0.0.0',
  port: Number(port),
  silent: true,
  vhostBuckets: false,
});
const { address, port: bound } = await server.run();
console.error(`s3rver on ${address}:${bound}, data in ${directory}`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.close().then(() => process.exit(0)));
}
