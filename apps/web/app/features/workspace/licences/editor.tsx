// An app's licence policy: terms, signing keys (copy, rotate) and builds (upload with progress).
import {
  bindingRules,
  LICENCE_BUILD_ACCEPT,
  licenceBindings,
  vendorLicenceMessages as m,
} from '@tradeshelf/contract/client';
import type { LicencePolicyBody, SigningKey, VendorLicencePolicy } from '@tradeshelf/contract';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { ConfirmButton } from '../../../components/confirm-step.tsx';
import { UploadControl } from '../../../components/upload-control.tsx';
import { formatBytes } from '../courses/index.ts';
import { useAction, useRead } from '../request.ts';
import * as api from './api.ts';
import { buildFileProblem, policyBody, versionProblem, type PolicyForm } from './policy.ts';
import { SelectField } from '../../../components/select-field.tsx';
import { BackLink, ReadFailed } from '../screen-kit.tsx';

const appList = { to: '/vendor/licences', label: 'Back to your apps' };

export function LicencePolicyEditor({ productId }: { productId: string }) {
  const read = useRead<string, VendorLicencePolicy>(api.fetchLicencePolicy, productId);
  if (read.status === 'failure' && !read.data) return <ReadFailed read={read} back={appList} />;
  if (!read.data) return <p className="text-slate-400">Loading the licence terms…</p>;
  const policy = read.data;
  return (
    <div className="flex flex-col gap-8">
      <div>
        <BackLink to="/vendor/licences">Licences</BackLink>
        <h1 className="mt-1 text-2xl font-bold text-white">{policy.app.title}</h1>
        <p className="mt-1 text-sm text-slate-400">
          {policy.app.counts.issued} licences issued · {policy.app.counts.active} active ·{' '}
          {policy.app.counts.activations} devices
        </p>
      </div>
      <TermsForm policy={policy} set={read.set} />
      <Keys policy={policy} set={read.set} />
      <Builds policy={policy} set={read.set} />
    </div>
  );
}

type Set = (p: VendorLicencePolicy) => void;

function TermsForm({ policy, set }: { policy: VendorLicencePolicy; set: Set }) {
  const save = useAction<{ productId: string; body: LicencePolicyBody }, VendorLicencePolicy>(
    api.saveLicencePolicy,
  );
  const [form, setForm] = useState<PolicyForm>({
    maxActivations: String(policy.app.maxActivations),
    binding: policy.app.binding ?? '',
  });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const checked = policyBody(form);
    setProblems(checked.problems ?? {});
    if (!checked.body) return;
    const res = await save.run({ productId: policy.app.productId, body: checked.body });
    if (res) {
      set(res);
      setSaved(true);
    }
  }
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4">
      <h2 className="text-lg font-semibold text-white">Licence terms</h2>
      <p className="text-sm text-slate-400">
        Changes apply to every licence of this app from its next activation. Devices already
        activated stay.
      </p>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <Field
          label="Activations per licence"
          inputMode="numeric"
          value={form.maxActivations}
          onChange={(e) => setForm({ ...form, maxActivations: e.currentTarget.value })}
          error={problems.maxActivations ?? save.error?.fields?.maxActivations ?? null}
        />
        <SelectField
          label="Binding preset"
          value={form.binding}
          options={licenceBindings.map((b) => [b, bindingRules[b].label] as const)}
          onChange={(binding) => setForm({ ...form, binding })}
          empty="Any preset (the app chooses)"
          error={save.error?.fields?.binding}
          hint={
            form.binding
              ? bindingRules[form.binding].message
              : 'Activations may use a MetaTrader account, a NinjaTrader machine id or a device id.'
          }
        />
        <FormError error={save.error} />
        {saved && <Alert tone="success">{m.saved}</Alert>}
        <div>
          <Button type="submit" loading={save.busy}>
            Save terms
          </Button>
        </div>
      </form>
    </section>
  );
}

function Keys({ policy, set }: { policy: VendorLicencePolicy; set: Set }) {
  const rotate = useAction<void, SigningKey[]>(api.rotateSigningKey);
  const [copied, setCopied] = useState<string | null>(null);
  const [current, ...retired] = policy.keys;
  async function copy(text: string, what: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${what} copied.`);
    } catch {
      setCopied('Copy failed: select the key and copy it by hand.');
    }
  }
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4">
      <h2 className="text-lg font-semibold text-white">Signing key</h2>
      <p className="text-sm text-slate-400">
        Validation answers for all your apps are signed with this Ed25519 key. Embed the public key
        in your app; it is also published at{' '}
        <code className="text-slate-300">
          /api/v1/licence/vendors/{policy.vendorUrl}/public-key
        </code>
        .
      </p>
      {current && (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-slate-300">
            Key id <code>{current.keyId}</code> · made {formatDateTime(current.createdAt)} · signs
            for {current.licences} licences
          </p>
          <pre
            aria-label="Public key (PEM)"
            className="overflow-x-auto rounded-lg border border-ink-600 bg-ink-950 p-3 text-xs text-slate-200"
          >
            {current.publicKeyPem}
          </pre>
          <div className="flex flex-wrap gap-2">
            {(
              [
                [current.publicKeyPem, 'PEM key', 'Copy public key (PEM)'],
                [current.publicKeyRaw, 'Raw key', 'Copy raw key (base64)'],
              ] as const
            ).map(([key, what, label]) => (
              <Button key={what} type="button" variant="ghost" onClick={() => copy(key, what)}>
                {label}
              </Button>
            ))}
          </div>
          <p role="status" className="text-sm text-brand-300">
            {copied}
          </p>
        </div>
      )}
      <ConfirmButton
        label="Rotate key"
        question="Make a new signing key for all your apps? Licences issued so far keep getting answers signed with the current key, so installed apps keep working. Licences sold from now on use the new key: ship a build that embeds it."
        confirmLabel="Make a new key"
        busy={rotate.busy}
        onConfirm={async () => {
          const keys = await rotate.run(undefined);
          if (keys) {
            set({ ...policy, keys });
            setCopied(m.rotated);
          }
        }}
      />
      {rotate.error && <Alert>{rotate.error.error}</Alert>}
      {retired.length > 0 && (
        <div className="flex flex-col gap-1">
          <h3 className="font-semibold text-white">Retired keys</h3>
          <ul className="flex flex-col gap-1 text-sm text-slate-300">
            {retired.map((k) => (
              <li key={k.keyId} className="flex flex-wrap items-center gap-2">
                <span className="flex-1">
                  <code>{k.keyId}</code> · retired {formatDateTime(k.retiredAt!)} · still signs for{' '}
                  {k.licences} licences
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  className="px-3 py-1.5"
                  aria-label={`Copy retired key ${k.keyId}`}
                  onClick={() => copy(k.publicKeyPem, `Key ${k.keyId}`)}
                >
                  Copy
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function Builds({ policy, set }: { policy: VendorLicencePolicy; set: Set }) {
  const upload = useAction<Parameters<typeof api.uploadBuild>[0], VendorLicencePolicy>(
    api.uploadBuild,
  );
  const [version, setVersion] = useState('');
  const problem = version ? versionProblem(version) : null;
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4">
      <h2 className="text-lg font-semibold text-white">Builds</h2>
      <p className="text-sm text-slate-400">
        Buyers with a live licence download the newest build from their apps page.
      </p>
      {policy.builds.length === 0 ? (
        <p className="text-sm text-slate-400">No build yet.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm text-slate-300">
          {policy.builds.map((b, i) => (
            <li key={b.id}>
              {b.version} · {b.fileName} · {formatBytes(b.sizeBytes)} ·{' '}
              {formatDateTime(b.publishedAt)}
              {i === 0 && <span className="ml-2 text-brand-300">current</span>}
            </li>
          ))}
        </ul>
      )}
      <Field
        label="Version of the new build"
        value={version}
        placeholder="1.2.0"
        onChange={(e) => setVersion(e.currentTarget.value)}
        error={problem}
      />
      <UploadControl
        label="Upload a build"
        accept={LICENCE_BUILD_ACCEPT}
        hint="ZIP or tar.gz, or a Windows program or installer, up to 100 MB."
        error={upload.error}
        check={(file) => versionProblem(version) ?? buildFileProblem(file)}
        upload={async (run) => {
          const res = await upload.run({
            productId: policy.app.productId,
            version: version.trim(),
            ...run,
          });
          if (res) {
            set(res);
            setVersion('');
          }
          return res !== null;
        }}
      />
    </section>
  );
}
