import type { Alert } from '@tradeshelf/contract';
import { useEffect, useRef } from 'react';
import { useAppDispatch } from '../../lib/hooks.ts';
import { currentConfig } from '../../lib/config.ts';
import { streamToken } from './api.ts';

/** The live stream's path (server-sent events; ADR 059). */
export const ALERTS_STREAM_PATH = '/api/v1/alerts-stream';

/**
 * While `enabled`, calls `onAlert` for each alert published to the signed-in user while the page is open: a fetch
 * of the server-sent event stream (it carries the bearer token, which EventSource cannot), opened
 * again after a drop with a growing wait.
 */
export function useLiveAlerts(enabled: boolean, onAlert: (alert: Alert) => void): void {
  const dispatch = useAppDispatch();
  const handler = useRef(onAlert);
  handler.current = onAlert;
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    let wait = 1000;
    const run = async () => {
      while (!stop.signal.aborted) {
        try {
          const got = await dispatch(streamToken());
          const token = streamToken.fulfilled.match(got) ? got.payload : null;
          if (!token) return;
          const res = await fetch(currentConfig().apiBase + ALERTS_STREAM_PATH, {
            headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
            credentials: 'omit',
            signal: stop.signal,
          });
          if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
          wait = 1000;
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const lines = frame.split('\n');
              // Ended for a newer stream of this account (too many open): not opened again.
              if (lines.includes('event: closed')) return;
              const data = lines
                .filter((l) => l.startsWith('data: '))
                .map((l) => l.slice(6))
                .join('\n');
              if (data) handler.current((JSON.parse(data) as { alert: Alert }).alert);
            }
          }
        } catch {
          if (stop.signal.aborted) return;
        }
        await new Promise((done) => setTimeout(done, wait));
        wait = Math.min(wait * 2, 30_000);
      }
    };
    void run();
    return () => stop.abort();
  }, [dispatch, enabled]);
}
