// "Invoice details": what the vendor's invoices and buyers' receipts print as the seller (ADR 060).
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { ApiError, BusinessDetails } from '@tradeshelf/contract';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { Loading, ReadError } from '../../../components/screen.tsx';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { useAction, useRead } from '../request.ts';
import { fetchBusinessDetails, saveBusinessDetails } from './api.ts';
import { TitledSection } from '../../../components/titled-section.tsx';

function Form({ first }: { first: BusinessDetails }) {
  const [values, setValues] = useState(first);
  const save = useAction<BusinessDetails, { message: string; business: BusinessDetails }>(
    saveBusinessDetails,
  );
  const set = (k: keyof BusinessDetails) => (v: string) => setValues((s) => ({ ...s, [k]: v }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const done = await save.run(values);
    if (done) setValues(done.business);
  };
  const error: ApiError | null = save.error;
  const fields = error?.fields ?? {};
  // A text field's name, value, typing and the server's word for it.
  const bind = (k: keyof BusinessDetails) => ({
    name: k,
    value: values[k],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(k)(e.target.value),
    error: fields[k],
  });
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      {save.status === 'success' && save.data && <Alert tone="success">{save.data.message}</Alert>}
      <FormError error={error} shows={['businessName', 'businessAddress', 'taxId', 'taxNote']} />
      <Field
        label="Legal business name"
        hint="Left empty, invoices show your storefront name."
        {...bind('businessName')}
      />
      <TextAreaField
        label="Business address"
        name="businessAddress"
        value={values.businessAddress}
        onChange={set('businessAddress')}
        error={fields.businessAddress}
      />
      <Field label="Tax number (VAT, GST, EIN …)" {...bind('taxId')} />
      <Field
        label="Tax note"
        hint="For example “VAT reverse charge” or “Not VAT registered”."
        {...bind('taxNote')}
      />
      <Button type="submit" loading={save.busy} className="self-start">
        Save invoice details
      </Button>
    </form>
  );
}

export function BusinessDetailsSection() {
  const read = useRead<void, BusinessDetails>(fetchBusinessDetails, undefined);
  return (
    <TitledSection look="settings" headingId="business-heading" title="Invoice details">
      <p className="text-sm text-slate-300">
        Printed as the seller on every receipt and invoice of your sales (PDF), past ones too.
      </p>
      {read.status === 'failure' && read.error && (
        <ReadError error={read.error} onRetry={read.reload} />
      )}
      {read.status === 'success' && read.data ? (
        <Form first={read.data} />
      ) : (
        read.status !== 'failure' && <Loading label="Loading invoice details…" size="line" />
      )}
    </TitledSection>
  );
}
