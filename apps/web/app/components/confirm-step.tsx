import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Alert, Button } from './ui.tsx';

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/**
 * A confirm step in place of the button that opened it: it takes the focus when it opens (and is
 * announced by its title and text), Escape or Cancel closes it.
 */
export function ConfirmStep({
  title,
  children,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
  tone = 'danger',
  testId,
}: {
  /** The confirm button's look: `danger` for what cannot be undone, `primary` otherwise. */
  tone?: 'danger' | 'primary';
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirm button's test id. */
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={children ? `${id}-text` : undefined}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onCancel();
      }}
      className={`flex flex-col gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 ${focusRing}`}
    >
      <p id={`${id}-title`} className="font-semibold text-white">
        {title}
      </p>
      {children && (
        <div id={`${id}-text`} className="flex flex-col gap-2 text-sm text-slate-200">
          {children}
        </div>
      )}
      {error && <Alert>{error}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant={tone}
          loading={busy}
          data-testid={testId}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
