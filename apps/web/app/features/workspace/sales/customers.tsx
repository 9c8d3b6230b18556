import { CUSTOMER_SEARCH_MAX } from '@tradeshelf/contract/client';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Field } from '../../../components/ui.tsx';
import { TitledSection } from '../../../components/titled-section.tsx';
import { Screen } from '../../../components/screen.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useRead } from '../request.ts';
import { fetchVendorCustomers, type CustomersPage } from './api.ts';
import { exactMoney } from '../money-format.ts';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import { cell, ListTable } from '../../../components/list-table.tsx';

const columns = [
  { label: 'Buyer' },
  { label: 'Purchases', align: 'right' },
  { label: 'Spent', align: 'right' },
  { label: 'First' },
  { label: 'Latest' },
] as const;

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
    <TitledSection look="list" headingId="customers-heading" title="Customers">
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
          <ListTable columns={columns} busy={read.status === 'loading'} minWidth="min-w-[36rem]">
            {customers.map((c) => (
              <tr key={c.buyer.email} className="text-slate-200">
                <td className={cell}>
                  {c.buyer.username && (
                    <span className="block font-semibold">{c.buyer.username}</span>
                  )}
                  <span className="text-slate-400">{c.buyer.email}</span>
                </td>
                <td className={`${cell} text-right tabular-nums`}>{c.purchases}</td>
                <td className={`${cell} text-right tabular-nums`}>
                  {c.spent.length ? c.spent.map(exactMoney).join(' · ') : '—'}
                </td>
                <td className={`${cell} whitespace-nowrap`}>{formatDate(c.firstPurchaseAt)}</td>
                <td className={`${cell} whitespace-nowrap`}>{formatDate(c.lastPurchaseAt)}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={read.data?.nextCursor} busy={read.status === 'loading'} />
    </TitledSection>
  );
}
