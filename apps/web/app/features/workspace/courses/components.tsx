// Pieces the course builder and the licence page share: a confirm step before destructive actions
// and a file upload with a progress bar.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ApiError } from '@tradeshelf/contract';
import { Button } from '../../../components/ui.tsx';

/** A button that asks before it acts: the question takes the focus; Escape or Cancel closes it. */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  busy = false,
  ariaLabel,
  children,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<unknown>;
  busy?: boolean;
  ariaLabel?: string;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (open) ref.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => document.getElementById(`${id}-open`)?.focus());
  };
  if (!open)
    return (
      <Button
        id={`${id}-open`}
        type="button"
        variant="ghost"
        className="px-3 py-1.5"
        aria-label={ariaLabel ?? label}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
    );
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-q`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) close();
      }}
      className="flex w-full flex-col gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-400"
    >
      <p id={`${id}-q`} className="text-slate-100">
        {question}
      </p>
      {children}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="danger"
          className="px-3 py-1.5"
          loading={busy}
          onClick={async () => {
            await onConfirm();
            setOpen(false);
          }}
        >
          {confirmLabel}
        </Button>
        <Button
          type="button"
          variant="ghost"
          className="px-3 py-1.5"
          disabled={busy}
          onClick={close}
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}

export interface UploadRun {
  file: File;
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
}

/**
 * A file picker that uploads at once with a progress bar and a cancel button. `check` refuses a
 * file before it is sent; `upload` answers whether it worked, and `error` is its last failure.
 */
export function UploadControl({
  label,
  accept,
  hint,
  check,
  upload,
  error,
}: {
  label: string;
  accept: string;
  hint?: string;
  check: (file: File) => string | null;
  upload: (run: UploadRun) => Promise<boolean>;
  error: ApiError | null;
}) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{
    tone: 'error' | 'done' | 'failed';
    text: string;
  } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);

  async function start(file: File) {
    const problem = check(file);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setMessage(null);
    setName(file.name);
    setProgress(0);
    abort.current = new AbortController();
    const ok = await upload({ file, onProgress: setProgress, signal: abort.current.signal });
    abort.current = null;
    setProgress(null);
    if (input.current) input.current.value = '';
    // A failure's words come from `error`, which the next render carries.
    setMessage(
      ok ? { tone: 'done', text: `${file.name} uploaded.` } : { tone: 'failed', text: '' },
    );
  }
  const shown =
    message?.tone === 'failed'
      ? {
          tone: 'error' as const,
          text: error ? (error.fields?.file ?? error.error) : 'The upload failed. Try again.',
        }
      : message;

  const percent = progress === null ? 0 : Math.round(progress * 100);
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
        disabled={progress !== null}
        aria-describedby={`${id}-status`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void start(file);
        }}
        className="text-sm text-slate-300 file:mr-3 file:rounded-lg file:border file:border-ink-600 file:bg-ink-800 file:px-3 file:py-1.5 file:text-slate-100"
      />
      <div id={`${id}-status`} aria-live="polite" className="flex flex-col gap-1.5">
        {progress !== null ? (
          <div className="flex items-center gap-3">
            <progress
              max={100}
              value={percent}
              aria-label={`Uploading ${name}`}
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
        ) : shown ? (
          <p
            role={shown.tone === 'error' ? 'alert' : undefined}
            className={`text-sm ${shown.tone === 'error' ? 'text-rose-400' : 'text-brand-300'}`}
          >
            {shown.text}
          </p>
        ) : hint ? (
          <p className="text-sm text-slate-400">{hint}</p>
        ) : null}
      </div>
    </div>
  );
}
