import { authMessages, authRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { addressKey } from '../../platform/rate-limit.ts';
import { registerRoute } from '../../platform/routes.ts';
import * as auth from './service.ts';
import * as twoFactor from './two-factor.ts';

export async function authModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;

  registerRoute(app, authRoutes.signupBuyer, ({ body, req }) =>
    auth.signup(deps, addressKey(req.ip), body.email, body.password),
  );
  registerRoute(app, authRoutes.login, ({ body, req }) =>
    auth.login(deps, addressKey(req.ip), body.email, body.password),
  );
  registerRoute(app, authRoutes.loginTwoFactor, ({ body, req }) =>
    auth.loginSecondStep(deps, addressKey(req.ip), body.challenge, body.code),
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
    auth.refresh(deps, addressKey(req.ip), bearer, body.user_id, body.refresh_token),
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
  registerRoute(app, authRoutes.changePassword, ({ body, auth: claims }) =>
    auth.changePassword(deps, claims.sub, body.currentPassword, body.newPassword),
  );
  registerRoute(app, authRoutes.sendAccountVerificationEmail, async ({ body, req }) => {
    await auth.sendActivationEmail(deps, addressKey(req.ip), body.email);
    return { message: authMessages.activationSent };
  });
  registerRoute(app, authRoutes.verifyAccountCode, async ({ body, req }) => {
    await auth.verifyAccount(deps, addressKey(req.ip), body.email, body.code);
    return { message: authMessages.accountVerified, emailVerified: true as const };
  });
}
