import type { ApiError } from '@tradeshelf/contract';
import type { VendorProductStatus } from '@tradeshelf/contract/client';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button, Field, FormError, formLevelMessage } from '../../../components/ui.tsx';
import { ConfirmButton } from '../../../components/confirm-step.tsx';
import { MarkdownField } from '../markdown-field.tsx';
import { Loading } from '../../../components/screen.tsx';
import { useAction, useRead, type Thunk } from '../request.ts';
import { ConflictNotice, EditorHeading } from './status.tsx';
import { PublicPageLink, ReadFailed } from '../screen-kit.tsx';

/** What a listing editor edits: a saved draft that knows when it was last saved. */
interface Listing {
  id: string;
  updatedAt: string;
  title: string;
  status: VendorProductStatus;
  publicPath: string;
}

type Problems = Record<string, string>;

/**
 * The save, conflict, publish and unpublish cycle that the product and bundle editors share. A save
 * says which version it started from (`baseUpdatedAt`), so another tab's edit is never overwritten
 * unseen (409); the vendor then loads that version or replaces it.
 */
export function useDraftEditor<L extends Listing, Form, Input, PublishArg>(spec: {
  initial: L | null;
  empty: () => Form;
  fromListing: (listing: L) => Form;
  /** The form's own checks, per field. */
  check: (form: Form) => Problems;
  /** What publishing needs beyond a valid form, per field. */
  publishProblems: (form: Form) => Problems;
  toInput: (form: Form) => Input;
  /** Where a new draft lives once saved. */
  pathOf: (id: string) => string;
  create: Thunk<Input, L>;
  update: Thunk<{ id: string; body: Input & { baseUpdatedAt?: string } }, L>;
  fetch: Thunk<string, L>;
  publish: Thunk<PublishArg, L>;
  /** The publish call for the saved listing, from the form it was saved from. */
  publishArg: (listing: L, form: Form) => PublishArg;
  unpublish: Thunk<string, L>;
  said: { saved: string; published: string; unpublished: string };
}) {
  const navigate = useNavigate();
  const toast = useToast();
  const [listing, setListing] = useState<L | null>(spec.initial);
  const [form, setFormState] = useState<Form>(() =>
    spec.initial ? spec.fromListing(spec.initial) : spec.empty(),
  );
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Problems>({});
  const create = useAction(spec.create);
  const update = useAction(spec.update);
  const latest = useAction(spec.fetch);
  const publish = useAction(spec.publish);
  const unpublish = useAction(spec.unpublish);
  const busy = create.busy || update.busy || publish.busy || unpublish.busy;
  const failure = create.error ?? update.error ?? publish.error ?? unpublish.error;

  const setForm = (next: Form) => {
    setFormState(next);
    setDirty(true);
  };
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm({ ...form, [key]: value });
  const show = (saved: L) => {
    setListing(saved);
    setFormState(spec.fromListing(saved));
    setDirty(false);
    setErrors({});
  };

  /** Saves the form; answers the saved listing, or null with the messages shown. */
  const save = async (replace = false): Promise<L | null> => {
    const problems = spec.check(form);
    setErrors(problems);
    if (Object.keys(problems).length) return null;
    publish.reset();
    unpublish.reset();
    const body = spec.toInput(form);
    const base: { baseUpdatedAt?: string } =
      replace || !listing ? {} : { baseUpdatedAt: listing.updatedAt };
    const saved = listing
      ? await update.run({ id: listing.id, body: { ...body, ...base } })
      : await create.run(body);
    if (!saved) return null;
    show(saved);
    if (!listing) navigate(spec.pathOf(saved.id), { replace: true });
    return saved;
  };

  const onSave = async (replace = false) => {
    if (await save(replace)) toast(spec.said.saved);
  };
  // The other tab's version replaces what is typed here, by the vendor's choice.
  const loadLatest = async () => {
    if (!listing) return;
    const fresh = await latest.run(listing.id);
    if (!fresh) return;
    update.reset();
    show(fresh);
    toast('Loaded the latest version.');
  };
  const onPublish = async () => {
    const missing = spec.publishProblems(form);
    if (Object.keys(missing).length) {
      setErrors({ ...spec.check(form), ...missing });
      return;
    }
    const saved = dirty || !listing ? await save() : listing;
    if (!saved) return;
    const published = await publish.run(spec.publishArg(saved, form));
    if (published) {
      setListing(published);
      toast(spec.said.published);
    }
  };
  const onUnpublish = async () => {
    if (!listing) return;
    const done = await unpublish.run(listing.id);
    if (done) {
      setListing(done);
      toast(spec.said.unpublished);
    }
  };

  return {
    listing,
    setListing,
    form,
    setForm,
    set,
    dirty,
    setErrors,
    /** Server messages (422 publish rules, 400 fields) win for the fields they name. */
    shown: { ...errors, ...(failure?.fields ?? {}) } as Problems,
    failure,
    busy,
    saving: create.busy || update.busy,
    publishing: publish.busy,
    unpublishing: unpublish.busy,
    onSave,
    onPublish,
    onUnpublish,
    notices: (
      <EditorNotices
        failure={failure}
        conflict={update.error?.code === 'conflict' ? update.error.error : null}
        latest={latest}
        busy={busy}
        shown={{ ...errors, ...(failure?.fields ?? {}) }}
        onLoadLatest={() => void loadLatest()}
        onReplace={() => void onSave(true)}
      />
    ),
  };
}

/** A message for a field is said at the field; the banner only points there (issue 27). */
function EditorNotices({
  failure,
  conflict,
  latest,
  busy,
  shown,
  onLoadLatest,
  onReplace,
}: {
  failure: ApiError | null;
  conflict: string | null;
  latest: { busy: boolean; error: ApiError | null };
  busy: boolean;
  shown: Record<string, string | undefined>;
  onLoadLatest: () => void;
  onReplace: () => void;
}) {
  if (conflict !== null)
    return (
      <ConflictNotice
        message={conflict}
        loadError={latest.error?.error}
        loading={latest.busy}
        busy={busy}
        onLoadLatest={onLoadLatest}
        onReplace={onReplace}
      />
    );
  return (
    <>
      <FormError error={failure} />
      {Object.values(shown).some(Boolean) && !formLevelMessage(failure) && (
        <Alert>Some fields need attention: see the messages below.</Alert>
      )}
    </>
  );
}

/** An editor's route: reads the listing, then edits it; a failed read offers a retry and the way back. */
export function LoadedEditor<L extends Listing>({
  id,
  fetch,
  noun,
  back,
  children,
}: {
  id: string;
  fetch: Thunk<string, L>;
  noun: string;
  back: { to: string; label: string };
  children: (listing: L) => ReactNode;
}) {
  const read = useRead(fetch, id);
  if (read.status === 'failure' && read.error) return <ReadFailed read={read} back={back} />;
  if (!read.data || read.data.id !== id)
    return <Loading label={`Loading the ${noun}…`} size="page" />;
  return children(read.data);
}

type DraftEditor = ReturnType<typeof useDraftEditor<Listing, never, never, never>>;

/** What a listing is called in the editor's words ("product", "bundle") and where its list is. */
interface Noun {
  noun: string;
  list: string;
}

/** The editor's form: its title line, what went wrong, the sections, and the save on Enter. */
export function DraftForm({
  editor,
  what,
  children,
}: {
  editor: Pick<DraftEditor, 'listing' | 'notices' | 'onSave'>;
  what: Noun;
  children: ReactNode;
}) {
  const { listing } = editor;
  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(e) => {
        e.preventDefault();
        void editor.onSave();
      }}
    >
      <EditorHeading
        title={listing ? listing.title || `Untitled ${what.noun}` : `New ${what.noun}`}
        status={listing?.status}
        back={{ to: what.list, label: `All ${what.noun}s` }}
      />
      {editor.notices}
      {children}
    </form>
  );
}

/** Title, one-line summary and description: what every listing says about itself. */
export function ListingText<F extends { title: string; summary: string; description: string }>({
  form,
  shown,
  set,
}: {
  form: F;
  shown: Record<string, string | undefined>;
  set: (key: 'title' | 'summary' | 'description', value: string) => void;
}) {
  return (
    <>
      <Field
        label="Title"
        value={form.title}
        error={shown.title}
        onChange={(e) => set('title', e.target.value)}
      />
      <Field
        label="Summary"
        hint="One line buyers see in search results and on cards."
        value={form.summary}
        error={shown.summary}
        onChange={(e) => set('summary', e.target.value)}
      />
      <MarkdownField
        value={form.description}
        error={shown.description}
        onChange={(v) => set('description', v)}
      />
    </>
  );
}

/**
 * Save, publish (after a confirm: it goes on sale at once) or unpublish, the public page, and
 * whether anything is unsaved. `children` adds the listing's own links.
 */
export function DraftActions({
  editor,
  what,
  children,
}: {
  editor: Pick<
    DraftEditor,
    | 'listing'
    | 'dirty'
    | 'busy'
    | 'saving'
    | 'publishing'
    | 'unpublishing'
    | 'onPublish'
    | 'onUnpublish'
  >;
  what: Noun;
  children?: ReactNode;
}) {
  const { listing, dirty, busy } = editor;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="submit" loading={editor.saving} disabled={busy}>
        {listing ? 'Save' : 'Save draft'}
      </Button>
      {listing?.status !== 'published' ? (
        <ConfirmButton
          label={dirty || !listing ? 'Save and publish…' : 'Publish…'}
          question={`Put this ${what.noun} on sale? It shows on your storefront, in search and in the sitemap at once.`}
          confirmLabel="Publish"
          busy={editor.publishing || editor.saving}
          onConfirm={editor.onPublish}
        />
      ) : (
        <ConfirmButton
          label="Unpublish…"
          question={`Hide this ${what.noun} from search and your storefront? Buyers keep their access.`}
          confirmLabel="Unpublish"
          busy={editor.unpublishing}
          disabled={busy}
          onConfirm={editor.onUnpublish}
        />
      )}
      {listing && (
        <PublicPageLink href={listing.publicPath}>
          View public page
          {listing.status !== 'published' && ' (shows once published)'}
        </PublicPageLink>
      )}
      {children}
      {dirty && <span className="text-sm text-slate-400">Unsaved changes</span>}
    </div>
  );
}
