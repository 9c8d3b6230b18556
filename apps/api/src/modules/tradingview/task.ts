// The task type the adapter hands over and the mails describe: its own file so adapter.ts and
// mail.ts do not import each other (issue 28).
/** A task as the sync just created it. */
export interface NewTask {
  id: string;
  vendorId: string;
  kind: 'grant' | 'revoke';
  username: string;
  productId: string;
  scripts: Array<{ id: string; name: string; url: string }>;
  expiresAt: Date | null;
  dueAt: Date | null;
  reason: string;
}
