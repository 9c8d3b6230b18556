import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** pino's own fields, shown by position rather than as key=value. */
const OWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId']);
/** The message `registerRequestLines` logs, shown as `GET /path 200 12 ms`. */
const REQUEST = 'request';

function shown(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (value !== null && typeof value === 'object' && 'message' in value)
    return shown((value as { message: unknown }).message);
  return JSON.stringify(value);
}

/** One pino JSON line as a short line for a person: `WARN  message key=value`. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  if (entry.msg === REQUEST && typeof entry.method === 'string')
    return `  ${entry.method} ${String(entry.url)} ${String(entry.status)} ${String(entry.ms)} ms`;
  const level = LEVELS[entry.level as number] ?? 'LOG';
  const rest = Object.entries(entry)
    .filter(([k]) => !OWN.has(k))
    .map(([k, v]) => `${k}=${shown(v)}`);
  return [level.padEnd(5), String(entry.msg ?? ''), ...rest].join(' ').trimEnd();
}

/**
 * The process's logger: JSON lines (production, collectors), or with `LOG_FORMAT=pretty` short
 * lines for people written by a formatter of ours (no transport thread, no extra dependency).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>): Logger {
  if (config.LOG_FORMAT !== 'pretty') return pino({ level: config.LOG_LEVEL });
  return pino(
    { level: config.LOG_LEVEL },
    { write: (line: string) => void process.stdout.write(prettyLine(line) + '\n') },
  );
}

/**
 * One log line per request a client sent over the network (not pages' in-process API calls, not
 * built files), at `info`, instead of Fastify's two. Used with `LOG_FORMAT=pretty`.
 */
export function registerRequestLines(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    if (!(req.raw.socket instanceof Socket)) return;
    if ('file' in req.routeOptions.config) return;
    req.log.info(
      {
        method: req.method,
        url: req.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      REQUEST,
    );
  });
}
