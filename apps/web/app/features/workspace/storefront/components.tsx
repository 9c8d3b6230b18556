import {
  normaliseVendorUrl,
  socialLinkExamples,
  socialLinkKinds,
  socialLinkLabels,
  STOREFRONT_BIO_MAX,
  storefrontMessages as m,
  validateVendorUrl,
  VENDOR_URL_MIN,
  vendorUrlMessages,
  type SocialLinkKind,
  type StorefrontImageKind,
} from '@tradeshelf/contract/client';
import type { Storefront, StorefrontBody, VendorUrlAvailability } from '@tradeshelf/contract';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ConfirmButton, ConfirmStep } from '../../../components/confirm-step.tsx';
import { imageFileProblem, UploadControl } from '../../../components/upload-control.tsx';
import { PublicPageLink } from '../screen-kit.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Button, Field, FormError } from '../../../components/ui.tsx';
import { ImageOrLetters } from '../../../components/avatar.tsx';
import { Picture } from '../../../lib/images.tsx';
import { useAction } from '../request.ts';
import {
  checkVendorUrl,
  removeStorefrontImage,
  saveStorefront,
  uploadStorefrontImage,
  type ImageUpload as ImageUploadArg,
} from './api.ts';
import {
  initialValues,
  toBody,
  validateStorefront,
  type FieldErrors,
  type StorefrontValues,
} from './form.ts';
import { TextAreaField } from '../../../components/textarea-field.tsx';

/** The storefront's header as buyers will see it on `/v/<address>`, drawn from the form as typed. */
export function HeaderPreview({
  values,
  storefront,
}: {
  values: StorefrontValues;
  storefront: Storefront | null;
}) {
  const links = socialLinkKinds.filter((k) => values.socialLinks[k].trim());
  const name = values.displayName.trim() || 'Your storefront';
  return (
    <section
      aria-label="Preview of your storefront’s header"
      className="overflow-hidden rounded-2xl border border-ink-700 bg-ink-900"
    >
      {storefront?.banner ? (
        <Picture
          image={storefront.banner}
          alt=""
          sizes="(min-width: 1024px) 720px, 100vw"
          className="h-28 w-full object-cover sm:h-36"
        />
      ) : (
        <div
          aria-hidden
          className="h-24 bg-gradient-to-r from-brand-600/40 via-indigo-600/30 to-fuchsia-600/30 sm:h-32"
        />
      )}
      <div className="flex gap-4 p-5">
        <ImageOrLetters
          image={storefront?.avatar}
          letters={name.charAt(0).toUpperCase()}
          size={64}
          box="h-16 w-16 rounded-full border border-ink-600"
          tile="bg-ink-700 text-2xl text-slate-300"
        />
        <div className="flex min-w-0 flex-col gap-1.5">
          <p className="truncate text-xl font-extrabold text-white">{name}</p>
          <p className="text-xs text-slate-400">
            tradeshelf · /v/{normaliseVendorUrl(values.vendorUrl) || 'your-address'}
          </p>
          {values.bio.trim() && (
            <p className="line-clamp-3 whitespace-pre-line text-sm text-slate-300">
              {values.bio.trim()}
            </p>
          )}
          {links.length > 0 && (
            <p className="flex flex-wrap gap-3 text-sm text-brand-400">
              {links.map((k) => (
                <span key={k}>{socialLinkLabels[k]}</span>
              ))}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

/** Says whether the address is free while the vendor types (after a pause), as the server sees it. */
function useAddressCheck(value: string, current: string | null) {
  const check = useAction<string, VendorUrlAvailability>(checkVendorUrl);
  const { run, reset } = check;
  const address = normaliseVendorUrl(value);
  const wellFormed = !validateVendorUrl(address) || address === current;
  useEffect(() => {
    if (!address || !wellFormed || address === current) {
      reset();
      return;
    }
    const timer = setTimeout(() => void run(address), 400);
    return () => clearTimeout(timer);
  }, [address, wellFormed, current, run, reset]);
  if (address && address === current) return { tone: 'ok' as const, text: vendorUrlMessages.yours };
  const data = check.data;
  if (!wellFormed || !data || data.vendorUrl !== address) return null;
  return { tone: data.available ? ('ok' as const) : ('bad' as const), text: data.message };
}

/**
 * Address, name, bio and links, checked with the contract's rules as typed and again by the server
 * (its field messages replace these). Changing the address of a saved storefront asks first.
 */
export function StorefrontForm({
  storefront,
  onSaved,
  values,
  setValues,
}: {
  storefront: Storefront | null;
  onSaved: (s: Storefront) => void;
  values: StorefrontValues;
  setValues: (v: StorefrontValues) => void;
}) {
  const toast = useToast();
  const save = useAction<StorefrontBody, Storefront>(saveStorefront);
  const [touched, setTouched] = useState(false);
  const [asking, setAsking] = useState<StorefrontBody | null>(null);
  const submitId = useId();
  const address = useAddressCheck(values.vendorUrl, storefront?.vendorUrl ?? null);
  const local = validateStorefront(
    values,
    storefront?.vendorUrl ?? null,
    storefront?.displayName ?? null,
  );
  // The server's field messages (a taken address) stand until the next edit.
  const fromServer = save.error?.fields ?? {};
  // The address is checked as it is typed (once it is long enough to be one), like its availability.
  const live: FieldErrors =
    local.vendorUrl && normaliseVendorUrl(values.vendorUrl).length >= VENDOR_URL_MIN
      ? { vendorUrl: local.vendorUrl }
      : {};
  const errors: FieldErrors = { ...(touched ? local : {}), ...live, ...fromServer };
  const { reset } = save;
  const set = (patch: Partial<StorefrontValues>) => {
    setValues({ ...values, ...patch });
    if (save.error) reset();
  };
  const setLink = (kind: SocialLinkKind, v: string) =>
    set({ socialLinks: { ...values.socialLinks, [kind]: v } });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (Object.keys(local).length) return;
    const body = toBody(values);
    // A new address is asked about first: the old one redirects and can never be taken back.
    if (storefront && body.vendorUrl !== storefront.vendorUrl) setAsking(body);
    else await send(body);
  };
  const send = async (body: StorefrontBody) => {
    const saved = await save.run(body);
    setAsking(null);
    if (saved) {
      toast(storefront ? m.saved : m.created);
      onSaved(saved);
      setValues(initialValues(saved));
    }
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
      <FormError error={save.error} />
      <Field
        label="Storefront address"
        value={values.vendorUrl}
        onChange={(e) => set({ vendorUrl: e.target.value })}
        onBlur={() => setTouched(true)}
        autoComplete="off"
        spellCheck={false}
        placeholder="my-trading-tools"
        error={errors.vendorUrl}
        hint={
          <span
            aria-live="polite"
            className={
              address?.tone === 'bad'
                ? 'text-rose-400'
                : address?.tone === 'ok'
                  ? 'text-brand-300'
                  : undefined
            }
          >
            {address?.text ??
              `Your storefront lives at /v/${normaliseVendorUrl(values.vendorUrl) || 'your-address'}.`}
            {storefront && ` ${storefront.renamesLeft} address changes left.`}
          </span>
        }
      />
      <Field
        label="Name"
        value={values.displayName}
        onChange={(e) => set({ displayName: e.target.value })}
        autoComplete="organization"
        error={errors.displayName}
      />
      <TextAreaField
        label="Bio"
        value={values.bio}
        onChange={(bio) => set({ bio })}
        error={errors.bio}
        hint={`${values.bio.trim().length} / ${STOREFRONT_BIO_MAX} characters`}
      />
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium text-slate-200">Links (https only)</legend>
        {errors.socialLinks && <p className="text-sm text-rose-400">{errors.socialLinks}</p>}
        <div className="grid gap-3 sm:grid-cols-2">
          {socialLinkKinds.map((kind) => (
            <Field
              key={kind}
              label={socialLinkLabels[kind]}
              type="url"
              inputMode="url"
              value={values.socialLinks[kind]}
              placeholder={socialLinkExamples[kind]}
              onChange={(e) => setLink(kind, e.target.value)}
              error={errors[`socialLinks.${kind}`]}
            />
          ))}
        </div>
      </fieldset>
      {asking && storefront && (
        <ConfirmStep
          tone="primary"
          title={`Change your address to /v/${asking.vendorUrl}?`}
          confirmLabel="Change the address"
          busy={save.busy}
          error={null}
          returnFocusTo={submitId}
          onConfirm={() => void send(asking)}
          onCancel={() => setAsking(null)}
        >
          <p>
            Links to /v/{storefront.vendorUrl} will redirect to the new address, and no one else can
            take the old one.
          </p>
        </ConfirmStep>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {!asking && (
          <Button id={submitId} type="submit" loading={save.busy}>
            {storefront ? 'Save storefront' : 'Create storefront'}
          </Button>
        )}
        {storefront && <PublicPageLink href={storefront.path}>View your storefront</PublicPageLink>}
      </div>
      {storefront && storefront.previousUrls.length > 0 && (
        <p className="text-sm text-slate-400">
          Old addresses that redirect here:{' '}
          {storefront.previousUrls.map((u) => `/v/${u}`).join(', ')}
        </p>
      )}
    </form>
  );
}

const imageCopy: Record<StorefrontImageKind, { label: string; hint: string }> = {
  avatar: { label: 'Logo', hint: 'Square, at least 256 × 256 px. PNG, JPEG or WebP up to 2 MB.' },
  banner: {
    label: 'Banner',
    hint: 'Wide (3:1), at least 1200 × 400 px. PNG, JPEG or WebP up to 2 MB.',
  },
};

/** Picks, checks and uploads one picture (the kit's upload control); removes it after asking. */
export function ImageUpload({
  kind,
  storefront,
  onSaved,
}: {
  kind: StorefrontImageKind;
  storefront: Storefront | null;
  onSaved: (s: Storefront) => void;
}) {
  const toast = useToast();
  const upload = useAction<ImageUploadArg, Storefront>(uploadStorefrontImage);
  const remove = useAction<StorefrontImageKind, Storefront>(removeStorefrontImage);
  const current = kind === 'avatar' ? storefront?.avatar : storefront?.banner;
  const copy = imageCopy[kind];
  const name = copy.label.toLowerCase();

  return (
    <div className="flex flex-col gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4">
      {current && (
        <Picture
          image={current}
          alt={`Your ${name}`}
          sizes={kind === 'avatar' ? '96px' : '320px'}
          className={
            kind === 'avatar' ? 'h-24 w-24 rounded-full object-cover' : 'h-20 w-full object-cover'
          }
        />
      )}
      <UploadControl
        label={copy.label}
        accept="image/png,image/jpeg,image/webp"
        hint={storefront ? copy.hint : m.setUpFirst}
        disabled={!storefront}
        check={imageFileProblem}
        error={upload.error}
        upload={async (run) => {
          const saved = await upload.run({ kind, ...run });
          if (saved) {
            toast(m.imageSaved);
            onSaved(saved);
          }
          return saved !== null;
        }}
      />
      {current && (
        <ConfirmButton
          label={`Remove ${name}`}
          question={`Remove your ${name}?`}
          confirmLabel={`Remove ${name}`}
          busy={remove.busy}
          error={remove.error?.error ?? null}
          onConfirm={async () => {
            const saved = await remove.run(kind);
            if (!saved) return false;
            toast(m.imageRemoved);
            onSaved(saved);
          }}
        />
      )}
    </div>
  );
}
