import { accountRoutes, authMessages, authRoutes, passkeyRoutes } from '@tradeshelf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addressKey } from '../../platform/rate-limit.ts';
import { registerRoute } from '../../platform/routes.ts';
import * as users from '../users/index.ts';
import * as emailChange from './email-change.ts';
import * as passkeys from './passkeys.ts';
import * as auth from './service.ts';
import * as sessions from './sessions.ts';
import * as twoFactor from './two-factor.ts';

/** The device a request comes from, for the sign-in list (ADR 058). */
const clientOf = (req: FastifyRequest): auth.ClientInfo => ({
  userAgent: req.headers['user-agent'],
  ip: req.ip,
});

export async function authModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;

  registerRoute(app, authRoutes.signupBuyer, ({ body, req }) =>
    auth.signup(deps, addressKey(req.ip), body.email, body.password, clientOf(req)),
  );
  registerRoute(app, authRoutes.login, ({ body, req }) =>
    auth.login(deps, addressKey(req.ip), body.email, body.password, clientOf(req)),
  );
  registerRoute(app, authRoutes.loginTwoFactor, ({ body, req }) =>
    auth.loginSecondStep(deps, addressKey(req.ip), body.challenge, body.code, clientOf(req)),
  );
  registerRoute(app, authRoutes.twoFactorStatus, ({ auth: claims }) =>
    twoFactor.status(deps, claims.sub),
  );
  registerRoute(app, authRoutes.twoFactorSetup, ({ auth: claims }) =>
    twoFactor.setup(deps, claims.sub),
  );
  registerRoute(app, authRoutes.twoFactorConfirm, ({ body, auth: claims }) =>
    twoFactor.confirm(deps, claims.sub, body.code),
  );
  registerRoute(app, authRoutes.twoFactorDisable, ({ body, auth: claims }) =>
    twoFactor.disable(deps, claims.sub, body),
  );
  registerRoute(app, authRoutes.logout, async ({ body }) => {
    await auth.logout(deps, body.refresh_token);
    return { message: authMessages.loggedOut };
  });
  registerRoute(app, authRoutes.refreshToken, ({ body, bearer, req }) =>
    auth.refresh(deps, addressKey(req.ip), bearer, body.user_id, body.refresh_token, clientOf(req)),
  );
  registerRoute(app, authRoutes.sendForgotPasswordEmail, async ({ body, req }) => {
    await auth.sendForgotPasswordEmail(deps, addressKey(req.ip), body.email);
    return { message: authMessages.forgotPasswordSent };
  });
  registerRoute(app, authRoutes.checkForgotPasswordCode, async ({ body, req }) => {
    await auth.checkForgotPasswordCode(deps, addressKey(req.ip), body.email, body.code);
    return { message: authMessages.codeValid };
  });
  registerRoute(app, authRoutes.resetForgotPassword, async ({ body, req }) => {
    await auth.resetForgotPassword(deps, addressKey(req.ip), body.email, body.code, body.password);
    return { message: authMessages.passwordReset };
  });
  registerRoute(app, authRoutes.changePassword, ({ body, auth: claims, req }) =>
    auth.changePassword(deps, claims.sub, body.currentPassword, body.newPassword, clientOf(req)),
  );
  registerRoute(app, authRoutes.sendAccountVerificationEmail, async ({ body, req }) => {
    await auth.sendActivationEmail(deps, addressKey(req.ip), body.email);
    return { message: authMessages.activationSent };
  });
  registerRoute(app, authRoutes.verifyAccountCode, async ({ body, req }) => {
    await auth.verifyAccount(deps, addressKey(req.ip), body.email, body.code);
    return { message: authMessages.accountVerified, emailVerified: true as const };
  });

  // Account controls (ADR 058): sign-ins, e-mail change, recovery codes.
  registerRoute(app, accountRoutes.accountSessions, ({ auth: claims }) =>
    sessions.listSessions(deps, claims.sub, claims.sid),
  );
  registerRoute(app, accountRoutes.accountSessionEnd, ({ auth: claims, params }) =>
    sessions.endSession(deps, claims.sub, params.id),
  );
  registerRoute(app, accountRoutes.accountSessionsEndOthers, ({ auth: claims }) =>
    sessions.endOtherSessions(deps, claims.sub, claims.sid),
  );
  registerRoute(app, accountRoutes.accountSettings, async ({ auth: claims }) => {
    const from = await users.usernameChangeableFrom(deps.database.db, claims.sub);
    return {
      usernameChangeableFrom: from?.toISOString() ?? null,
      pendingEmail: await emailChange.pendingEmail(deps, claims.sub),
    };
  });
  registerRoute(app, accountRoutes.accountEmailChange, ({ auth: claims, body }) =>
    emailChange.requestEmailChange(deps, claims.sub, body),
  );
  registerRoute(app, accountRoutes.accountEmailConfirm, ({ body, req }) =>
    emailChange.confirmEmailChange(deps, addressKey(req.ip), body.token),
  );
  registerRoute(app, accountRoutes.twoFactorRecoveryCodes, ({ auth: claims, body }) =>
    twoFactor.regenerateRecoveryCodes(deps, claims.sub, body.code),
  );

  // Passkeys (ADR 054): the account's list and changes, the second step, signing in alone.
  registerRoute(app, passkeyRoutes.passkeys, ({ auth: claims }) => passkeys.list(deps, claims.sub));
  registerRoute(app, passkeyRoutes.passkeyRegistrationOptions, ({ auth: claims, body }) =>
    passkeys.registrationOptions(deps, claims.sub, body),
  );
  registerRoute(app, passkeyRoutes.passkeyAdd, ({ auth: claims, body }) =>
    passkeys.add(deps, claims.sub, body),
  );
  registerRoute(app, passkeyRoutes.passkeyRename, ({ auth: claims, params, body }) =>
    passkeys.rename(deps, claims.sub, params.id, body.name),
  );
  registerRoute(app, passkeyRoutes.passkeyRemove, ({ auth: claims, params, body }) =>
    passkeys.remove(deps, claims.sub, params.id, body),
  );
  registerRoute(app, passkeyRoutes.passkeyLoginOptions, ({ req }) =>
    passkeys.signInOptions(deps, addressKey(req.ip)),
  );
  registerRoute(app, passkeyRoutes.passkeyLogin, ({ body, req }) =>
    auth.loginWithPasskey(deps, body.credential, clientOf(req)),
  );
  registerRoute(app, passkeyRoutes.passkeySecondStepOptions, ({ body, req }) =>
    passkeys.secondStepOptions(deps, addressKey(req.ip), body.challenge),
  );
  registerRoute(app, passkeyRoutes.passkeySecondStep, ({ body, req }) =>
    auth.loginSecondStepPasskey(
      deps,
      addressKey(req.ip),
      body.challenge,
      body.credential,
      clientOf(req),
    ),
  );
}
