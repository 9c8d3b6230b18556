// File uploads, one way (ADR 048): a slot per account and per process, the client's name checked, the
// type decided by the first bytes before anything is stored, the size counted while the bytes stream
// through to storage (or, for pictures, into one bounded buffer). Nothing holds a whole file that
// storage could take piece by piece.
import { createHash } from 'node:crypto';
import { uploadNameProblem } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from './errors.ts';
import type { FileReader, IncomingFile } from './multipart.ts';

/** How many bytes are looked at to decide a file's type before any is stored. */
const HEAD_BYTES = 4096;

/** Seconds to wait when this account's uploads are all under way (one may take minutes). */
const ACCOUNT_RETRY_AFTER = 30;
/** Seconds to wait when the process takes all the uploads it can. */
const PROCESS_RETRY_AFTER = 10;

/** What a kind of upload accepts, and what it says when it does not. */
export interface FileRules<T extends string> {
  maxBytes: number;
  tooLarge: string;
  missing: string;
  wrongType: string;
  /** The type from the file's first bytes (`whole`: they are all of it) and name; null refuses. */
  sniff(head: Buffer, name: string, whole: boolean): T | null;
  /** A check the rest of the file must pass too, e.g. text that stays text. */
  follow?(type: T): { push(chunk: Buffer): boolean; end(): boolean } | null;
  /** The client's name is kept (a download name): it must be a plain file name. */
  keepsName: boolean;
}

export interface ReceivedFile<T extends string> {
  type: T;
  /** The client's name, trimmed (checked when the rules keep it). */
  name: string;
  size: number;
  sha256: string;
}

interface Limit {
  bytes: number;
  message: string;
}

const refusal = (code: 'validation_failed' | 'unsupported_media_type' | 'payload_too_large') => {
  return (message: string) => new AppError(code, message, { file: message });
};
const invalid = refusal('validation_failed');
const wrongType = refusal('unsupported_media_type');
const tooLarge = refusal('payload_too_large');

/**
 * Reads one file through the checks into `sink`, which gets the bytes as an iterable that throws the
 * refusal when the file goes wrong (too large, not what its start said): a sink that stops there
 * keeps nothing. Nothing reaches the sink before the type is known.
 */
async function receive<T extends string>(
  file: IncomingFile,
  rules: FileRules<T>,
  limit: Limit,
  sink: (type: T, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<ReceivedFile<T>> {
  const name = file.filename.trim();
  if (rules.keepsName) {
    const problem = uploadNameProblem(file.filename);
    if (problem) throw invalid(problem);
  }
  const chunks = file.stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const start: Buffer[] = [];
  let startBytes = 0;
  let ended = false;
  while (startBytes < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    start.push(next.value);
    startBytes += next.value.length;
  }
  const head = Buffer.concat(start);
  if (head.length === 0) throw invalid(rules.missing);
  const type = rules.sniff(head, name, ended);
  if (!type) throw wrongType(rules.wrongType);
  const follow = rules.follow?.(type) ?? null;
  const hash = createHash('sha256');
  let size = 0;
  async function* body(): AsyncGenerator<Buffer> {
    let chunk: Buffer = head;
    for (;;) {
      size += chunk.length;
      if (size > limit.bytes) throw tooLarge(limit.message);
      if (follow && !follow.push(chunk)) throw wrongType(rules.wrongType);
      hash.update(chunk);
      yield chunk;
      if (ended) break;
      const next = await chunks.next();
      if (next.done) break;
      chunk = next.value;
    }
    if (follow && !follow.end()) throw wrongType(rules.wrongType);
  }
  await sink(type, body());
  return { type, name, size, sha256: hash.digest('hex') };
}

/** Where a kept file goes, decided by the caller's checks before a byte is read. */
export interface UploadPlan<T extends string> {
  /** Whose storage budget the file counts against. */
  vendorId: string;
  /** The storage key, the server's own, once the type is known. */
  key(type: T): string;
  /** Bytes of a file this one replaces (a lesson's old video): room it frees. */
  replaces?: number;
}

export interface StoredFile<T extends string> extends ReceivedFile<T> {
  key: string;
  /** Call in the write's transaction, after its row: refuses when the vendor's files now exceed the budget. */
  withinBudget(tx: Tx): Promise<void>;
}

/**
 * An upload that is kept as a file (lesson videos and attachments, app builds): a slot (429/503),
 * the caller's checks (`prepare`: rate limit, ownership), the file streamed to storage, then `commit`
 * writes its row. A refusal or failure at any step leaves no object and no row.
 */
export async function uploadFile<T extends string, R>(
  deps: AppDeps,
  userId: string,
  read: FileReader,
  rules: FileRules<T>,
  prepare: () => Promise<UploadPlan<T>>,
  commit: (file: StoredFile<T>) => Promise<R>,
): Promise<R> {
  const release = deps.uploads.enter(userId, read.from);
  try {
    const plan = await prepare();
    const limit = await deps.uploads.room(deps.database.db, plan, rules);
    let key: string | null = null;
    try {
      const received = await read((file) =>
        receive(file, rules, limit, async (type, body) => {
          const at = plan.key(type);
          await deps.storage.putStream(at, body, type);
          key = at;
        }),
      );
      if (!received || key === null) throw invalid(rules.missing);
      return await commit({
        ...received,
        key,
        withinBudget: (tx) => deps.uploads.withinBudget(tx, plan.vendorId),
      });
    } catch (err) {
      // Stored, then refused: the rest of the form was wrong, or the row could not be written.
      if (key !== null) await deps.storage.delete(key);
      throw err;
    }
  } finally {
    release();
  }
}

/**
 * A file read whole into memory, for the pipeline that needs all of it (pictures, a few MB). No
 * slot: pictures are small, and their hourly limits per purpose bound them.
 */
export async function readWhole<T extends string>(
  read: FileReader,
  rules: FileRules<T>,
): Promise<{ bytes: Buffer; type: T }> {
  const parts: Buffer[] = [];
  const received = await read((file) =>
    receive(file, rules, { bytes: rules.maxBytes, message: rules.tooLarge }, async (_, body) => {
      for await (const chunk of body) parts.push(chunk);
    }),
  );
  if (!received) throw invalid(rules.missing);
  return { bytes: Buffer.concat(parts), type: received.type };
}

export interface UploadLimits {
  perProcess: number;
  perAccount: number;
  perAddress: number;
  /** What one vendor's kept files may take altogether, in bytes. */
  budgetBytes: number;
  /** The bytes of the vendor's kept files (videos, attachments, builds) as `db` sees them. */
  storedBytes(db: Tx, vendorId: string): Promise<number>;
}

const MB = 1024 * 1024;

/**
 * Uploads under way in this process, per account and in all: a body being received holds a slot
 * until it is stored or refused. Counts are this process's (each process bounds its own memory and
 * disk); the storage budget is the database's and holds across processes.
 */
export class Uploads {
  private running = 0;
  private readonly byAccount = new Map<string, number>();
  /** Accounts cost nothing to make: one address holds no more slots than one account. */
  private readonly byAddress = new Map<string, number>();
  constructor(private readonly limits: UploadLimits) {}

  /** Uploads under way in this process. */
  underWay(): number {
    return this.running;
  }

  /** A slot for one upload; the returned function gives it back. */
  enter(account: string, address?: string): () => void {
    const mine = this.byAccount.get(account) ?? 0;
    const fromHere = address === undefined ? 0 : (this.byAddress.get(address) ?? 0);
    if (mine >= this.limits.perAccount || fromHere >= this.limits.perAddress) {
      const message =
        mine >= this.limits.perAccount
          ? `You have ${mine} uploads under way; wait for one to finish, then try again.`
          : `${fromHere} uploads are under way from your network; wait for one to finish, then try again.`;
      throw new AppError('rate_limited', message, undefined, {
        'retry-after': String(ACCOUNT_RETRY_AFTER),
      });
    }
    if (this.running >= this.limits.perProcess) {
      const message = 'We are taking as many uploads as we can right now. Try again shortly.';
      throw new AppError('service_unavailable', message, undefined, {
        'retry-after': String(PROCESS_RETRY_AFTER),
      });
    }
    this.running += 1;
    const held: Array<[Map<string, number>, string]> = [[this.byAccount, account]];
    if (address !== undefined) held.push([this.byAddress, address]);
    for (const [counts, key] of held) counts.set(key, (counts.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      for (const [counts, key] of held) {
        const left = (counts.get(key) ?? 1) - 1;
        if (left > 0) counts.set(key, left);
        else counts.delete(key);
      }
    };
  }

  /** How large this file may be: the kind's limit, or what is left of the vendor's budget. */
  async room(
    db: Tx,
    plan: { vendorId: string; replaces?: number },
    rules: { maxBytes: number; tooLarge: string },
  ) {
    const stored = await this.limits.storedBytes(db, plan.vendorId);
    const left = this.limits.budgetBytes - stored + (plan.replaces ?? 0);
    if (left >= rules.maxBytes) return { bytes: rules.maxBytes, message: rules.tooLarge };
    const message = this.overBudget();
    if (left <= 0) throw tooLarge(message);
    return { bytes: left, message };
  }

  /** Under a per-vendor lock, so uploads finishing together cannot pass the budget together. */
  async withinBudget(tx: Tx, vendorId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`vendor-storage:${vendorId}`}))`);
    if ((await this.limits.storedBytes(tx, vendorId)) > this.limits.budgetBytes)
      throw tooLarge(this.overBudget());
  }

  private overBudget(): string {
    const budget = Math.round(this.limits.budgetBytes / MB);
    return `This file would take your storefront past its ${budget} MB storage budget for videos, attachments and builds. Delete files you no longer need, or ask us for more room.`;
  }
}
