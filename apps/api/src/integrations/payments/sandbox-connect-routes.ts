import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cspNonce } from '../../platform/csp.ts';
import { AppError } from '../../platform/errors.ts';
import type { SandboxPayments } from './sandbox.ts';
import type { ConnectLink } from './sandbox-connect.ts';
import { esc, page, policy } from './sandbox-page.ts';

const tokenParams = z.object({
  token: z.string().regex(/^[\w.-]{1,200}$/, 'Not an onboarding link.'),
});

const countries = [
  ['US', 'United States'],
  ['GB', 'United Kingdom'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['CA', 'Canada'],
  ['AU', 'Australia'],
] as const;

interface Form {
  businessName?: string;
  country?: string;
  account?: string;
  tos?: string;
  outcome?: string;
}

/** Field → message; empty when the form is complete. */
function problems(form: Form): Record<string, string> {
  const out: Record<string, string> = {};
  if (!form.businessName?.trim()) out.businessName = 'Enter the name you sell under.';
  if (!countries.some(([c]) => c === form.country)) out.country = 'Choose your country.';
  if (!/^[A-Z0-9 ]{6,34}$/i.test(form.account?.trim() ?? ''))
    out.account = 'Enter a bank account number or IBAN (6 to 34 letters and digits).';
  if (form.tos !== 'on') out.tos = 'Accept the services agreement to continue.';
  return out;
}

/**
 * The sandbox's Connect onboarding (Stripe's hosted onboarding, in miniature): a form with the
 * details a new account owes; submitting it makes the account active, or leaves it pending
 * verification when asked, and returns to the page the link names. "Later" goes back unchanged.
 */
export async function connectPages(app: FastifyInstance, sandbox: SandboxPayments): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const connect = sandbox.connect;

  const linkOr404 = async (token: string): Promise<ConnectLink> => {
    const link = await connect.verify(token);
    if (!link)
      throw new AppError(
        'not_found',
        'This onboarding link is not valid or has expired. Start again from Tradeshelf.',
      );
    return link;
  };

  const render = async (
    reply: FastifyReply,
    token: string,
    link: ConnectLink,
    form: Form = {},
    errors: Record<string, string> = {},
  ) => {
    const account = await connect.account(link.accountId);
    const status = await connect.status(link.accountId);
    const nonce = cspNonce(reply, policy);
    const err = (field: string) =>
      errors[field] ? `<p class="error" id="${field}-error">${esc(errors[field]!)}</p>` : '';
    const described = (field: string) =>
      errors[field] ? ` aria-invalid="true" aria-describedby="${field}-error"` : '';
    let body: string;
    if (status.chargesEnabled) {
      body = `<h1>Payouts are set up</h1><p>This account is active: sales pay out to it.</p>
<p><a href="${esc(link.returnUrl)}">Back to Tradeshelf</a></p>`;
    } else if (account?.state === 'pending_verification') {
      body = `<h1>Verifying your details</h1>
<p>${esc(status.disabledReason ?? '')} In the sandbox you can finish it now.</p>
<div class="row"><form method="post" action="/sandbox/connect/${esc(token)}"><input type="hidden" name="outcome" value="verify">
<button class="primary" type="submit">Complete verification</button></form>
<a href="${esc(link.returnUrl)}">Back to Tradeshelf</a></div>`;
    } else {
      const value = (v: string | undefined) => esc(v ?? '');
      body = `<h1>Set up payouts</h1>
<p class="muted">For ${esc(account?.email ?? 'your account')}. Still due:</p>
<ul class="due">${status.requirements.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>
${Object.keys(errors).length ? '<p class="error" role="alert">Some details are missing. Check the fields below.</p>' : ''}
<form method="post" action="/sandbox/connect/${esc(token)}" novalidate>
<div class="field"><label for="businessName">Business or trading name</label>
<input id="businessName" name="businessName" autocomplete="organization" value="${value(form.businessName ?? account?.businessName ?? '')}"${described('businessName')}>${err('businessName')}</div>
<div class="field"><label for="country">Country</label>
<select id="country" name="country"${described('country')}><option value="">Choose…</option>${countries
        .map(
          ([c, name]) =>
            `<option value="${c}"${form.country === c ? ' selected' : ''}>${esc(name)}</option>`,
        )
        .join('')}</select>${err('country')}</div>
<div class="field"><label for="account">Bank account number or IBAN</label>
<input id="account" name="account" inputmode="text" autocomplete="off" placeholder="000123456789" value="${value(form.account)}"${described('account')}>${err('account')}</div>
<div class="check"><input type="checkbox" id="tos" name="tos"${form.tos === 'on' ? ' checked' : ''}${described('tos')}>
<label for="tos">I accept the payment sandbox’s services agreement.</label></div>${err('tos')}
<div class="row"><button class="primary" type="submit" name="outcome" value="active">Submit</button>
<button type="submit" name="outcome" value="pending">Submit, verify later</button></div>
</form>
<p><a href="${esc(link.refreshUrl)}">Save and return later</a></p>`;
    }
    return reply
      .status(Object.keys(errors).length ? 400 : 200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(nonce, 'Set up payouts', body));
  };

  typed.get(
    '/sandbox/connect/:token',
    { schema: { hide: true, params: tokenParams } },
    async (req, reply) => render(reply, req.params.token, await linkOr404(req.params.token)),
  );

  typed.post(
    '/sandbox/connect/:token',
    { schema: { hide: true, params: tokenParams } },
    async (req, reply) => {
      const { token } = req.params;
      const link = await linkOr404(token);
      const form = (req.body ?? {}) as Form;
      const account = await connect.account(link.accountId);
      if (!account) return reply.redirect(link.returnUrl, 303);
      if (form.outcome === 'verify') {
        if (account.state === 'pending_verification') await connect.setState(account.id, 'active');
        return reply.redirect(link.returnUrl, 303);
      }
      const errors = problems(form);
      if (Object.keys(errors).length) return render(reply, token, link, form, errors);
      await connect.setState(
        account.id,
        form.outcome === 'pending' ? 'pending_verification' : 'active',
        form.businessName!.trim(),
      );
      return reply.redirect(link.returnUrl, 303);
    },
  );
}
