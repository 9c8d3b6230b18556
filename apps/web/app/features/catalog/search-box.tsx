import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { endpoints } from '@tradeshelf/contract/client';
import type { ProductCard } from '@tradeshelf/contract';
import { formatPrice } from '../../lib/format.ts';
import { useServices } from '../../lib/services.tsx';
import { productPath } from '../../lib/paths.ts';

/** The search box, with the first matching products listed as you type. */
export function SearchBox({ initial }: { initial: string }) {
  const { api } = useServices();
  const [value, setValue] = useState(initial);
  const [items, setItems] = useState<ProductCard[]>([]);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const onChange = (next: string) => {
    setValue(next);
    if (timer.current) clearTimeout(timer.current);
    if (next.trim().length < 2) {
      setItems([]);
      return;
    }
    // Debounced: one request per pause in typing, not per key.
    timer.current = setTimeout(() => {
      api
        .call(endpoints.search, { query: { q: next.trim(), limit: 6 } })
        .then((r) => {
          setItems(r.products);
          setOpen(true);
        })
        .catch(() => setItems([]));
    }, 200);
  };

  return (
    <div className="relative flex-1">
      <label htmlFor="search-q" className="sr-only">
        Search
      </label>
      <input
        id="search-q"
        name="q"
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        autoComplete="off"
        role="combobox"
        aria-expanded={open && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        placeholder="Search indicators, scanners, communities…"
        className="w-full rounded-lg border border-ink-600 bg-ink-900 px-4 py-3 placeholder:text-slate-400"
      />
      {open && items.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          className="absolute z-20 mt-1 w-full overflow-hidden rounded-lg border border-ink-600 bg-ink-900 shadow-xl"
        >
          {items.map((p) => (
            <li key={p.id} role="option" aria-selected={false}>
              <Link
                to={productPath(p)}
                className="flex justify-between gap-3 px-4 py-2 text-sm hover:bg-ink-800 focus:bg-ink-800"
              >
                <span className="truncate text-white">{p.title}</span>
                <span className="shrink-0 text-slate-400">{formatPrice(p.price)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
