import { useCallback, useEffect, useRef, type RefObject, type SyntheticEvent } from 'react';
import { useAppDispatch } from '../../lib/hooks.ts';
import { saveLessonProgress } from './api.ts';

/** Seconds of playback between two saved positions while a video plays. */
export const SAVE_EVERY_SECONDS = 10;

/**
 * Records where the buyer is in a video: every `SAVE_EVERY_SECONDS` of playback, on pause, on the
 * end (which completes the lesson) and when the page is hidden. Returns the element's handlers.
 */
export function useProgressRecorder(
  courseId: string,
  lessonId: string,
  enabled: boolean,
  video: RefObject<HTMLVideoElement | null>,
) {
  const dispatch = useAppDispatch();
  const lastSaved = useRef<number | null>(null);

  const save = useCallback(
    (position: number, completed?: boolean) => {
      if (!enabled || !Number.isFinite(position)) return;
      lastSaved.current = position;
      void dispatch(
        saveLessonProgress({
          courseId,
          lessonId,
          positionSeconds: position,
          ...(completed ? { completed: true } : {}),
        }),
      );
    },
    [dispatch, courseId, lessonId, enabled],
  );

  useEffect(() => {
    lastSaved.current = null;
  }, [lessonId]);

  useEffect(() => {
    if (!enabled) return;
    const hide = () => {
      const v = video.current;
      if (v && v.currentTime > 0 && v.currentTime !== lastSaved.current) save(v.currentTime);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') hide();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', hide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', hide);
    };
  }, [enabled, save, video]);

  return {
    onTimeUpdate: (e: SyntheticEvent<HTMLVideoElement>) => {
      const t = e.currentTarget.currentTime;
      const from = lastSaved.current ?? 0;
      if (!e.currentTarget.paused && Math.abs(t - from) >= SAVE_EVERY_SECONDS) save(t);
    },
    onPause: (e: SyntheticEvent<HTMLVideoElement>) => {
      if (!e.currentTarget.ended) save(e.currentTarget.currentTime);
    },
    onEnded: (e: SyntheticEvent<HTMLVideoElement>) => save(e.currentTarget.currentTime, true),
    save,
  };
}
