import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { useAppDispatch } from '../../lib/hooks.ts';
import { fetchHeldFeeds, type HeldFeeds } from './api.ts';

/** The library's list of alert feeds the buyer holds, each linking to its page. */
export function HeldAlertFeeds() {
  const dispatch = useAppDispatch();
  const [feeds, setFeeds] = useState<HeldFeeds>([]);
  useEffect(() => {
    void dispatch(fetchHeldFeeds()).then((got) => {
      if (fetchHeldFeeds.fulfilled.match(got)) setFeeds(got.payload);
    });
  }, [dispatch]);
  if (!feeds.length) return null;
  return (
    <section aria-labelledby="library-alerts" className="flex flex-col gap-3">
      <h2 id="library-alerts" className="text-lg font-semibold text-white">
        Alerts
      </h2>
      <ul className="flex flex-col gap-2">
        {feeds.map((f) => (
          <li
            key={f.productId}
            className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4"
          >
            <div>
              <p className="font-semibold text-white">{f.title}</p>
              <p className="text-xs text-slate-400">
                {f.lastAlertAt ? `Last alert ${formatDateTime(f.lastAlertAt)}` : 'No alerts yet'}
              </p>
            </div>
            <Link
              to={`/library/alerts/${encodeURIComponent(f.productId)}`}
              className="text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
              data-testid="library-alerts-link"
            >
              Open alerts <span className="sr-only">of {f.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
