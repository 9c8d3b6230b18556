// A Markdown text area with a preview rendered as the public pages render it (products, bundles).
import { useId, useState, type ReactNode } from 'react';
import { MarkdownPreview } from './markdown-preview.tsx';

export const fieldBox =
  'rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 placeholder:text-slate-400 focus:border-brand-400';

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="text-sm text-rose-400">
      {message}
    </p>
  ) : null;
}

/** Markdown as typed, or as the public page renders it. */
export function MarkdownField({
  label = 'Description',
  value,
  onChange,
  error,
  image,
  children,
}: {
  label?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  /** Which pictures the preview shows (none by default, as on the public pages). */
  image?: ((src: string) => boolean) | undefined;
  /** Shown under the hint (e.g. a picture upload). */
  children?: ReactNode;
}) {
  const id = useId();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const tabClass = (on: boolean) =>
    `rounded-md px-3 py-1 text-sm ${on ? 'bg-ink-700 text-white' : 'text-slate-400 hover:text-white'}`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium text-slate-200">
          {label}
        </label>
        <div role="tablist" aria-label={label} className="flex gap-1">
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'write'}
            className={tabClass(tab === 'write')}
            onClick={() => setTab('write')}
          >
            Write
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'preview'}
            className={tabClass(tab === 'preview')}
            onClick={() => setTab('preview')}
          >
            Preview
          </button>
        </div>
      </div>
      {tab === 'write' ? (
        <textarea
          id={id}
          rows={10}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-e` : ''}`}
          className={`${fieldBox} font-mono text-sm`}
        />
      ) : (
        <div
          role="tabpanel"
          aria-label="Preview"
          className="min-h-40 rounded-lg border border-ink-700 bg-ink-950 p-4"
        >
          {value.trim() ? (
            <MarkdownPreview source={value} image={image} />
          ) : (
            <p className="text-slate-400">Nothing to preview yet.</p>
          )}
        </div>
      )}
      <p id={`${id}-hint`} className="text-sm text-slate-400">
        Markdown: ## headings, **bold**, *italic*, - lists and [links](https://…).
      </p>
      <FieldError id={`${id}-e`} message={error} />
      {children}
    </div>
  );
}
