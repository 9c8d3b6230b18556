import {
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type ReactNode,
} from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  CONTACT_NAME_MAX,
  CONTACT_REFERENCE_MAX,
  CONTACT_SUBJECT_MAX,
  CONTACT_TRAP_FIELD,
  hasUnreadableCharacters,
  plans,
  supportMessages as m,
} from '@tradeshelf/contract/client';
import type { ContactRequest } from '@tradeshelf/contract';
import { Alert, Button, Field, FormError } from '../components/ui.tsx';
import { TextAreaField } from '../components/textarea-field.tsx';
import { EmailField } from '../components/email-field.tsx';
import { fetchSeller } from '../features/catalog/slice.ts';
import { sendContact } from '../features/support/api.ts';
import { resetContact } from '../features/support/slice.ts';
import { routes } from '../lib/contract.server.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { useBrowserValue } from '../lib/hydrated.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import { useServices } from '../lib/services.tsx';
import type { Route } from './+types/contact';

export async function loader({ context, request }: Route.LoaderArgs) {
  const vendorUrl = new URL(request.url).searchParams.get('vendor');
  const [terms, vendor] = await Promise.all([
    loadFrom(context, request, routes.platformTerms, {}),
    // `?vendor=` (the storefront's "Contact the vendor" link) names who gets a copy.
    vendorUrl
      ? loadFrom(context, request, routes.vendorProfile, { query: { vendorUrl } }).then(
          ({ vendor }) => ({ vendorUrl: vendor.vendorUrl, displayName: vendor.displayName }),
          () => null,
        )
      : null,
  ]);
  return { supportEmail: terms.supportEmail, vendor };
}

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: 'Contact support',
    description:
      'Write to Tradeshelf support about an order, a refund, a vendor or your account. We answer by e-mail.',
    path: '/contact',
    origin: originOf(matches),
  });

type Fields = Partial<Record<keyof ContactRequest, string>>;

/** The storefront address out of what was typed: `alpha-edge`, `/v/alpha-edge` or a full URL. */
/** A storefront address as the server accepts it (`/v/{vendorUrl}`). */
const VENDOR_ADDRESS = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export function vendorUrlFrom(typed: string): string {
  const value = typed.trim();
  const inPath = /\/v\/([^/?#\s]+)/.exec(value);
  return inPath ? decodeURIComponent(inPath[1]!) : value;
}

/** The checks the server makes, run first so most mistakes show without a round trip. */
export function checkContact(form: ContactRequest): Fields {
  const problems: Fields = {};
  const text = (
    key: 'name' | 'subject' | 'message',
    min: number,
    max: number,
    short: string,
    long: string,
  ) => {
    const value = form[key] ?? '';
    if (hasUnreadableCharacters(value, key === 'message')) problems[key] = m.unreadable;
    else if (value.trim().length < min) problems[key] = short;
    else if (value.trim().length > max) problems[key] = long;
  };
  text('name', 1, CONTACT_NAME_MAX, m.nameRequired, m.nameTooLong);
  if (!form.email.trim()) problems.email = m.emailRequired;
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim()))
    problems.email = 'Enter a valid e-mail address.';
  text('subject', 1, CONTACT_SUBJECT_MAX, m.subjectRequired, m.subjectTooLong);
  text('message', CONTACT_MESSAGE_MIN, CONTACT_MESSAGE_MAX, m.messageTooShort, m.messageTooLong);
  if (form.order && !/^[A-Za-z0-9_-]{1,64}$/.test(form.order)) problems.order = m.orderFormat;
  if (
    form.vendorUrl &&
    !(form.vendorUrl.length <= CONTACT_REFERENCE_MAX && VENDOR_ADDRESS.test(form.vendorUrl))
  )
    problems.vendorUrl = m.vendorFormat;
  return problems;
}

function MessageField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
}) {
  return (
    <TextAreaField
      label="Message"
      name="message"
      rows={7}
      required
      maxLength={CONTACT_MESSAGE_MAX}
      value={value}
      onChange={onChange}
      error={error}
      hint={`At least ${CONTACT_MESSAGE_MIN} characters. Leave out passwords and card numbers.`}
    />
  );
}

function Sent({
  email,
  vendor,
  onAgain,
}: {
  email: string;
  vendor: string | null;
  onAgain(): void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="flex flex-col gap-4">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-bold text-white outline-none">
        Message sent
      </h2>
      <Alert tone="success">
        {m.received} {vendor && `A copy went to ${vendor}. `}
        We will reply to <strong>{email}</strong>.
      </Alert>
      <Button type="button" variant="ghost" onClick={onAgain}>
        Write another message
      </Button>
    </div>
  );
}

export default function Contact({ loaderData }: Route.ComponentProps) {
  const dispatch = useAppDispatch();
  const { session } = useServices();
  const [params] = useSearchParams();
  const state = useAppSelector((s) => s.support.contact);
  const seller = useAppSelector((s) => s.seller.details);
  /** The storefront address last looked up as typed (`?vendor=` links come resolved by the loader). */
  const [lookedUp, setLookedUp] = useState<string | null>(null);
  const profileEmail = useAppSelector((s) => s.user.profile.data?.email);
  // Signed-in buyers' e-mail, after hydration (the server renders the same page for everyone).
  const sessionEmail = useBrowserValue(() => session.peek()?.userEmail ?? null, null);
  const [form, setForm] = useState({
    name: '',
    email: null as string | null,
    subject: params.get('subject') ?? '',
    message: '',
    order: params.get('order') ?? '',
    vendorUrl: loaderData.vendor?.vendorUrl ?? params.get('vendor') ?? '',
    trap: '',
  });
  const [problems, setProblems] = useState<Fields>({});
  const formRef = useRef<HTMLFormElement>(null);
  const email = form.email ?? profileEmail ?? sessionEmail ?? '';

  useEffect(() => {
    dispatch(resetContact());
    return () => void dispatch(resetContact());
  }, [dispatch]);
  // After a refused send, the first field to fix gets the focus.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems]);
  const fields = problems;

  const set = (key: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setProblems((p) => ({ ...p, [key]: undefined }));
  };
  /** A text field's name, value, edits and problem, by the value's key. */
  const typed = (key: 'name' | 'subject' | 'order' | 'vendorUrl') => ({
    name: key,
    value: form[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key)(e.target.value),
    error: fields[key],
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: ContactRequest = {
      name: form.name,
      email: email.trim(),
      subject: form.subject,
      message: form.message,
      ...(form.order.trim() ? { order: form.order.trim() } : {}),
      ...(form.vendorUrl.trim() ? { vendorUrl: vendorUrlFrom(form.vendorUrl) } : {}),
      ...(form.trap ? { [CONTACT_TRAP_FIELD]: form.trap } : {}),
    };
    const found = checkContact(body);
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    // The server's field messages show like the form's own; each clears when its field is edited.
    void dispatch(sendContact(body)).then((result) => {
      if (sendContact.rejected.match(result) && result.payload?.fields)
        setProblems(result.payload.fields as Fields);
    });
  };

  const typedVendor = form.vendorUrl.trim() ? vendorUrlFrom(form.vendorUrl).toLowerCase() : '';
  const named =
    loaderData.vendor && loaderData.vendor.vendorUrl.toLowerCase() === typedVendor
      ? loaderData.vendor
      : seller.status === 'success' && seller.data?.vendorUrl.toLowerCase() === typedVendor
        ? seller.data
        : null;
  // Who gets a copy is confirmed as soon as the address is typed, not after sending.
  const lookUpVendor = () => {
    if (!typedVendor || named || !VENDOR_ADDRESS.test(typedVendor)) return;
    setLookedUp(typedVendor);
    void dispatch(fetchSeller(typedVendor));
  };
  const unknownVendor =
    lookedUp === typedVendor && typedVendor !== '' && seller.status === 'failure';
  const vendorNote: ReactNode = named ? (
    <>
      <strong>{named.displayName}</strong> gets a copy and can reply to you directly.
    </>
  ) : unknownVendor ? (
    `We found no vendor at /v/${typedVendor}. Check the address, or leave it empty.`
  ) : (
    'The part after /v/ in their storefront address. They get a copy and can reply to you.'
  );

  return (
    <div className="mx-auto grid max-w-5xl gap-8 lg:grid-cols-[1fr_300px]">
      <div className="rounded-2xl border border-ink-700 bg-ink-900/80 p-5 sm:p-8">
        <h1 className="text-3xl font-extrabold text-white">Contact support</h1>
        <p className="mt-2 text-slate-300">
          Questions about an order, a refund, a vendor or your account: write to us and we will
          answer by e-mail.
        </p>
        <div className="mt-6">
          {state.status === 'success' ? (
            <Sent
              email={email.trim()}
              vendor={named?.displayName ?? null}
              onAgain={() => {
                dispatch(resetContact());
                setForm((f) => ({ ...f, subject: '', message: '', order: '' }));
              }}
            />
          ) : (
            <form
              ref={formRef}
              method="post"
              onSubmit={submit}
              noValidate
              className="flex flex-col gap-4"
            >
              {state.status === 'failure' && <FormError error={state.error} />}
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label="Your name"
                  {...typed('name')}
                  autoComplete="name"
                  required
                  maxLength={CONTACT_NAME_MAX}
                />
                <EmailField value={email} onChange={set('email')} error={fields.email} />
              </div>
              <Field
                label="Subject"
                {...typed('subject')}
                required
                maxLength={CONTACT_SUBJECT_MAX}
              />
              <MessageField value={form.message} onChange={set('message')} error={fields.message} />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label="Order or receipt number (optional)"
                  {...typed('order')}
                  maxLength={CONTACT_REFERENCE_MAX}
                  hint="For example TS-2026-001234, from your receipt."
                />
                <Field
                  label="Vendor (optional)"
                  {...typed('vendorUrl')}
                  onBlur={lookUpVendor}
                  hint={vendorNote}
                />
              </div>
              {/* The spam trap: never shown, never announced; people leave it empty. */}
              <div className="hidden" aria-hidden>
                <label htmlFor="contact-trap">Website</label>
                <input
                  id="contact-trap"
                  name={CONTACT_TRAP_FIELD}
                  tabIndex={-1}
                  autoComplete="off"
                  value={form.trap}
                  onChange={(e) => set('trap')(e.target.value)}
                />
              </div>
              <Button type="submit" loading={state.status === 'loading'}>
                Send message
              </Button>
            </form>
          )}
        </div>
      </div>
      <aside className="flex flex-col gap-4 text-sm text-slate-300">
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <h2 className="font-semibold text-white">Before you write</h2>
          <ul className="mt-3 flex list-disc flex-col gap-2 pl-5">
            <li>
              Refunds, duplicate payments and trials:{' '}
              <Link to="/refund-policy" className="text-brand-300 underline underline-offset-2">
                refund policy
              </Link>
              .
            </li>
            <li>
              Subscriptions: cancel or change them with &ldquo;Manage subscription&rdquo; on the{' '}
              <Link to="/orders" className="text-brand-300 underline underline-offset-2">
                order
              </Link>
              .
            </li>
            <li>
              Forgot your password?{' '}
              <Link to="/forgot-password" className="text-brand-300 underline underline-offset-2">
                Reset it
              </Link>
              .
            </li>
          </ul>
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <h2 className="font-semibold text-white">E-mail</h2>
          <p className="mt-2">
            You can also write to{' '}
            <a
              href={`mailto:${loaderData.supportEmail}`}
              className="break-all text-brand-300 underline underline-offset-2"
            >
              {loaderData.supportEmail}
            </a>
            .
          </p>
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <h2 className="font-semibold text-white">Priority support</h2>
          <p className="mt-2">
            Messages from the e-mail of a{' '}
            <Link to="/premium" className="text-brand-300 underline underline-offset-2">
              {plans.premium.name}
            </Link>{' '}
            member are answered first, within {plans.premium.supportReplyHours} hours;{' '}
            <Link to="/pro-plus" className="text-brand-300 underline underline-offset-2">
              {plans.pro_plus.name}
            </Link>{' '}
            members within {plans.pro_plus.supportReplyHours} hours.
          </p>
        </div>
      </aside>
    </div>
  );
}
