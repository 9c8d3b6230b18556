// The one file upload of the web app: a picker that sends the file at once, with a progress bar,
// Cancel (which aborts the request), and the failure's words with Try again.
import { useId, useRef, useState, type ReactNode } from 'react';
import type { ApiError } from '@tradeshelf/contract';
import { AVATAR_MAX_BYTES, avatarTypes, usersMessages } from '@tradeshelf/contract/client';
import { Button } from './ui.tsx';

/** Checks a picture before it is sent: the server checks the bytes again, with these messages. */
export function imageFileProblem(file: File): string | null {
  if (!(avatarTypes as readonly string[]).includes(file.type)) return usersMessages.imageType;
  if (file.size > AVATAR_MAX_BYTES) return usersMessages.imageTooLarge;
  return null;
}

export interface UploadRun {
  file: File;
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
}

type State =
  | { step: 'idle' }
  | { step: 'sending'; file: File; progress: number }
  | { step: 'done'; file: File }
  | { step: 'refused'; text: string }
  | { step: 'failed'; file: File; cancelled: boolean };

/**
 * `check` refuses a file before it is sent; `upload` sends it (passing `signal` on) and answers
 * whether it worked, and `error` is its last failure, whose words are shown with Try again.
 */
export function UploadControl({
  label,
  accept,
  hint,
  check,
  upload,
  error,
  disabled = false,
  doneText,
}: {
  label: string;
  accept: string;
  hint?: ReactNode;
  check: (file: File) => string | null;
  upload: (run: UploadRun) => Promise<boolean>;
  error: ApiError | null;
  disabled?: boolean;
  /** What a finished upload says; "<file> uploaded." by default. */
  doneText?: (file: File) => string;
}) {
  const id = useId();
  const [state, setState] = useState<State>({ step: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);

  async function send(file: File) {
    const controller = new AbortController();
    abort.current = controller;
    setState({ step: 'sending', file, progress: 0 });
    const ok = await upload({
      file,
      signal: controller.signal,
      onProgress: (progress) =>
        setState((s) => (s.step === 'sending' && s.file === file ? { ...s, progress } : s)),
    });
    abort.current = null;
    if (input.current) input.current.value = '';
    setState(
      ok ? { step: 'done', file } : { step: 'failed', file, cancelled: controller.signal.aborted },
    );
  }

  function choose(file: File) {
    const problem = check(file);
    if (problem) setState({ step: 'refused', text: problem });
    else void send(file);
  }

  const sending = state.step === 'sending';
  const percent = sending ? Math.round(state.progress * 100) : 0;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        disabled={disabled || sending}
        aria-describedby={`${id}-status`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) choose(file);
        }}
        className="text-sm text-slate-300 file:mr-3 file:rounded-lg file:border file:border-ink-600 file:bg-ink-800 file:px-3 file:py-1.5 file:text-slate-100 disabled:opacity-50"
      />
      <div id={`${id}-status`} aria-live="polite" className="flex flex-col gap-1.5">
        {state.step === 'sending' ? (
          <div className="flex items-center gap-3">
            <progress
              max={100}
              value={percent}
              aria-label={`Uploading ${state.file.name}`}
              className="h-2 flex-1 overflow-hidden rounded-full [&::-moz-progress-bar]:bg-brand-500 [&::-webkit-progress-bar]:bg-ink-800 [&::-webkit-progress-value]:bg-brand-500"
            />
            <span className="w-12 text-right text-sm tabular-nums text-slate-300">{percent}%</span>
            <Button
              type="button"
              variant="ghost"
              className="px-3 py-1"
              onClick={() => abort.current?.abort()}
            >
              Cancel
            </Button>
          </div>
        ) : state.step === 'failed' ? (
          <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-rose-400">
            <span>
              {state.cancelled
                ? 'Upload cancelled.'
                : error
                  ? (error.fields?.file ?? error.error)
                  : 'The upload failed.'}
            </span>
            <Button
              type="button"
              variant="ghost"
              className="px-3 py-1"
              onClick={() => void send(state.file)}
            >
              Try again <span className="sr-only">to upload {state.file.name}</span>
            </Button>
          </div>
        ) : state.step === 'refused' ? (
          <p role="alert" className="text-sm text-rose-400">
            {state.text}
          </p>
        ) : state.step === 'done' ? (
          <p className="text-sm text-brand-300">
            {doneText ? doneText(state.file) : `${state.file.name} uploaded.`}
          </p>
        ) : hint ? (
          <p className="text-sm text-slate-400">{hint}</p>
        ) : null}
      </div>
    </div>
  );
}
