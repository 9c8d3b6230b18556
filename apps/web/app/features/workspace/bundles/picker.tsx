// The bundle's product picker: a search box over the vendor's products (a combobox with its list of
// options, arrow keys to move, Enter to add or take out) and the products chosen, each removable.
import { type VendorBundleProduct, type VendorBundleProductsQuery } from '@tradeshelf/contract';
import { useEffect, useId, useState } from 'react';
import { formatMoney } from '../../../lib/format.ts';
import { StatusPill } from '../products/index.ts';
import { focusRing, LoadMore, usePaged } from '../screen-kit.tsx';
import { fetchBundleProductChoices } from './api.ts';
import { Loading } from '../../../components/screen.tsx';

const PAGE = 20;

const priceText = (p: VendorBundleProduct) =>
  p.price ? formatMoney(p.price.amount, p.price.currency) : 'No price';

/** The typed words, once typing pauses. */
function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function ProductPicker({
  chosen,
  onToggle,
  onRemove,
  error,
}: {
  chosen: readonly VendorBundleProduct[];
  onToggle: (product: VendorBundleProduct) => void;
  onRemove: (id: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const q = useSettled(typed.trim());
  const list = usePaged<VendorBundleProductsQuery, VendorBundleProduct>(fetchBundleProductChoices, {
    limit: PAGE,
    ...(q ? { q } : {}),
  });
  const [active, setActive] = useState(0);
  const options = list.items;
  const current = Math.min(active, Math.max(0, options.length - 1));
  const isChosen = (p: VendorBundleProduct) => chosen.some((c) => c.id === p.id);
  const optionId = (i: number) => `${id}-option-${i}`;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-search`} className="text-sm font-medium text-slate-200">
          Find your products
        </label>
        <input
          id={`${id}-search`}
          type="search"
          role="combobox"
          aria-expanded={options.length > 0}
          aria-controls={`${id}-options`}
          aria-autocomplete="list"
          aria-activedescendant={options.length ? optionId(current) : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-e` : ''}`}
          aria-invalid={error ? true : undefined}
          placeholder="Part of a title"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive(Math.min(current + 1, options.length - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive(Math.max(current - 1, 0));
            } else if (e.key === 'Enter') {
              // Enter picks the highlighted product; it never submits the form from here.
              e.preventDefault();
              const product = options[current];
              if (product) onToggle(product);
            } else if (e.key === 'Escape' && typed) {
              e.preventDefault();
              setTyped('');
            }
          }}
          className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 placeholder:text-slate-400 focus:border-brand-400"
        />
        <p id={`${id}-hint`} className="text-sm text-slate-400">
          Arrow keys move through the list; Enter adds the product or takes it out. Drafts can be
          chosen, but buyers only get published products.
        </p>
      </div>

      {list.status === 'failure' && list.error ? (
        <p role="alert" className="text-sm text-rose-400">
          {list.error.error}{' '}
          <button
            type="button"
            className={`underline ${focusRing}`}
            onClick={() => void list.reload()}
          >
            Try again
          </button>
        </p>
      ) : list.status === 'loading' && !options.length ? (
        <Loading label="Loading your products…" size="row" />
      ) : !options.length ? (
        <p className="text-sm text-slate-400">
          {q ? `No product of yours has “${q}” in its title.` : 'You have no products yet.'}
        </p>
      ) : null}
      <ul
        id={`${id}-options`}
        role="listbox"
        aria-label="Your products"
        aria-multiselectable="true"
        hidden={!options.length}
        className="flex max-h-72 flex-col overflow-y-auto rounded-xl border border-ink-700"
      >
        {options.map((p, i) => (
          <li
            key={p.id}
            id={optionId(i)}
            role="option"
            aria-selected={isChosen(p)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              setActive(i);
              onToggle(p);
            }}
            className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm ${
              i === current ? 'bg-ink-800' : 'bg-ink-950'
            }`}
          >
            <span className="flex items-center gap-2 text-slate-100">
              <span aria-hidden="true" className="w-4 text-brand-300">
                {isChosen(p) ? '✓' : ''}
              </span>
              {p.title || 'Untitled product'}
            </span>
            <span className="flex items-center gap-2 text-slate-400">
              {priceText(p)}
              <StatusPill status={p.status} />
            </span>
          </li>
        ))}
      </ul>
      <LoadMore list={list} noun="products" />

      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-medium text-slate-200">In this bundle ({chosen.length})</h3>
        {chosen.length === 0 ? (
          <p className="text-sm text-slate-400">Nothing yet. Choose at least two products.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-ink-800 rounded-xl border border-ink-700">
            {chosen.map((p) => (
              <li
                key={p.id}
                className="flex flex-wrap items-center justify-between gap-3 px-3 py-2 text-sm"
              >
                <span className="text-slate-100">{p.title || 'Untitled product'}</span>
                <span className="flex items-center gap-3 text-slate-400">
                  {priceText(p)}
                  <StatusPill status={p.status} />
                  <button
                    type="button"
                    aria-label={`Remove ${p.title || 'untitled product'}`}
                    onClick={() => onRemove(p.id)}
                    className={`text-slate-300 underline ${focusRing}`}
                  >
                    Remove
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p id={`${id}-e`} className="text-sm text-rose-400">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
