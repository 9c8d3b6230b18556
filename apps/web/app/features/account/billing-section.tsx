// "Billing details": the name and address receipts print for the buyer (ADR 060).
import { useEffect, useState, type FormEvent } from 'react';
import type { ApiError } from '@tradeshelf/contract';
import { TextAreaField } from '../../components/textarea-field.tsx';
import { Alert, Button, Field, FormError } from '../../components/ui.tsx';
import { useAppDispatch } from '../../lib/hooks.ts';
import { fetchBilling, saveBilling } from './api.ts';
import { TitledSection } from '../../components/titled-section.tsx';

export function BillingSection() {
  const dispatch = useAppDispatch();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    void dispatch(fetchBilling()).then((r) => {
      if (fetchBilling.fulfilled.match(r)) {
        setName(r.payload.name);
        setAddress(r.payload.address);
      }
    });
  }, [dispatch]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(null);
    const r = await dispatch(saveBilling({ name, address }));
    setBusy(false);
    if (!saveBilling.fulfilled.match(r)) return setError(r.payload ?? null);
    setName(r.payload.billing.name);
    setAddress(r.payload.billing.address);
    setSaved(r.payload.message);
  };
  const fields = error?.fields ?? {};
  return (
    <TitledSection look="settings" headingId="billing-heading" title="Billing details">
      <p className="text-sm text-slate-300">
        Printed on your receipts and invoices (PDF). Left empty, they show your e-mail address.
      </p>
      {saved && <Alert tone="success">{saved}</Alert>}
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <FormError error={error} shows={['name', 'address']} />
        <Field
          label="Billing name"
          name="billingName"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fields.name}
        />
        <TextAreaField
          label="Billing address"
          name="billingAddress"
          value={address}
          onChange={setAddress}
          error={fields.address}
        />
        <Button type="submit" variant="ghost" loading={busy} className="self-start">
          Save billing details
        </Button>
      </form>
    </TitledSection>
  );
}
