import type {
  CommunityBinding,
  VendorCommunityProduct,
  VendorDiscordServer,
} from '@tradeshelf/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmStep, useConfirm } from '../../../components/confirm-step.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button } from '../../../components/ui.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useAction, useRead } from '../request.ts';
import {
  bindCommunity,
  completeDiscordInstall,
  fetchCommunityProducts,
  fetchDiscordInstallUrl,
  fetchDiscordServers,
  fetchServerRoles,
  type PageArg,
  type ServerRef,
  type ServerRoles,
  unbindCommunity,
} from './api.ts';
import { leaveFor } from './navigation.ts';
import { choiceProblem, problemLabel, rolesSummary } from './roles.ts';
import {
  focusRing,
  Loading,
  PageHeader,
  Panel,
  ReadError,
  usePaged,
  GrowingScreen,
} from '../screen-kit.tsx';
import { SelectField } from '../../../components/select-field.tsx';

export const DISCORD_PATH = '/vendor/delivery/discord';

/** What the vendor reads after pressing Cancel on Discord's "add the bot" page. */
export const INSTALL_CANCELLED =
  'You cancelled on Discord’s page, so the bot was not added. Add it whenever you are ready.';

/** Discord sent the vendor back with another error (a bad link): nothing was added. */
export const INSTALL_FAILED =
  'Discord did not add the bot (the link was refused). Press “Add the bot to a server” to try again.';

/** Sends the vendor to Discord's page for adding the bot to one of their servers. */
function InstallButton({ label = 'Add the bot to a server' }: { label?: string }) {
  const install = useAction<void, string>(fetchDiscordInstallUrl);
  return (
    <div className="flex flex-col items-start gap-2">
      {install.error && <Alert>{install.error.error}</Alert>}
      <Button
        type="button"
        loading={install.busy}
        onClick={async () => {
          const url = await install.run(undefined);
          if (url) leaveFor(url);
        }}
      >
        {label}
      </Button>
    </div>
  );
}

/**
 * Discord's return (`?code=…&state=…&guild_id=…`, or `?error=access_denied`): completes the install
 * once with the code and state (both single use, so StrictMode's second effect must not send them
 * again), then drops the query so a reload does not repeat it.
 */
function useInstallReturn(onInstalled: () => void) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const complete = useAction<{ state: string; code: string }, ServerRef>(completeDiscordInstall);
  const sent = useRef(false);
  const state = params.get('state');
  const code = params.get('code');
  const error = params.get('error');
  // Read once: the query is dropped right after, and the words must stay.
  const [notice] = useState(() =>
    error === 'access_denied' ? INSTALL_CANCELLED : error ? INSTALL_FAILED : null,
  );
  useEffect(() => {
    if (sent.current) return;
    if (error) {
      sent.current = true;
      void navigate(DISCORD_PATH, { replace: true });
      return;
    }
    if (!state || !code) return;
    sent.current = true;
    void complete.run({ state, code }).then((server) => {
      void navigate(DISCORD_PATH, { replace: true });
      if (server) {
        toast(`The bot is in ${server.name}. Bind a product to one of its roles below.`);
        onInstalled();
      }
    });
  }, [state, code, error, complete, navigate, toast, onInstalled]);
  return { busy: complete.busy, error: complete.error, notice };
}

function RoleList({ guildId }: { guildId: string }) {
  const roles = useRead<string, ServerRoles>(fetchServerRoles, guildId);
  if (roles.status === 'failure') return <ReadError error={roles.error} onRetry={roles.reload} />;
  if (!roles.data) return <Loading label="Loading the server’s roles…" />;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-300">{rolesSummary(roles.data.roles)}</p>
      {roles.data.notes.map((note) => (
        <p key={note} className="text-sm text-amber-200">
          {note}
        </p>
      ))}
      <ul className="flex flex-col gap-1">
        {roles.data.roles.map((role) => (
          <li key={role.id} className="rounded-lg bg-ink-800 px-3 py-2 text-sm">
            <span className="font-medium text-white">{role.name}</span>{' '}
            {role.problem ? (
              <>
                <span className="rounded bg-amber-500/20 px-1.5 py-0.5 text-xs text-amber-200">
                  {problemLabel(role.problem)}
                </span>
                <p className="mt-1 text-slate-300">{role.problem}</p>
              </>
            ) : (
              <span className="text-xs text-brand-300">The bot can give it</span>
            )}
          </li>
        ))}
      </ul>
      <Button type="button" variant="ghost" className="self-start" onClick={() => roles.reload()}>
        Check again
      </Button>
    </div>
  );
}

function ServerCard({ server }: { server: VendorDiscordServer }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-ink-700 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-semibold text-white">{server.name}</p>
          <p className="text-xs text-slate-400">Bot added {formatDate(server.addedAt)}</p>
        </div>
        <Button
          type="button"
          variant="ghost"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide roles' : 'Show roles'}
        </Button>
      </div>
      <div id={id} hidden={!open}>
        {open && <RoleList guildId={server.id} />}
      </div>
    </li>
  );
}

export interface BindDraft {
  productId: string;
  guildId: string;
  roleIds: string[];
}

/** Binds a community product to a server's roles; the server's refusal (422) is shown in its words. */
function BindForm({
  products,
  servers,
  draft,
  onDraft,
  onBound,
}: {
  products: VendorCommunityProduct[];
  servers: VendorDiscordServer[];
  draft: BindDraft;
  onDraft: (d: BindDraft) => void;
  onBound: () => void;
}) {
  const toast = useToast();
  const bind = useAction<BindDraft, CommunityBinding>(bindCommunity);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (!draft.productId) return setProblem('Choose a community product.');
        if (!draft.guildId) return setProblem('Choose a server.');
        if (!draft.roleIds.length) return setProblem('Choose at least one role.');
        setProblem(null);
        const binding = await bind.run(draft);
        if (binding) {
          toast(
            `Bound to ${binding.roles.map((r) => r.name).join(', ')} in ${binding.server.name}.`,
          );
          onBound();
        }
      }}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          label="Community product"
          value={draft.productId}
          options={products.map((p) => [p.id, `${p.title}${p.binding ? ' (bound)' : ''}`] as const)}
          onChange={(productId) => onDraft({ ...draft, productId })}
          empty="Choose a product"
        />
        <SelectField
          label="Server"
          value={draft.guildId}
          options={servers.map((s) => [s.id, s.name] as const)}
          onChange={(guildId) => onDraft({ ...draft, guildId, roleIds: [] })}
          empty="Choose a server"
        />
      </div>
      {draft.guildId && (
        <RolePicker
          guildId={draft.guildId}
          chosen={draft.roleIds}
          onChange={(roleIds) => onDraft({ ...draft, roleIds })}
        />
      )}
      {problem && <Alert>{problem}</Alert>}
      {bind.error && (
        <Alert>
          {bind.error.fields
            ? Object.values(bind.error.fields).join(' ')
            : bind.error.code === 'business_rule'
              ? `Discord would refuse this: ${bind.error.error} Then check the roles again.`
              : bind.error.error}
        </Alert>
      )}
      <Button type="submit" className="self-start" loading={bind.busy}>
        Bind product
      </Button>
    </form>
  );
}

function RolePicker({
  guildId,
  chosen,
  onChange,
}: {
  guildId: string;
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  const roles = useRead<string, ServerRoles>(fetchServerRoles, guildId);
  if (roles.status === 'failure') return <ReadError error={roles.error} onRetry={roles.reload} />;
  if (!roles.data) return <Loading label="Loading the server’s roles…" />;
  const warning = chosen.length ? choiceProblem(roles.data.roles, chosen) : null;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-200">
        Roles buyers get ({rolesSummary(roles.data.roles)})
      </legend>
      {roles.data.roles.map((role) => (
        <label
          key={role.id}
          className="flex items-start gap-2 rounded-lg bg-ink-800 px-3 py-2 text-sm text-slate-200"
        >
          <input
            type="checkbox"
            className="mt-1"
            checked={chosen.includes(role.id)}
            onChange={(e) =>
              onChange(
                e.target.checked ? [...chosen, role.id] : chosen.filter((id) => id !== role.id),
              )
            }
          />
          <span>
            <span className="font-medium text-white">{role.name}</span>
            {role.problem && (
              <span className="ml-2 rounded bg-amber-500/20 px-1.5 py-0.5 text-xs text-amber-200">
                {problemLabel(role.problem)}
              </span>
            )}
          </span>
        </label>
      ))}
      {warning && <Alert tone="info">{warning}</Alert>}
      <button
        type="button"
        className={`self-start text-sm text-brand-300 underline ${focusRing}`}
        onClick={() => roles.reload()}
      >
        Check the roles again
      </button>
    </fieldset>
  );
}

function BindingRow({
  product,
  onEdit,
  onRemoved,
}: {
  product: VendorCommunityProduct;
  onEdit: (d: BindDraft) => void;
  onRemoved: () => void;
}) {
  const confirm = useConfirm();
  const remove = useAction<string, string>(unbindCommunity);
  const toast = useToast();
  const b = product.binding;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-ink-700 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-semibold text-white">{product.title}</p>
          {b ? (
            <p className="text-sm text-slate-300">
              {b.server.name}: {b.roles.map((r) => r.name).join(', ')}
            </p>
          ) : (
            <p className="text-sm text-amber-200">
              Not bound: buyers wait for access until you bind it.
            </p>
          )}
        </div>
        <div className="flex gap-2">
          <Button
            type="button"
            variant="ghost"
            onClick={() =>
              onEdit({
                productId: product.id,
                guildId: b?.server.id ?? '',
                roleIds: b?.roles.map((r) => r.id) ?? [],
              })
            }
          >
            {b ? 'Change' : 'Bind'}
            <span className="sr-only"> {product.title}</span>
          </Button>
          {b && !confirm.open && (
            <Button id={confirm.triggerId} type="button" variant="ghost" onClick={confirm.show}>
              Remove<span className="sr-only"> the binding of {product.title}</span>
            </Button>
          )}
        </div>
      </div>
      {b && confirm.open && (
        <ConfirmStep
          returnFocusTo={confirm.triggerId}
          title={`Remove the binding of “${product.title}”?`}
          confirmLabel="Remove binding"
          busy={remove.busy}
          error={remove.error?.error ?? null}
          onCancel={() => {
            remove.reset();
            confirm.close();
          }}
          onConfirm={async () => {
            if (await remove.run(product.id)) {
              toast(`“${product.title}” is no longer bound.`);
              onRemoved();
            }
          }}
        >
          <p>
            New buyers will get no Discord role until you bind it again. Members keep the roles they
            have now; remove them in Discord if you want to. You can bind it again at any time.
          </p>
        </ConfirmStep>
      )}
    </li>
  );
}

export function DiscordSetup() {
  const servers = useRead<void, VendorDiscordServer[]>(fetchDiscordServers, undefined);
  const products = usePaged<PageArg, VendorCommunityProduct>(fetchCommunityProducts, {});
  const reloadServers = servers.reload;
  const installing = useInstallReturn(reloadServers);
  const [draft, setDraft] = useState<BindDraft>({ productId: '', guildId: '', roleIds: [] });
  const formRef = useRef<HTMLDivElement>(null);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Discord">
        Add the Tradeshelf bot to your server, then bind each community product to the roles its
        buyers get. An alert product bound to a role can post its alerts to a channel only that role
        reads (set it on the Alerts screen).{' '}
        <Link to="/vendor/delivery" className="text-brand-300 underline">
          Back to delivery
        </Link>
      </PageHeader>
      {installing.busy && <Alert tone="info">Adding the bot to your server…</Alert>}
      {installing.error && <Alert>{installing.error.error}</Alert>}
      {installing.notice && <Alert tone="info">{installing.notice}</Alert>}

      <Panel title="Your servers" actions={<InstallButton />}>
        {servers.status === 'failure' ? (
          <ReadError error={servers.error} onRetry={servers.reload} />
        ) : !servers.data ? (
          <Loading label="Loading your servers…" />
        ) : servers.data.length === 0 ? (
          <p className="text-sm text-slate-300">
            The bot is in none of your servers yet. Add it to the server your community lives in:
            Discord asks which server and which permissions (keep Manage Roles ticked).
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {servers.data.map((s) => (
              <ServerCard key={s.id} server={s} />
            ))}
          </ul>
        )}
      </Panel>

      <Panel title="Community products">
        <GrowingScreen
          list={products}
          noun="products"
          loading="Loading your community products…"
          empty={
            <p className="text-sm text-slate-300">
              You have no Discord community products yet.{' '}
              <Link to="/vendor/products/new" className="text-brand-300 underline">
                Create one
              </Link>
              , then bind it here.
            </p>
          }
        >
          {(items) => (
            <ul className="flex flex-col gap-3">
              {items.map((p) => (
                <BindingRow
                  key={p.id}
                  product={p}
                  onRemoved={() => void products.reload()}
                  onEdit={(d) => {
                    setDraft(d);
                    formRef.current?.scrollIntoView?.({ block: 'start' });
                    formRef.current?.querySelector('select')?.focus();
                  }}
                />
              ))}
            </ul>
          )}
        </GrowingScreen>
      </Panel>

      <div ref={formRef}>
        <Panel title="Bind a product to roles">
          {!servers.data?.length ? (
            <p className="text-sm text-slate-300">Add the bot to a server first.</p>
          ) : !products.items.length ? (
            <p className="text-sm text-slate-300">Create a community product first.</p>
          ) : (
            <BindForm
              products={products.items}
              servers={servers.data}
              draft={draft}
              onDraft={setDraft}
              onBound={() => {
                setDraft({ productId: '', guildId: '', roleIds: [] });
                void products.reload();
              }}
            />
          )}
        </Panel>
      </div>
    </div>
  );
}
