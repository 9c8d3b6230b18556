import { CUSTOMER_SEARCH_MAX } from '@tradeshelf/contract/client';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Field } from '../../../components/ui.tsx';
import { Screen } from '../../../components/screen.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useRead } from '../request.ts';
import { fetchVendorCustomers, type CustomersPage } from './api.ts';
import { exactMoney } from '../money-format.ts';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';

export function CustomersList() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const pages = useCursorPages();
  const read = useRead<{ q?: string | undefined; cursor?: string | undefined }, CustomersPage>(
    fetchVendorCustomers,
    { q: q || undefined, cursor: pages.cursor },
  );
  const search = (e: FormEvent) => {
    e.preventDefault();
    pages.reset();
    setQ(text.trim());
  };
  const customers = read.data?.customers ?? [];
  return (
    <section className="flex flex-col gap-4" aria-labelledby="customers-heading">
      <h2 id="customers-heading" className="sr-only">
        Customers
      </h2>
      <form onSubmit={search} role="search" className="flex items-end gap-3">
        <div className="grow">
          <Field
            label="Search by e-mail or username"
            type="search"
            maxLength={CUSTOMER_SEARCH_MAX}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <Button type="submit" variant="ghost">
          Search
        </Button>
      </form>
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading customers…"
        isEmpty={() => !customers.length}
        empty={<Alert tone="info">{q ? `No customer matches “${q}”.` : 'No customers yet.'}</Alert>}
      >
        {() => (
          <div className="overflow-x-auto rounded-2xl border border-ink-700">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <thead className="bg-ink-900 text-xs tracking-wide text-slate-400 uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Buyer
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    Purchases
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    Spent
                  </th>
                  <th scope="col" className="px-4 py-3">
                    First
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Latest
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-800">
                {customers.map((c) => (
                  <tr key={c.buyer.email} className="text-slate-200">
                    <td className="px-4 py-3">
                      {c.buyer.username && (
                        <span className="block font-semibold">{c.buyer.username}</span>
                      )}
                      <span className="text-slate-400">{c.buyer.email}</span>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{c.purchases}</td>
                    <td className="px-4 py-3 text-right tabular-nums">
                      {c.spent.length ? c.spent.map(exactMoney).join(' · ') : '—'}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(c.firstPurchaseAt)}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(c.lastPurchaseAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Screen>
      <Pager
        page={pages.page}
        nextCursor={read.data?.nextCursor}
        onNext={pages.next}
        onPrevious={pages.previous}
        busy={read.status === 'loading'}
      />
    </section>
  );
}
