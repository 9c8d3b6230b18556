import { formatBps as percent } from '@tradeshelf/contract/client';
import {
  AFFILIATE_COMMISSION_MAX_BPS,
  AFFILIATE_COOKIE_DAYS_MAX,
  affiliateMessages,
} from '@tradeshelf/contract/client';
import type { Invitation, Programme } from '@tradeshelf/contract';
import { useState } from 'react';
import { ConfirmStep, useConfirm } from '../../../components/confirm-step.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import {
  focusRing,
  Loading,
  PageHeader,
  Panel,
  ReadError,
  useNow,
  usePaged,
  GrowingScreen,
} from '../screen-kit.tsx';
import { PanelTable } from '../../../components/list-table.tsx';
import { useAction, useRead } from '../request.ts';
import {
  type AffiliateRow,
  type AffiliatesArg,
  fetchAffiliates,
  fetchInvitations,
  fetchProgramme,
  type InviteArg,
  type InviteSent,
  type ProgrammeArg,
  revokeInvitation,
  saveProgramme,
  sendInvitation,
} from './api.ts';

/** The programme's defaults before the vendor sets it up (the server's invitation defaults). */
const DEFAULTS = { open: true, commissionBps: 2000, cookieDays: 30 };

export interface TermsInput {
  /** As typed: a percentage, "20" or "12.5". */
  commission: string;
  cookieDays: string;
}

/**
 * The terms as the API takes them (basis points, whole days) and the problem of each field, in
 * the contract's words.
 */
export function parseTerms(input: TermsInput): {
  terms: { commissionBps: number; cookieDays: number } | null;
  fields: { commissionBps?: string; cookieDays?: string };
} {
  const fields: { commissionBps?: string; cookieDays?: string } = {};
  const pct = input.commission.trim();
  const bps = /^\d{1,3}(\.\d{1,2})?$/.test(pct) ? Math.round(Number(pct) * 100) : NaN;
  if (!Number.isInteger(bps) || bps < 0 || bps > AFFILIATE_COMMISSION_MAX_BPS)
    fields.commissionBps = affiliateMessages.commissionRange;
  const daysText = input.cookieDays.trim();
  const days = /^\d{1,3}$/.test(daysText) ? Number(daysText) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > AFFILIATE_COOKIE_DAYS_MAX)
    fields.cookieDays = affiliateMessages.cookieDaysRange;
  return {
    terms: Object.keys(fields).length ? null : { commissionBps: bps, cookieDays: days },
    fields,
  };
}

function ProgrammeForm({
  programme,
  onSaved,
}: {
  programme: Programme | null;
  onSaved: (p: Programme) => void;
}) {
  const start = programme ?? { ...DEFAULTS };
  const [open, setOpen] = useState(start.open);
  const [input, setInput] = useState<TermsInput>({
    commission: String(start.commissionBps / 100),
    cookieDays: String(start.cookieDays),
  });
  const [shown, setShown] = useState<{ commissionBps?: string; cookieDays?: string }>({});
  const save = useAction<ProgrammeArg, Programme>(saveProgramme);
  const toast = useToast();
  const server = save.error?.fields ?? {};
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const { terms, fields } = parseTerms(input);
        setShown(fields);
        if (!terms) return;
        const saved = await save.run({ open, ...terms });
        if (saved) {
          toast('Programme saved. New referral links get these terms.');
          onSaved(saved);
        }
      }}
    >
      {!programme && (
        <Alert tone="info">
          You have not set up a programme yet. Until you do, affiliates can join on these default
          terms.
        </Alert>
      )}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-200">Who can join</legend>
        <label className="flex items-center gap-2 text-sm text-slate-200">
          <input type="radio" name="open" checked={open} onChange={() => setOpen(true)} />
          Open: any affiliate can make a referral link
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-200">
          <input type="radio" name="open" checked={!open} onChange={() => setOpen(false)} />
          Invite only: only affiliates you invite
        </label>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Commission (%)"
          inputMode="decimal"
          value={input.commission}
          onChange={(e) => setInput({ ...input, commission: e.target.value })}
          error={shown.commissionBps ?? server.commissionBps}
          hint={`Of every payment a referred buyer makes; at most ${AFFILIATE_COMMISSION_MAX_BPS / 100}%.`}
        />
        <Field
          label="Cookie window (days)"
          inputMode="numeric"
          value={input.cookieDays}
          onChange={(e) => setInput({ ...input, cookieDays: e.target.value })}
          error={shown.cookieDays ?? server.cookieDays}
          hint="How long a visit through a link counts towards a sale."
        />
      </div>
      <FormError error={save.error} />
      <p className="text-sm text-slate-400">
        Links affiliates already have keep the terms they were made with.
      </p>
      <Button type="submit" className="self-start" loading={save.busy}>
        Save programme
      </Button>
    </form>
  );
}

function InviteForm({
  programme,
  onSent,
}: {
  programme: Programme | null;
  onSent: (i: Invitation) => void;
}) {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const send = useAction<InviteArg, InviteSent>(sendInvitation);
  const toast = useToast();
  const terms = programme ?? DEFAULTS;
  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={async (e) => {
        e.preventDefault();
        const value = email.trim();
        // The server's own check decides; this catches the obvious slip first.
        const p = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : 'Enter a valid e-mail address.';
        setProblem(p);
        if (p) return;
        const sent = await send.run({ email: value });
        if (sent) {
          toast(
            sent.emailed
              ? `${affiliateMessages.invited} ${sent.invitation.email} has 30 days to accept.`
              : affiliateMessages.inviteRenewed,
          );
          setEmail('');
          onSent(sent.invitation);
        }
      }}
    >
      <Field
        label="Invite an affiliate by e-mail"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={problem ?? send.error?.fields?.email}
        hint={`They get ${percent(terms.commissionBps)} with a ${terms.cookieDays}-day cookie window.`}
      />
      <FormError error={send.error} />
      <Button type="submit" className="self-start" loading={send.busy}>
        Send invitation
      </Button>
    </form>
  );
}

function InvitationRow({
  invitation,
  now,
  onRevoked,
}: {
  invitation: Invitation;
  now: number;
  onRevoked: () => void;
}) {
  const confirm = useConfirm();
  const revoke = useAction<string, string>(revokeInvitation);
  const toast = useToast();
  const expired = Date.parse(invitation.expiresAt) <= now;
  const state =
    invitation.status === 'accepted'
      ? 'Accepted'
      : expired
        ? 'Expired'
        : `Waiting until ${formatDate(invitation.expiresAt)}`;
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-ink-700 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium text-white">{invitation.email}</p>
          <p className="text-xs text-slate-400">
            {percent(invitation.commissionBps)} · {invitation.cookieDays} days · sent{' '}
            {formatDate(invitation.createdAt)} · {state}
          </p>
        </div>
        {invitation.status === 'pending' && !confirm.open && (
          <Button id={confirm.triggerId} type="button" variant="ghost" onClick={confirm.show}>
            Withdraw<span className="sr-only"> the invitation to {invitation.email}</span>
          </Button>
        )}
      </div>
      {confirm.open && (
        <ConfirmStep
          returnFocusTo={confirm.triggerId}
          title={`Withdraw the invitation to ${invitation.email}?`}
          confirmLabel="Withdraw invitation"
          busy={revoke.busy}
          error={revoke.error?.error ?? null}
          onCancel={() => {
            revoke.reset();
            confirm.close();
          }}
          onConfirm={async () => {
            if (await revoke.run(invitation.id)) {
              toast(affiliateMessages.inviteRevoked);
              onRevoked();
            }
          }}
        >
          <p>The link in their e-mail stops working. You can invite them again later.</p>
        </ConfirmStep>
      )}
    </li>
  );
}

function Invitations({ programme }: { programme: Programme | null }) {
  const invites = useRead<void, Invitation[]>(fetchInvitations, undefined);
  const now = useNow();
  return (
    <Panel title="Invitations">
      <InviteForm
        programme={programme}
        onSent={(i) => invites.set([i, ...(invites.data ?? []).filter((x) => x.id !== i.id)])}
      />
      {invites.status === 'failure' ? (
        <ReadError error={invites.error} onRetry={invites.reload} />
      ) : !invites.data ? (
        <Loading label="Loading invitations…" />
      ) : invites.data.length === 0 ? (
        <p className="text-sm text-slate-300">No invitations sent yet.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {invites.data.map((i) => (
            <InvitationRow
              key={i.id}
              invitation={i}
              now={now}
              onRevoked={() => invites.set((invites.data ?? []).filter((x) => x.id !== i.id))}
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}

const affiliateColumns = [
  { label: 'Affiliate' },
  { label: 'Terms' },
  { label: 'Visits', align: 'right' },
  { label: 'Sales', align: 'right' },
  { label: 'Commission', align: 'right' },
] as const;

function Performance() {
  const list = usePaged<AffiliatesArg, AffiliateRow>(fetchAffiliates, {});
  return (
    <Panel title="Your affiliates">
      <GrowingScreen
        list={list}
        noun="affiliates"
        loading="Loading your affiliates…"
        empty={
          <p className="text-sm text-slate-300">
            No affiliates yet. Open your programme or invite someone.
          </p>
        }
      >
        {(items) => (
          <PanelTable caption="Affiliates and what their links brought" columns={affiliateColumns}>
            {items.map((a) => (
              <tr key={a.id}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {a.username ?? 'No username yet'}
                  <span className="block text-xs font-normal text-slate-400">
                    {a.refId} · since {formatDate(a.joinedAt)}
                  </span>
                </th>
                <td className="py-2 pr-4">
                  {percent(a.commissionBps)} · {a.cookieDays} days
                </td>
                <td className="py-2 pr-4 text-right">{a.clicks}</td>
                <td className="py-2 pr-4 text-right">{a.sales}</td>
                <td className="py-2 text-right">
                  {a.commission.length
                    ? a.commission.map((c) => formatMoney(c.amount, c.currency)).join(', ')
                    : '—'}
                </td>
              </tr>
            ))}
          </PanelTable>
        )}
      </GrowingScreen>
    </Panel>
  );
}

export function VendorAffiliates() {
  const programme = useRead<void, Programme | null>(fetchProgramme, undefined);
  const current = programme.data;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Affiliates">
        Let affiliates promote your products for a share of each sale.
      </PageHeader>
      <Panel title="Programme">
        {programme.status === 'failure' ? (
          <ReadError error={programme.error} onRetry={programme.reload} />
        ) : programme.status !== 'success' ? (
          <Loading label="Loading your programme…" />
        ) : (
          <ProgrammeForm programme={current ?? null} onSaved={programme.set} />
        )}
      </Panel>
      {programme.status === 'success' && <Invitations programme={current ?? null} />}
      <Performance />
      <p className="text-xs text-slate-400">
        Commission is net of refunds and disputes.{' '}
        <a href="/affiliate" className={`underline ${focusRing}`}>
          The affiliate dashboard
        </a>{' '}
        is where affiliates see their side.
      </p>
    </div>
  );
}
