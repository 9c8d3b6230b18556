import {
  bundleNeedsPriceConfirmation,
  bundlePriceAboveValueMessage,
  planCurrencies,
  vendorBundleMessages as m,
} from '@tradeshelf/contract/client';
import type { VendorBundle, VendorBundleInput } from '@tradeshelf/contract';
import { useState } from 'react';
import { Alert, Field } from '../../../components/ui.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { ConfirmButton } from '../../../components/confirm-step.tsx';
import {
  imageFileProblem,
  UploadControl,
  type UploadRun,
} from '../../../components/upload-control.tsx';
import {
  DraftActions,
  DraftForm,
  ListingText,
  LoadedEditor,
  useDraftEditor,
} from '../products/index.ts';
import { useAction } from '../request.ts';
import { Panel } from '../screen-kit.tsx';
import {
  createVendorBundle,
  fetchVendorBundle,
  publishVendorBundle,
  removeVendorBundleCover,
  unpublishVendorBundle,
  updateVendorBundle,
  uploadVendorBundleCover,
  type CoverUpload,
} from './api.ts';
import {
  checkForm,
  emptyForm,
  formFromBundle,
  priceOf,
  publishProblems,
  removeProduct,
  savingOf,
  toggleProduct,
  toInput,
  type BundleForm,
} from './form.ts';
import { ProductPicker } from './picker.tsx';
import { SelectField } from '../../../components/select-field.tsx';

/** What buyers save, or why it cannot be told yet; and which chosen products buyers will not get. */
function SavingNote({ form }: { form: BundleForm }) {
  const saving = savingOf(form);
  const price = priceOf(form);
  const hidden = form.products.filter((p) => p.status !== 'published').length;
  const money = (amount: number) => formatMoney(amount, form.currency);
  let text: string;
  let warn = false;
  if (!price || !Number.isInteger(price.amount))
    text = 'Set a price to see what buyers save against buying the products one by one.';
  else if (!saving)
    text = form.products.some((p) => p.status === 'published')
      ? 'A product has no price in this currency, so no saving can be shown.'
      : 'Choose published products to see what buyers save.';
  else if (saving.amount > 0)
    text = `Bought separately: ${money(saving.value)}. Buyers save ${money(saving.amount)} (${saving.percent}%).`;
  else {
    warn = true;
    text =
      saving.amount === 0
        ? `That is what the products cost separately (${money(saving.value)}): buyers see no saving.`
        : `That is ${money(-saving.amount)} more than the products cost separately (${money(saving.value)}): buyers see no saving.`;
  }
  return (
    <div role="status" aria-label="What buyers save" className="flex flex-col gap-1 text-sm">
      <p className={warn ? 'text-amber-300' : 'text-slate-200'}>{text}</p>
      {hidden > 0 && (
        <p className="text-amber-300">
          {hidden === 1 ? '1 chosen product is' : `${hidden} chosen products are`} not published:
          buyers get only published products, and the value counts only those.
        </p>
      )}
    </div>
  );
}

/** The cover: upload with progress (drafts too, once saved), or remove it. */
function Cover({
  bundle,
  onChanged,
}: {
  bundle: VendorBundle | null;
  onChanged: (b: VendorBundle) => void;
}) {
  const upload = useAction<CoverUpload, VendorBundle>(uploadVendorBundleCover);
  const remove = useAction<string, VendorBundle>(removeVendorBundleCover);
  if (!bundle)
    return <p className="text-sm text-slate-400">Save the draft first, then add a cover.</p>;
  const send = async (run: UploadRun) => {
    const saved = await upload.run({ id: bundle.id, ...run });
    if (saved) onChanged(saved);
    return Boolean(saved);
  };
  return (
    <div className="flex flex-col gap-3">
      {bundle.imageUrl ? (
        <div className="flex flex-wrap items-end gap-3">
          <img
            src={bundle.imageUrl}
            alt="Bundle cover"
            className="h-32 w-56 rounded-lg border border-ink-700 object-cover"
          />
          <ConfirmButton
            label="Remove cover"
            question="Remove the cover? Its files are deleted."
            confirmLabel="Remove"
            busy={remove.busy}
            onConfirm={async () => {
              const saved = await remove.run(bundle.id);
              if (saved) onChanged(saved);
            }}
          />
        </div>
      ) : (
        <p className="text-sm text-slate-400">
          No cover yet. Search results and the bundle page show one when there is.
        </p>
      )}
      <UploadControl
        label={bundle.imageUrl ? 'Replace the cover' : 'Upload a cover'}
        accept="image/png,image/jpeg,image/webp"
        hint="PNG, JPEG or WebP, up to 2 MB."
        check={imageFileProblem}
        upload={send}
        error={upload.error}
      />
      {remove.error && <Alert>{remove.error.error}</Alert>}
    </div>
  );
}

const what = { noun: 'bundle', list: '/vendor/bundles' };

/** The editor for a new bundle (`bundle` null) or an existing one. */
export function VendorBundleEditor({ bundle: initial }: { bundle: VendorBundle | null }) {
  // Dearer than its products: on sale only when the vendor ticks that they know (issue 27).
  const [confirmAbove, setConfirmAbove] = useState(false);
  const editor = useDraftEditor({
    initial,
    empty: emptyForm,
    fromListing: formFromBundle,
    check: checkForm,
    publishProblems: (form: BundleForm) => {
      const missing: Record<string, string> = publishProblems(form);
      const saving = savingOf(form);
      const price = priceOf(form);
      if (bundleNeedsPriceConfirmation(saving) && !confirmAbove && saving && price)
        missing.confirmPriceAboveValue = bundlePriceAboveValueMessage(price, saving);
      return missing;
    },
    toInput: (form: BundleForm): VendorBundleInput => ({
      ...toInput(form),
      ...(bundleNeedsPriceConfirmation(savingOf(form)) && confirmAbove
        ? { confirmPriceAboveValue: true }
        : {}),
    }),
    pathOf: (id) => `/vendor/bundles/${encodeURIComponent(id)}`,
    create: createVendorBundle,
    update: updateVendorBundle,
    fetch: fetchVendorBundle,
    publish: publishVendorBundle,
    publishArg: (saved: VendorBundle, form: BundleForm) => ({
      id: saved.id,
      confirmPriceAboveValue: bundleNeedsPriceConfirmation(savingOf(form)) && confirmAbove,
    }),
    unpublish: unpublishVendorBundle,
    said: m,
  });
  const { listing: bundle, form, set, setForm, shown } = editor;
  const needsConfirm = bundleNeedsPriceConfirmation(savingOf(form));

  return (
    <DraftForm editor={editor} what={what}>
      <Panel title="About the bundle">
        <ListingText form={form} shown={shown} set={set} />
      </Panel>

      <Panel title="Products">
        <ProductPicker
          chosen={form.products}
          onToggle={(p) => setForm(toggleProduct(form, p))}
          onRemove={(id) => setForm(removeProduct(form, id))}
          error={shown.productIds}
        />
      </Panel>

      <Panel title="Pricing">
        <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
          <Field
            label="Price"
            inputMode="decimal"
            placeholder="99.00"
            hint="Paid once. Buyers get every published product in the bundle."
            value={form.price}
            error={shown['price.amount'] ?? shown.price}
            onChange={(e) => set('price', e.target.value)}
          />
          <SelectField
            label="Currency"
            value={form.currency}
            options={planCurrencies.map((c) => [c, c.toUpperCase()] as const)}
            onChange={(c) => c && set('currency', c)}
            error={shown['price.currency']}
          />
        </div>
        <SavingNote form={form} />
        {needsConfirm && (
          <div className="flex flex-col gap-1">
            <label className="flex items-start gap-2 text-sm text-slate-200">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 accent-amber-400"
                checked={confirmAbove}
                aria-invalid={shown.confirmPriceAboveValue ? true : undefined}
                aria-describedby={shown.confirmPriceAboveValue ? 'confirm-above-error' : undefined}
                onChange={(e) => {
                  setConfirmAbove(e.target.checked);
                  editor.setErrors(({ confirmPriceAboveValue: _, ...rest }) => rest);
                }}
              />
              {m.confirmPriceAboveValue}
            </label>
            {shown.confirmPriceAboveValue && (
              <p id="confirm-above-error" className="text-sm text-rose-400">
                {shown.confirmPriceAboveValue}
              </p>
            )}
          </div>
        )}
        <p className="text-sm text-slate-400">
          Changing the price puts a new price on sale; buyers who already paid keep what they
          bought.
        </p>
      </Panel>

      <Panel title="Cover">
        <Cover bundle={bundle} onChanged={editor.setListing} />
      </Panel>

      <DraftActions editor={editor} what={what} />
    </DraftForm>
  );
}

/** `/vendor/bundles/:id`: reads the bundle, then edits it. */
export function LoadedBundleEditor({ id }: { id: string }) {
  return (
    <LoadedEditor
      id={id}
      fetch={fetchVendorBundle}
      noun="bundle"
      back={{ to: '/vendor/bundles', label: 'Back to bundles' }}
    >
      {(bundle) => <VendorBundleEditor key={id} bundle={bundle} />}
    </LoadedEditor>
  );
}
