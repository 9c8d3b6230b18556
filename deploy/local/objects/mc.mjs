// The object store stand-in's `mc`: the three MinIO client commands compose.yaml's objects-bucket runs,
// over the S3 API with the AWS SDK the app uses.
//   mc alias set NAME URL USER PASSWORD       fails while the store does not answer
//   mc mb -p NAME/BUCKET                      an existing bucket is not an error
//   mc anonymous set download NAME/BUCKET/PREFIX
// A store without bucket policies (s3rver) answers NotImplemented to the last: then every object is
// already readable anonymously; it says so, checks that a new object under PREFIX is, and succeeds.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  ListBucketsCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const file = join(homedir(), '.mc', 'aliases.json');
const aliases = () => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};
const client = ({ url, user, password }) =>
  new S3Client({
    region: 'us-east-1',
    endpoint: url,
    forcePathStyle: true,
    credentials: { accessKeyId: user, secretAccessKey: password },
  });
/** NAME/BUCKET[/PREFIX] → the alias, the bucket and the prefix. */
const target = (path) => {
  const [name, bucket, ...prefix] = path.split('/');
  const alias = aliases()[name];
  if (!alias || !bucket) throw new Error(`mc: unknown alias or no bucket in ${path}`);
  return { alias, bucket, prefix: prefix.join('/') };
};

const args = process.argv.slice(2);
const [command, sub] = args;
try {
  if (command === 'alias' && sub === 'set') {
    const [, , name, url, user, password] = args;
    const alias = { url, user, password };
    await client(alias).send(new ListBucketsCommand({}));
    mkdirSync(join(homedir(), '.mc'), { recursive: true });
    writeFileSync(file, JSON.stringify({ ...aliases(), [name]: alias }), { mode: 0o600 });
    console.error(`mc: alias ${name} → ${url}`);
  } else if (command === 'mb') {
    const { alias, bucket } = target(args.filter((a) => !a.startsWith('-'))[1]);
    await client(alias)
      .send(new CreateBucketCommand({ Bucket: bucket }))
      .catch((err) => {
        // -p: a bucket that is there already is not an error.
        if (err.name !== 'BucketAlreadyOwnedByYou' && err.name !== 'BucketAlreadyExists') throw err;
      });
    console.error(`mc: bucket ${bucket}`);
  } else if (command === 'anonymous' && sub === 'set' && args[2] === 'download') {
    const { alias, bucket, prefix } = target(args[3]);
    const resource = `arn:aws:s3:::${bucket}/${prefix ? `${prefix}/` : ''}*`;
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: ['*'] },
          Action: ['s3:GetObject'],
          Resource: [resource],
        },
      ],
    };
    const s3 = client(alias);
    const set = await s3
      .send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: JSON.stringify(policy) }))
      .then(
        () => true,
        (err) => {
          if (err.name !== 'NotImplemented') throw err;
          return false;
        },
      );
    if (!set) {
      console.error(
        `mc: the store has no bucket policies: every object in ${bucket} is readable anonymously`,
      );
    }
    const probe = `${prefix ? `${prefix}/` : ''}.mc-anonymous-probe`;
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: probe, Body: 'ok', ContentType: 'text/plain' }),
    );
    const res = await fetch(`${alias.url.replace(/\/$/, '')}/${bucket}/${probe}`);
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }));
    if (res.status !== 200) throw new Error(`anonymous GET of ${probe} answered ${res.status}`);
    console.error(`mc: ${resource} readable anonymously`);
  } else {
    throw new Error(`mc stand-in: unsupported command: ${args.join(' ')}`);
  }
} catch (err) {
  console.error(`mc: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
