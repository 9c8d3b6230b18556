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
