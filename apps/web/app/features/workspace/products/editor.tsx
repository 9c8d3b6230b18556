import {
  assetClasses,
  newPlanBillings,
  planBillingLabels,
  planCurrencies,
  platformLabels,
  PLAN_TRIAL_DAYS_MAX,
  PRODUCT_IMAGES_MAX,
  PRODUCT_PLANS_MAX,
  productKinds,
  tradingPlatforms,
  type PlanBilling,
  type PlanCurrency,
} from '@tradeshelf/contract/client';
import type { VendorProduct, VendorProductsQuery } from '@tradeshelf/contract';
import { useId, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/confirm-step.tsx';
import { imageFileProblem, UploadControl } from '../../../components/upload-control.tsx';
import { Alert, Button, Field } from '../../../components/ui.tsx';
import { FieldError, fieldBox } from '../markdown-field.tsx';
import { useAction, useRead } from '../request.ts';
import {
  createVendorProduct,
  fetchVendorProduct,
  fetchVendorProducts,
  publishVendorProduct,
  unpublishVendorProduct,
  updateVendorProduct,
  setVendorProductImages,
  uploadVendorProductImage,
  type ImageUpload,
  type ProductsPage,
} from './api.ts';
import {
  addPlan,
  checkForm,
  deliveryLink,
  emptyForm,
  formFromProduct,
  movePlanUp,
  publishProblems,
  removePlan,
  toInput,
  updatePlan,
  type ProductForm,
} from './form.ts';
import { assetClassLabels, kindLabels } from './labels.ts';
import { ProductFiles } from './files.tsx';
import {
  DraftActions,
  DraftForm,
  ListingText,
  LoadedEditor,
  useDraftEditor,
} from './draft-editor.tsx';
import { SelectField } from '../../../components/select-field.tsx';

const box = fieldBox;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5">
      <h2 className="text-lg font-semibold text-white">{title}</h2>
      {children}
    </section>
  );
}

/** A group of checkboxes (platforms, markets, prerequisites). */
function Choices({
  legend,
  options,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  options: ReadonlyArray<readonly [string, string]>;
  chosen: readonly string[];
  onChange: (next: string[]) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-e` : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-200">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map(([value, label]) => (
          <label
            key={value}
            className="flex items-center gap-2 rounded-lg border border-ink-700 px-3 py-1.5 text-sm text-slate-200"
          >
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(e) =>
                onChange(e.target.checked ? [...chosen, value] : chosen.filter((c) => c !== value))
              }
            />
            {label}
          </label>
        ))}
      </div>
      <FieldError id={`${id}-e`} message={error} />
    </fieldset>
  );
}

/** Plans: add, remove, reorder; billing, price, currency and free-trial days each. */
export function PlansEditor({
  form,
  setForm,
  errors,
}: {
  form: ProductForm;
  setForm: (f: ProductForm) => void;
  errors: Record<string, string>;
}) {
  return (
    <div className="flex flex-col gap-3">
      {form.plans.length === 0 && (
        <p className="text-sm text-slate-400">No plans yet. A product needs one to be published.</p>
      )}
      {form.plans.map((plan, i) => {
        const err = (f: string) => errors[`plans.${i}.${f}`];
        const billings: readonly PlanBilling[] = (
          newPlanBillings as readonly PlanBilling[]
        ).includes(plan.billing)
          ? newPlanBillings
          : [...newPlanBillings, plan.billing];
        return (
          <fieldset
            key={plan.key}
            className="grid gap-3 rounded-xl border border-ink-700 p-4 sm:grid-cols-[1fr_1fr_auto_1fr_auto]"
          >
            <legend className="px-1 text-sm text-slate-400">
              Plan {i + 1}
              {i === 0 ? ' (shown first)' : ''}
            </legend>
            <label className="flex flex-col gap-1 text-sm text-slate-200">
              Billing
              <select
                className={box}
                value={plan.billing}
                onChange={(e) =>
                  setForm(updatePlan(form, plan.key, { billing: e.target.value as PlanBilling }))
                }
              >
                {billings.map((b) => (
                  <option key={b} value={b}>
                    {planBillingLabels[b]}
                  </option>
                ))}
              </select>
            </label>
            <Field
              label="Price"
              inputMode="decimal"
              placeholder="49.00"
              value={plan.price}
              error={err('amount')}
              onChange={(e) => setForm(updatePlan(form, plan.key, { price: e.target.value }))}
            />
            <label className="flex flex-col gap-1 text-sm text-slate-200">
              Currency
              <select
                className={box}
                value={plan.currency}
                onChange={(e) =>
                  setForm(updatePlan(form, plan.key, { currency: e.target.value as PlanCurrency }))
                }
              >
                {planCurrencies.map((c) => (
                  <option key={c} value={c}>
                    {c.toUpperCase()}
                  </option>
                ))}
              </select>
            </label>
            <Field
              label="Free trial (days)"
              inputMode="numeric"
              value={plan.billing === 'one_time' ? '0' : plan.trialDays}
              disabled={plan.billing === 'one_time'}
              hint={
                plan.billing === 'one_time'
                  ? 'Monthly or yearly plans only.'
                  : `0 to ${PLAN_TRIAL_DAYS_MAX}`
              }
              error={err('trialDays')}
              onChange={(e) => setForm(updatePlan(form, plan.key, { trialDays: e.target.value }))}
            />
            <div className="flex items-end gap-2">
              {i > 0 && (
                <Button
                  type="button"
                  variant="ghost"
                  aria-label={`Move plan ${i + 1} up`}
                  onClick={() => setForm(movePlanUp(form, plan.key))}
                >
                  ↑
                </Button>
              )}
              <Button
                type="button"
                variant="ghost"
                aria-label={`Remove plan ${i + 1}`}
                onClick={() => setForm(removePlan(form, plan.key))}
              >
                Remove
              </Button>
            </div>
            {err('billing') && (
              <p className="text-sm text-rose-400 sm:col-span-5">{err('billing')}</p>
            )}
            {err('currency') && (
              <p className="text-sm text-rose-400 sm:col-span-5">{err('currency')}</p>
            )}
          </fieldset>
        );
      })}
      {errors.plans && <p className="text-sm text-rose-400">{errors.plans}</p>}
      <Button
        type="button"
        variant="ghost"
        className="self-start"
        disabled={form.plans.length >= PRODUCT_PLANS_MAX}
        onClick={() => setForm(addPlan(form))}
      >
        Add a plan
      </Button>
      <p className="text-sm text-slate-400">
        Changing a plan&apos;s price or billing puts a new plan on sale; buyers who already paid
        keep what they bought.
      </p>
    </div>
  );
}

/** Pictures: upload with progress, previews; drafts too, once saved. */
function Pictures({
  product,
  onUploaded,
}: {
  product: VendorProduct | null;
  onUploaded: (p: VendorProduct) => void;
}) {
  const upload = useAction<ImageUpload, VendorProduct>(uploadVendorProductImage);
  const arrange = useAction<{ id: string; images: string[] }, VendorProduct>(
    setVendorProductImages,
  );
  if (!product)
    return <p className="text-sm text-slate-400">Save the draft first, then add pictures.</p>;
  const keep = async (images: string[]) => {
    const saved = await arrange.run({ id: product.id, images });
    if (saved) onUploaded(saved);
  };
  return (
    <div className="flex flex-col gap-3">
      {product.images.length > 0 ? (
        <ul className="flex flex-wrap gap-3">
          {product.images.map((src, i) => (
            <li key={src} className="relative">
              <img
                src={src}
                alt={i === 0 ? 'Cover picture' : `Picture ${i + 1}`}
                className="h-24 w-36 rounded-lg border border-ink-700 object-cover"
              />
              {i === 0 && (
                <span className="absolute left-1 top-1 rounded bg-ink-950/80 px-1.5 text-xs text-white">
                  Cover
                </span>
              )}
              <div className="mt-1 flex gap-2 text-xs">
                {i > 0 && (
                  <button
                    type="button"
                    className="text-brand-400 underline disabled:opacity-50"
                    disabled={arrange.busy}
                    onClick={() => void keep([src, ...product.images.filter((x) => x !== src)])}
                  >
                    Make cover
                  </button>
                )}
                <ConfirmButton
                  label="Remove"
                  ariaLabel={`Remove picture ${i + 1}`}
                  question={`Delete picture ${i + 1}?`}
                  confirmLabel={`Delete picture ${i + 1}`}
                  cancelLabel="Keep"
                  busy={arrange.busy}
                  onConfirm={() => keep(product.images.filter((x) => x !== src))}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-400">No pictures yet. The first one is the cover.</p>
      )}
      <UploadControl
        label="Add a picture (PNG, JPEG or WebP, up to 2 MB)"
        accept="image/png,image/jpeg,image/webp"
        disabled={product.images.length >= PRODUCT_IMAGES_MAX}
        check={imageFileProblem}
        error={upload.error}
        upload={async (run) => {
          const saved = await upload.run({ id: product.id, ...run });
          if (saved) onUploaded(saved);
          return saved !== null;
        }}
      />
      {arrange.error && <Alert>{arrange.error.error}</Alert>}
    </div>
  );
}

const what = { noun: 'product', list: '/vendor/products' };

/** The editor for a new product (`product` null) or an existing one. */
export function VendorProductEditor({ product: initial }: { product: VendorProduct | null }) {
  const editor = useDraftEditor({
    initial,
    empty: emptyForm,
    fromListing: formFromProduct,
    check: checkForm,
    publishProblems,
    toInput,
    pathOf: (id) => `/vendor/products/${encodeURIComponent(id)}`,
    create: createVendorProduct,
    update: updateVendorProduct,
    fetch: fetchVendorProduct,
    publish: publishVendorProduct,
    publishArg: (saved: VendorProduct) => saved.id,
    unpublish: unpublishVendorProduct,
    said: {
      saved: 'Saved.',
      published: 'Published. It is on your storefront and in search now.',
      unpublished: 'Unpublished. Buyers who bought it keep their access.',
    },
  });
  const { listing: product, form, set, setForm, shown } = editor;
  const others = useRead<VendorProductsQuery, ProductsPage>(fetchVendorProducts, { limit: 100 });

  const prerequisiteOptions = useMemo(
    () =>
      (others.data?.products ?? [])
        .filter((p) => p.id !== product?.id)
        .map((p) => [p.id, p.title || 'Untitled product'] as const),
    [others.data, product?.id],
  );
  const delivery = product ? deliveryLink(product) : null;

  return (
    <div className="flex flex-col gap-5">
      <DraftForm editor={editor} what={what}>
        <Section title="About the product">
          <SelectField
            label="Kind"
            value={form.kind}
            options={productKinds.map((k) => [k, kindLabels[k]] as const)}
            onChange={(kind) => kind && set('kind', kind)}
            error={shown.kind}
          />
          <ListingText form={form} shown={shown} set={set} />
          <Field
            label="Tags"
            hint="Separated by commas, e.g. momentum, breakout."
            value={form.tags}
            error={shown.tags}
            onChange={(e) => set('tags', e.target.value)}
          />
        </Section>

        <Section title="Where it works">
          <Choices
            legend="Platforms"
            options={tradingPlatforms.map((p) => [p, platformLabels[p]] as const)}
            chosen={form.platforms}
            onChange={(v) => set('platforms', v)}
            error={shown.platforms}
          />
          <Choices
            legend="Markets"
            options={assetClasses.map((a) => [a, assetClassLabels[a]] as const)}
            chosen={form.assetClasses}
            onChange={(v) => set('assetClasses', v)}
            error={shown.assetClasses}
          />
          {prerequisiteOptions.length > 0 && (
            <Choices
              legend="Buyers must own first (prerequisites)"
              options={prerequisiteOptions}
              chosen={form.prerequisiteIds}
              onChange={(v) => set('prerequisiteIds', v)}
              error={shown.prerequisiteIds}
            />
          )}
        </Section>

        <Section title="Plans and prices">
          <PlansEditor form={form} setForm={setForm} errors={shown} />
        </Section>

        <Section title="Pictures">
          <Pictures product={product} onUploaded={editor.setListing} />
        </Section>

        <DraftActions editor={editor} what={what}>
          {delivery && (
            <Link to={delivery.to} className="text-sm text-brand-400 underline">
              {delivery.label}
            </Link>
          )}
        </DraftActions>
      </DraftForm>
      {/* Its own forms and saves: files upload and publish one by one, apart from the listing. */}
      <Section title="Files and guide">
        {product ? (
          <ProductFiles productId={product.id} />
        ) : (
          <p className="text-sm text-slate-400">
            Save the draft first, then add files and a guide.
          </p>
        )}
      </Section>
    </div>
  );
}

/** `/vendor/products/:id`: reads the product, then edits it. */
export function LoadedProductEditor({ id }: { id: string }) {
  return (
    <LoadedEditor
      id={id}
      fetch={fetchVendorProduct}
      noun="product"
      back={{ to: '/vendor/products', label: 'Back to products' }}
    >
      {(product) => <VendorProductEditor key={id} product={product} />}
    </LoadedEditor>
  );
}
