/** Messages the server answers with; the web app shows them as they are. */
export const authMessages = {
  invalidCredentials: 'Invalid e-mail or password.',
  forgotPasswordSent: 'If an account exists for that e-mail, we have sent it a reset code.',
  codeValid: 'Code verified. Choose a new password.',
  invalidCode: 'The code is invalid or has expired. Request a new one.',
  passwordReset: 'Your password has been reset. Log in with the new password.',
  passwordChanged: 'Password changed. Other devices have been signed out.',
  wrongCurrentPassword: 'The current password is incorrect.',
  activationSent: 'If that account needs activating, we have sent it a new code.',
  accountVerified: 'Your account is activated.',
  loggedOut: 'Signed out.',
  emailTaken: 'An account with this e-mail already exists. Log in or reset your password.',
  verificationExpired:
    'Your e-mail is not verified and the grace period has ended. Enter the code we e-mailed you to continue.',
} as const;

/** Two-factor authentication (ADR 054). */
export const twoFactorMessages = {
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  invalidCode: 'That code is not valid. Enter the current code from your authenticator app.',
  challengeExpired: 'Your sign-in took too long. Log in again.',
  alreadyOn: 'Two-factor authentication is already on.',
  notStarted: 'Start setting up two-factor authentication first.',
  enabled: 'Two-factor authentication is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-factor authentication is off.',
  notOn: 'Two-factor authentication is not on.',
  disableNeedsProof: 'Enter a current code or your password.',
  required: 'Turn on two-factor authentication first.',
  codeRequired: 'Enter a current code from your authenticator app to change the payout account.',
} as const;
