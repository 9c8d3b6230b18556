/** E-mail codes (activation, forgot password) are six digits. */
export const CODE_LENGTH = 6;
export const codePattern = /^\d{6}$/;
export const codeMessage = 'Enter the 6-digit code from the e-mail.';
