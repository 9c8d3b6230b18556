import type { ApiError } from '@tradeshelf/contract';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, FormError, formLevelMessage } from '../../../components/ui.tsx';
import { Loading } from '../../../components/screen.tsx';
import { useAction, useRead, type Thunk } from '../request.ts';
import { ConflictNotice } from './status.tsx';

/** What a listing editor edits: a saved draft that knows when it was last saved. */
interface Listing {
  id: string;
  updatedAt: string;
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
  if (read.status === 'failure' && read.error)
    return (
      <Alert>
        {read.error.error}{' '}
        <button type="button" className="underline" onClick={() => void read.reload()}>
          Try again
        </button>{' '}
        <Link to={back.to} className="underline">
          {back.label}
        </Link>
      </Alert>
    );
  if (!read.data || read.data.id !== id)
    return <Loading label={`Loading the ${noun}…`} size="page" />;
  return children(read.data);
}
