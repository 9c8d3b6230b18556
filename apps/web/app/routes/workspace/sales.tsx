import { useSearchParams } from 'react-router';
import { CustomersList } from '../../features/workspace/sales/customers.tsx';
import { SalesList } from '../../features/workspace/sales/sales-list.tsx';

const tabs = [
  { id: 'sales', label: 'Sales' },
  { id: 'customers', label: 'Customers' },
] as const;

export default function VendorSales() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'customers' ? 'customers' : 'sales';
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-white">Sales</h1>
      <div role="tablist" aria-label="Sales and customers" className="flex gap-2">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={view === t.id}
            aria-controls={`panel-${t.id}`}
            onClick={() => setParams(t.id === 'sales' ? {} : { view: t.id })}
            className={`rounded-lg px-4 py-2 text-sm font-semibold ${
              view === t.id ? 'bg-ink-700 text-white' : 'text-slate-300 hover:bg-ink-800'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${view}`} aria-labelledby={`tab-${view}`}>
        {view === 'sales' ? <SalesList /> : <CustomersList />}
      </div>
    </div>
  );
}
