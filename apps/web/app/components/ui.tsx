import {
  useId,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import type { ApiError } from '@tradeshelf/contract';
import { AfterHydration } from '../lib/images.tsx';

export function Spinner() {
  return (
    <span
      aria-hidden
      className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-r-transparent"
    />
  );
}

export function Button({
  loading,
  children,
  variant = 'primary',
  className = '',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>;
  loading?: boolean;
  variant?: 'primary' | 'ghost' | 'danger';
}) {
  const styles = {
    primary: 'bg-brand-500 text-ink-950 hover:bg-brand-400',
    ghost: 'border border-ink-600 text-slate-200 hover:bg-ink-800',
    danger: 'bg-rose-600 text-white hover:bg-rose-500',
  }[variant];
  return (
    <button
      {...rest}
      disabled={rest.disabled || loading}
      aria-busy={loading || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition disabled:cursor-not-allowed disabled:opacity-50 ${styles} ${className}`}
    >
      {loading && <Spinner />}
      {children}
    </button>
  );
}

export function Field({
  label,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string | null | undefined;
  hint?: ReactNode;
}) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <input
          {...input}
          {...control}
          className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 placeholder:text-slate-400 focus:border-brand-400"
        />
      )}
    </FieldFrame>
  );
}

/** What a labelled control takes from its frame: its id, and what tells screen readers of its note. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * One labelled control (`Field`, `SelectField`, `TextAreaField`): the label above, the control, and
 * under it its error, else its hint, tied to it for screen readers.
 */
export function FieldFrame({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | null | undefined;
  hint?: ReactNode;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const note = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': note })}
      {error ? (
        <p id={note} className="text-sm text-rose-400">
          {error}
        </p>
      ) : hint ? (
        <p id={note} className="text-sm text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  const styles = {
    error: 'border-rose-500/40 bg-rose-500/10 text-rose-200',
    success: 'border-brand-500/40 bg-brand-500/10 text-brand-200',
    info: 'border-ink-600 bg-ink-800 text-slate-200',
  }[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-4 py-3 text-sm ${styles}`}
    >
      {children}
    </div>
  );
}

/**
 * What a form's banner says for a failed call: form-level errors only. An answer naming fields
 * (`{ error, fields }`, its `error` being the first field's message) is said at those fields, once;
 * a field the form does not show (`shows` lists those it does, when given) keeps its message here.
 */
export function formLevelMessage(
  error: ApiError | null | undefined,
  shows?: readonly string[],
): string | null {
  if (!error) return null;
  if (!error.fields) return error.error;
  if (!shows) return null;
  const elsewhere = Object.entries(error.fields)
    .filter(([field]) => !shows.includes(field))
    .map(([, message]) => message);
  return elsewhere.length ? [...new Set(elsewhere)].join(' ') : null;
}

/** The banner of a form for a failed call: `formLevelMessage`, or nothing. */
export function FormError({
  error,
  shows,
}: {
  error: ApiError | null | undefined;
  shows?: readonly string[];
}) {
  const message = formLevelMessage(error, shows);
  return message ? <Alert>{message}</Alert> : null;
}

export function Card({
  title,
  children,
  subtitle,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md rounded-2xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl sm:p-8">
      <h1 className="text-2xl font-bold text-white">{title}</h1>
      {subtitle && <p className="mt-2 text-sm text-slate-400">{subtitle}</p>}
      <div className="mt-6">{children}</div>
    </div>
  );
}

/**
 * A square picture of `size` CSS pixels, or `letters` on a tile of the same box when there is none
 * (nothing when there are no letters either): a user's, a vendor's, a Discord server's. `box` gives
 * its size and corners, `tile` the letters' colours, as classes (the page's CSP allows no inline
 * style attributes). `alt` empty when a visible name sits beside it; `lazy` below the fold.
 */
export function PictureOrLetters({
  src,
  letters,
  size,
  box,
  tile = 'bg-ink-700 text-slate-200',
  alt = '',
  lazy = false,
}: {
  src?: string | null | undefined;
  letters?: string;
  size: number;
  box: string;
  tile?: string;
  alt?: string;
  lazy?: boolean;
}) {
  if (src) {
    const img = (
      <img
        src={src}
        alt={alt}
        width={size}
        height={size}
        loading={lazy ? 'lazy' : undefined}
        className={`shrink-0 bg-ink-700 object-cover ${box}`}
      />
    );
    return lazy ? (
      <AfterHydration placeholder={`shrink-0 bg-ink-700 ${box}`}>{img}</AfterHydration>
    ) : (
      img
    );
  }
  if (!letters) return null;
  return (
    <span
      aria-hidden={alt ? undefined : true}
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      className={`inline-flex shrink-0 items-center justify-center font-bold ${tile} ${box}`}
    >
      {letters}
    </span>
  );
}
