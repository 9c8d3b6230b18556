import type { Storefront } from '@tradeshelf/contract';
import { useState } from 'react';
import { fetchStorefront } from '../../features/workspace/storefront/api.ts';
import {
  HeaderPreview,
  ImageUpload,
  StorefrontForm,
} from '../../features/workspace/storefront/components.tsx';
import { initialValues, type StorefrontValues } from '../../features/workspace/storefront/form.ts';
import { useRead } from '../../features/workspace/request.ts';
import { BusinessDetailsSection } from '../../features/workspace/storefront/business-details.tsx';
import { Loading, ReadError } from '../../components/screen.tsx';

function Editor({ first }: { first: Storefront | null }) {
  const [storefront, setStorefront] = useState(first);
  const [values, setValues] = useState<StorefrontValues>(() => initialValues(first));
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
      <div className="flex flex-col gap-6">
        <StorefrontForm
          storefront={storefront}
          onSaved={setStorefront}
          values={values}
          setValues={setValues}
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <ImageUpload kind="avatar" storefront={storefront} onSaved={setStorefront} />
          <ImageUpload kind="banner" storefront={storefront} onSaved={setStorefront} />
        </div>
      </div>
      <div className="flex flex-col gap-2 xl:sticky xl:top-4 xl:self-start">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-400">Preview</h2>
        <HeaderPreview values={values} storefront={storefront} />
      </div>
    </div>
  );
}

export default function StorefrontPage() {
  const read = useRead<void, Storefront | null>(fetchStorefront, undefined);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">Storefront</h1>
        <p className="mt-1 text-sm text-slate-400">
          Your public page: its address, name, bio, links and pictures. Buyers see changes at once.
        </p>
      </div>
      {read.status === 'failure' && read.error && (
        <ReadError error={read.error} onRetry={read.reload} />
      )}
      {(read.status === 'idle' || read.status === 'loading') && (
        <Loading label="Loading your storefront…" size="line" rows={2} />
      )}
      {read.status === 'success' && <Editor first={read.data ?? null} />}
      {read.status === 'success' && read.data && <BusinessDetailsSection />}
    </div>
  );
}
