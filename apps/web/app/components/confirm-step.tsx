import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert, Button } from './ui.tsx';

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

const focusable =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Open/closed for a confirm step that takes the place of the button that opens it. Give the button
 * `id={confirm.triggerId}` and the step `returnFocusTo={confirm.triggerId}`: the focus goes back to
 * it (a new element by then) when the step closes.
 */
export function useConfirm() {
  const [open, setOpen] = useState(false);
  const triggerId = useId();
  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  return { open, triggerId, show, close };
}

/**
 * The one confirm step, in place of the button that opened it: it takes the focus when it opens
 * (announced by its title and text) and keeps Tab and Shift+Tab inside it; Escape or Cancel
 * closes it. When it closes with the focus lost (its own buttons gone), the focus goes back to
 * `returnFocusTo` (an element id), or to the element that had it when the step opened.
 */
export function ConfirmStep({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy,
  error,
  onConfirm,
  onCancel,
  tone = 'danger',
  testId,
  returnFocusTo,
  compact = false,
}: {
  /** The confirm button's look: `danger` for what cannot be undone, `primary` otherwise. */
  tone?: 'danger' | 'primary';
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirm button's test id. */
  testId?: string;
  /** Where the focus goes back to: an element id, or ids tried in turn. */
  returnFocusTo?: string | readonly string[];
  /** Smaller, for steps inside rows and editors. */
  compact?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const returnTo = useRef(returnFocusTo);
  useEffect(() => {
    returnTo.current = returnFocusTo;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    return () => {
      // Only when the focus went down with the step: a page that moved it on keeps its choice.
      const lost = !document.activeElement || document.activeElement === document.body;
      if (!lost) return;
      const ids = [returnTo.current ?? []].flat();
      const back =
        ids.map((id) => document.getElementById(id)).find((el) => el) ??
        (opener?.isConnected ? opener : null);
      back?.focus();
    };
  }, []);

  const pad = compact ? 'p-3 gap-2' : 'p-4 gap-3';
  const size = compact ? 'px-3 py-1.5' : '';
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={children ? `${id}-text` : undefined}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          if (!busy) onCancel();
          return;
        }
        if (e.key !== 'Tab' || !ref.current) return;
        const items = [...ref.current.querySelectorAll<HTMLElement>(focusable)];
        const first = items[0];
        const last = items[items.length - 1];
        if (!first || !last) {
          e.preventDefault();
          return;
        }
        const at = document.activeElement;
        if (e.shiftKey && (at === first || at === ref.current)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && at === last) {
          e.preventDefault();
          first.focus();
        }
      }}
      className={`flex w-full flex-col rounded-xl border border-amber-500/40 bg-amber-500/10 ${pad} ${focusRing}`}
    >
      <p
        id={`${id}-title`}
        className={compact ? 'text-sm text-slate-100' : 'font-semibold text-white'}
      >
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
          className={size}
          loading={busy}
          data-testid={testId}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
        <Button type="button" variant="ghost" className={size} disabled={busy} onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
    </div>
  );
}

/**
 * A button that asks before it acts, with the confirm step in its place until the action is done
 * or cancelled. `onConfirm` answers whether it worked (`false` keeps the step open).
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy = false,
  disabled = false,
  error = null,
  ariaLabel,
  tone = 'danger',
  compact = true,
  triggerClassName = 'px-3 py-1.5',
  testId,
  children,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void | boolean | Promise<unknown>;
  /** Besides closing the step (a field's error, say, goes with it). */
  onCancel?: () => void;
  busy?: boolean;
  /** The opening button's, while something else runs. */
  disabled?: boolean;
  error?: string | null;
  ariaLabel?: string;
  tone?: 'danger' | 'primary';
  /** False: the step of a section of its own (a form inside it), not of a row. */
  compact?: boolean;
  triggerClassName?: string;
  testId?: string;
  children?: ReactNode;
}) {
  const confirm = useConfirm();
  if (!confirm.open)
    return (
      <Button
        id={confirm.triggerId}
        type="button"
        variant="ghost"
        className={triggerClassName}
        aria-label={ariaLabel ?? label}
        disabled={disabled}
        onClick={confirm.show}
      >
        {label}
      </Button>
    );
  return (
    <ConfirmStep
      compact={compact}
      title={question}
      confirmLabel={confirmLabel}
      {...(cancelLabel ? { cancelLabel } : {})}
      tone={tone}
      busy={busy}
      error={error}
      returnFocusTo={confirm.triggerId}
      {...(testId ? { testId } : {})}
      onCancel={() => {
        onCancel?.();
        confirm.close();
      }}
      onConfirm={async () => {
        if ((await onConfirm()) !== false) confirm.close();
      }}
    >
      {children}
    </ConfirmStep>
  );
}
