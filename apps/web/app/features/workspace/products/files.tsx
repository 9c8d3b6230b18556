// "Files and guide" of the product editor (issue 29): each platform's current and earlier versions
// with their download counts, a new version (file or link) as a draft, its release notes and
// Publish, roll-back, and the set-up guide with the updates promise.
import {
  DELIVERABLE_MAX_BYTES,
  deliverableMessages as m,
  deliverablePlatformLabels,
  deliverablePlatforms,
  deliverableExtensions,
  deliverableVersionPattern,
  linkPlatforms,
  updatePolicies,
  updatePolicyLabels,
  type DeliverablePlatform,
  type UpdatePolicy,
} from '@tradeshelf/contract/client';
import type { ApiError, VendorDelivery, VendorDeliverableVersion } from '@tradeshelf/contract';
import { useId, useState } from 'react';
import { ConfirmButton } from '../../../components/confirm-step.tsx';
import { Screen } from '../../../components/screen.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { imageFileProblem, UploadControl } from '../../../components/upload-control.tsx';
import { Button, Field, FormError } from '../../../components/ui.tsx';
import { formatBytes } from '../../../lib/bytes.ts';
import { countLabel, formatDate } from '../../../lib/format.ts';
import { MarkdownField } from '../markdown-field.tsx';
import { useAction, useRead } from '../request.ts';
import {
  addDeliverableLink,
  addGuideImage,
  deleteDeliverableDraft,
  fetchVendorDelivery,
  makeDeliverableCurrent,
  publishDeliverable,
  saveDeliverySettings,
  uploadDeliverable,
  type DeliveryChange,
} from './files-api.ts';
import { SelectField } from '../../../components/select-field.tsx';

const isLink = (p: DeliverablePlatform) => linkPlatforms.includes(p);
const label = (p: DeliverablePlatform) => deliverablePlatformLabels[p];

/** What a version is: its file and size, or its link. */
function whatItIs(v: VendorDeliverableVersion) {
  if (v.link) return v.link;
  return [v.fileName, v.sizeBytes !== null ? formatBytes(v.sizeBytes) : null]
    .filter(Boolean)
    .join(', ');
}

/** Refuses, before sending, a file this platform does not take (the server checks the bytes too). */
export function checkDeliverableFile(platform: DeliverablePlatform, file: File): string | null {
  const name = file.name.toLowerCase();
  if (!deliverableExtensions[platform].some((ext) => name.endsWith(ext))) return m.wrongType;
  if (file.size > DELIVERABLE_MAX_BYTES) return m.tooLarge;
  return null;
}

/** The published versions by platform, the current one first, then newest first. */
export function publishedByPlatform(delivery: VendorDelivery) {
  const groups = new Map<DeliverablePlatform, VendorDeliverableVersion[]>();
  for (const v of delivery.versions) {
    if (!v.publishedAt) continue;
    groups.set(v.platform, [...(groups.get(v.platform) ?? []), v]);
  }
  return deliverablePlatforms
    .filter((p) => groups.has(p))
    .map((platform) => {
      const versions = groups.get(platform)!;
      return {
        platform,
        current: versions.find((v) => v.current) ?? null,
        earlier: versions.filter((v) => !v.current),
      };
    });
}

/** Server field messages not shown at a field of this form go in its banner (once). */
const banner = (error: ApiError | null, shows: readonly string[]) => (
  <FormError error={error} shows={shows} />
);

export function ProductFiles({ productId }: { productId: string }) {
  const read = useRead(fetchVendorDelivery, productId);
  return (
    <Screen read={read} onRetry={() => void read.reload()} loading="Loading the files…">
      {(delivery) => <FilesEditor delivery={delivery} onChange={read.set} />}
    </Screen>
  );
}

function FilesEditor({
  delivery,
  onChange,
}: {
  delivery: VendorDelivery;
  onChange: (d: VendorDelivery) => void;
}) {
  const drafts = delivery.versions.filter((v) => !v.publishedAt);
  const platforms = publishedByPlatform(delivery);
  return (
    <div className="flex flex-col gap-6" data-testid="product-files">
      <p className="text-sm text-slate-400">
        What buyers download, per platform. Upload a version as a draft, write its release notes,
        then publish it: it becomes the version buyers download, and owners who get updates are told
        by e-mail.
      </p>
      {platforms.length === 0 && drafts.length === 0 && (
        <p className="text-sm text-slate-300">No files yet.</p>
      )}
      {platforms.map((g) => (
        <PlatformVersions
          key={g.platform}
          productId={delivery.productId}
          platform={g.platform}
          current={g.current}
          earlier={g.earlier}
          onChange={onChange}
        />
      ))}
      {drafts.map((v) => (
        <Draft key={v.id} productId={delivery.productId} version={v} onChange={onChange} />
      ))}
      <NewVersion productId={delivery.productId} onChange={onChange} />
      <GuideAndPolicy delivery={delivery} onChange={onChange} />
    </div>
  );
}

function VersionLine({ v }: { v: VendorDeliverableVersion }) {
  return (
    <p className="text-sm break-words text-slate-300">
      <span className="font-semibold text-white">v{v.version}</span> · {whatItIs(v)} · released{' '}
      <time dateTime={v.releasedAt}>{formatDate(v.releasedAt)}</time> ·{' '}
      <span data-testid="version-downloads">{countLabel(v.downloads, 'download')}</span>
    </p>
  );
}

function PlatformVersions({
  productId,
  platform,
  current,
  earlier,
  onChange,
}: {
  productId: string;
  platform: DeliverablePlatform;
  current: VendorDeliverableVersion | null;
  earlier: VendorDeliverableVersion[];
  onChange: (d: VendorDelivery) => void;
}) {
  const toast = useToast();
  const makeCurrent = useAction(makeDeliverableCurrent);
  return (
    <section
      aria-label={`${label(platform)} versions`}
      className="flex flex-col gap-2 rounded-xl border border-ink-700 p-4"
    >
      <h3 className="font-semibold text-white">{label(platform)}</h3>
      {current && (
        <div data-testid="current-version">
          <p className="text-xs tracking-wide text-brand-300 uppercase">Current</p>
          <VersionLine v={current} />
        </div>
      )}
      {earlier.length > 0 && (
        <div className="flex flex-col gap-2">
          <p className="text-xs tracking-wide text-slate-400 uppercase">Earlier versions</p>
          <ul className="flex flex-col gap-2">
            {earlier.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center justify-between gap-2">
                <VersionLine v={v} />
                <ConfirmButton
                  label="Make current"
                  ariaLabel={`Make v${v.version} current`}
                  question={`Make v${v.version} the version buyers download? Nobody is e-mailed.`}
                  confirmLabel={`Make v${v.version} current`}
                  tone="primary"
                  busy={makeCurrent.busy}
                  error={makeCurrent.error?.error ?? null}
                  onConfirm={async () => {
                    const done = await makeCurrent.run({ productId, versionId: v.id });
                    if (!done) return false;
                    onChange(done.delivery);
                    toast(done.message ?? m.madeCurrent);
                    return true;
                  }}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function Draft({
  productId,
  version: v,
  onChange,
}: {
  productId: string;
  version: VendorDeliverableVersion;
  onChange: (d: VendorDelivery) => void;
}) {
  const toast = useToast();
  const [notes, setNotes] = useState(v.notes);
  const publish = useAction(publishDeliverable);
  const remove = useAction(deleteDeliverableDraft);
  const fields = publish.error?.fields ?? {};
  return (
    <section
      aria-label={`Draft v${v.version} for ${label(v.platform)}`}
      data-testid="draft-version"
      className="flex flex-col gap-3 rounded-xl border border-amber-500/40 p-4"
    >
      <div>
        <h3 className="font-semibold text-white">
          Draft v{v.version} for {label(v.platform)}
        </h3>
        <p className="text-sm break-words text-slate-300">{whatItIs(v)}</p>
      </div>
      <MarkdownField
        label={`Release notes for v${v.version}`}
        value={notes}
        onChange={setNotes}
        error={fields.notes}
      />
      {banner(publish.error, ['notes'])}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          loading={publish.busy}
          disabled={remove.busy}
          onClick={async () => {
            const done = await publish.run({ productId, versionId: v.id, notes });
            if (!done) return;
            onChange(done.delivery);
            toast(done.message ?? m.published);
          }}
        >
          Publish v{v.version}
        </Button>
        <ConfirmButton
          label="Delete draft"
          ariaLabel={`Delete draft v${v.version}`}
          question={`Delete draft v${v.version} and its file?`}
          confirmLabel="Delete draft"
          cancelLabel="Keep"
          busy={remove.busy}
          disabled={publish.busy}
          error={remove.error?.error ?? null}
          onConfirm={async () => {
            const done = await remove.run({ productId, versionId: v.id });
            if (!done) return false;
            onChange(done.delivery);
            return true;
          }}
        />
      </div>
    </section>
  );
}

/** Field messages this form shows at its fields; any other goes in the banner. */
const NEW_VERSION_FIELDS = ['platform', 'version', 'url', 'file'] as const;

function NewVersion({
  productId,
  onChange,
}: {
  productId: string;
  onChange: (d: VendorDelivery) => void;
}) {
  const id = useId();
  const toast = useToast();
  const [platform, setPlatform] = useState<DeliverablePlatform>('mt5');
  const [version, setVersion] = useState('');
  const [url, setUrl] = useState('');
  // A new upload control per finished upload: it starts empty for the next file.
  const [round, setRound] = useState(0);
  const upload = useAction(uploadDeliverable);
  const link = useAction(addDeliverableLink);
  const failure = isLink(platform) ? link.error : upload.error;
  const fields = failure?.fields ?? {};
  const trimmed = version.trim();
  const versionOk = deliverableVersionPattern.test(trimmed);
  const versionError = fields.version ?? (trimmed && !versionOk ? m.version : undefined);

  const added = (done: DeliveryChange) => {
    onChange(done.delivery);
    setVersion('');
    setUrl('');
    setRound((r) => r + 1);
    toast(`Draft v${trimmed} added. Write its release notes, then publish it.`);
  };

  return (
    <section
      aria-labelledby={`${id}-t`}
      className="flex flex-col gap-3 rounded-xl border border-ink-700 p-4"
    >
      <h3 id={`${id}-t`} className="font-semibold text-white">
        Upload a new version
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Platform"
          value={platform}
          options={deliverablePlatforms.map((p) => [p, label(p)] as const)}
          onChange={(p) => {
            if (!p) return;
            setPlatform(p);
            upload.reset();
            link.reset();
          }}
          error={fields.platform}
        />
        <Field
          label="Version number"
          placeholder="2.4"
          value={version}
          error={versionError}
          hint="Such as 2.4 or 1.2.0."
          onChange={(e) => {
            setVersion(e.target.value);
            if (fields.version) {
              upload.reset();
              link.reset();
            }
          }}
        />
      </div>
      {isLink(platform) ? (
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!versionOk) return;
            const done = await link.run({ productId, platform, version: trimmed, url: url.trim() });
            if (done) added(done);
          }}
        >
          <Field
            label="Shared-item link"
            type="url"
            placeholder="https://tos.mx/…"
            value={url}
            error={fields.url}
            hint={m.linkOnly}
            onChange={(e) => setUrl(e.target.value)}
          />
          {banner(link.error, NEW_VERSION_FIELDS)}
          <Button
            type="submit"
            className="self-start"
            loading={link.busy}
            disabled={!versionOk || !url.trim()}
          >
            Add the link as a draft
          </Button>
        </form>
      ) : (
        <>
          <UploadControl
            key={`${platform}-${round}`}
            label={`File for ${label(platform)} (${deliverableExtensions[platform].join(', ')}; up to 200 MB)`}
            accept={deliverableExtensions[platform].join(',')}
            disabled={!versionOk}
            hint={versionOk ? undefined : 'Give the version number first.'}
            check={(file) => checkDeliverableFile(platform, file)}
            // The version and platform messages are said at their fields, not again here.
            error={
              upload.error && (fields.version || fields.platform)
                ? { ...upload.error, error: 'See the message above.', fields: {} }
                : upload.error
            }
            upload={async (run) => {
              const done = await upload.run({ productId, platform, version: trimmed, ...run });
              if (done) added(done);
              return done !== null;
            }}
          />
          {/* Messages without a field here are the upload control's own; others go above it. */}
          {upload.error?.fields && <FormError error={upload.error} shows={NEW_VERSION_FIELDS} />}
        </>
      )}
    </section>
  );
}

/** A picture for the guide: uploaded at once, then added to the text as Markdown to describe. */
function GuidePicture({
  productId,
  onAdded,
}: {
  productId: string;
  onAdded: (markdown: string) => void;
}) {
  const upload = useAction(addGuideImage);
  return (
    <UploadControl
      label="Add a picture to the guide"
      accept="image/png,image/jpeg,image/webp"
      hint="A screenshot of a setting or a chart: PNG, JPEG or WebP, up to 2 MB. Only owners see the guide."
      check={imageFileProblem}
      upload={async (run) => {
        const added = await upload.run({ productId, ...run });
        if (added) onAdded(added.markdown);
        return Boolean(added);
      }}
      error={upload.error}
      doneText={(file) => `${file.name} added to the guide.`}
    />
  );
}

function GuideAndPolicy({
  delivery,
  onChange,
}: {
  delivery: VendorDelivery;
  onChange: (d: VendorDelivery) => void;
}) {
  const id = useId();
  const toast = useToast();
  const [guide, setGuide] = useState(delivery.guide);
  const [policy, setPolicy] = useState<UpdatePolicy>(delivery.updatePolicy);
  const save = useAction(saveDeliverySettings);
  const fields = save.error?.fields ?? {};
  const dirty = guide !== delivery.guide || policy !== delivery.updatePolicy;
  return (
    <form
      noValidate
      aria-labelledby={`${id}-t`}
      className="flex flex-col gap-3 rounded-xl border border-ink-700 p-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const done = await save.run({
          productId: delivery.productId,
          body: { guide, updatePolicy: policy },
        });
        if (!done) return;
        onChange(done.delivery);
        setGuide(done.delivery.guide);
        setPolicy(done.delivery.updatePolicy);
        toast(done.message ?? m.saved);
      }}
    >
      <h3 id={`${id}-t`} className="font-semibold text-white">
        Set-up guide and updates
      </h3>
      <MarkdownField
        label="Set-up guide"
        value={guide}
        onChange={setGuide}
        error={fields.guide}
        image={(src) => src.includes(`/public/guides/${delivery.productId}/`)}
      >
        <GuidePicture
          productId={delivery.productId}
          onAdded={(markdown) => {
            setGuide((g) => `${g.trimEnd() ? `${g.trimEnd()}\n\n` : ''}${markdown}\n`);
            toast(m.guideImageAdded);
          }}
        />
      </MarkdownField>
      <SelectField
        label="Updates buyers get"
        value={policy}
        options={updatePolicies.map((p) => [p, updatePolicyLabels[p]] as const)}
        onChange={(p) => p && setPolicy(p)}
        error={fields.updatePolicy}
        hint="Subscribers get every version while their subscription runs."
      />
      {banner(save.error, ['guide', 'updatePolicy'])}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" className="self-start" loading={save.busy}>
          Save guide and updates
        </Button>
        {dirty && <span className="text-sm text-slate-400">Unsaved changes</span>}
        {delivery.guideUpdatedAt && (
          <span className="text-sm text-slate-400">
            Guide last saved{' '}
            <time dateTime={delivery.guideUpdatedAt}>{formatDate(delivery.guideUpdatedAt)}</time>
          </span>
        )}
      </div>
    </form>
  );
}
