/**
 * What a payment provider still needs from a connected account, in words a vendor can act on. Stripe
 * names each missing field (`requirements.currently_due`: `individual.dob.day`, `external_account` …)
 * and why an account is disabled (`requirements.disabled_reason`); both adapters answer with these
 * sentences, so the workspace never shows a field path.
 */

/** Longest prefix first: `individual.verification.document` before `individual`. */
const REQUIREMENTS: ReadonlyArray<readonly [prefix: string, sentence: string]> = (
  [
    ['external_account', 'Add the bank account your payouts go to.'],
    ['tos_acceptance', 'Accept the payment provider’s services agreement.'],
    ['business_profile.url', 'Add your website or a public page about your business.'],
    ['business_profile.name', 'Add the name you sell under.'],
    ['individual.address.country', 'Say which country you live in.'],
    ['business_profile.mcc', 'Say what kind of business you run.'],
    ['business_profile.product_description', 'Describe what you sell.'],
    ['business_profile', 'Complete your business profile.'],
    ['business_type', 'Say whether you sell as an individual or a company.'],
    [
      'individual.verification.document',
      'Upload an identity document (passport, ID card or driving licence).',
    ],
    ['individual.verification.additional_document', 'Upload a document that proves your address.'],
    ['individual.dob', 'Add your date of birth.'],
    ['individual.address', 'Add your home address.'],
    ['individual.id_number', 'Add your national ID or tax number.'],
    ['individual.ssn_last_4', 'Add the last four digits of your social security number.'],
    ['individual.phone', 'Add your phone number.'],
    ['individual.email', 'Add your e-mail address.'],
    ['individual.first_name', 'Add your legal name.'],
    ['individual.last_name', 'Add your legal name.'],
    ['individual', 'Complete your personal details.'],
    ['company.tax_id', 'Add your company’s tax ID.'],
    ['company.address', 'Add your company’s address.'],
    ['company.verification.document', 'Upload a document that proves your company is registered.'],
    ['company', 'Complete your company’s details.'],
    ['representative', 'Add the details of the person who represents the company.'],
    ['owners', 'Add your company’s owners.'],
    ['directors', 'Add your company’s directors.'],
    ['executives', 'Add your company’s executives.'],
    [
      'settings.payments.statement_descriptor',
      'Choose how your name appears on buyers’ card statements.',
    ],
  ] as Array<[string, string]>
).sort((a, b) => b[0].length - a[0].length);

const OTHER_REQUIREMENT = 'Answer the payment provider’s remaining questions.';

/** One sentence per thing still due, each once, in the order given. */
export function requirementSentences(fields: readonly string[]): string[] {
  const out: string[] = [];
  for (const field of fields) {
    const found = REQUIREMENTS.find(([p]) => field === p || field.startsWith(`${p}.`));
    const sentence = found?.[1] ?? OTHER_REQUIREMENT;
    if (!out.includes(sentence)) out.push(sentence);
  }
  return out;
}

const DISABLED: Record<string, string> = {
  'requirements.past_due':
    'Some details are overdue: the account cannot take payments until they are added.',
  'requirements.pending_verification': 'The payment provider is verifying your details.',
  'action_required.requested_capabilities':
    'The account needs to ask for card payments and transfers again.',
  listed: 'The payment provider is reviewing the account.',
  under_review: 'The payment provider is reviewing the account.',
  platform_paused: 'Tradeshelf has paused payouts to this account. Contact support.',
  'rejected.fraud': 'The payment provider closed the account. Contact support.',
  'rejected.incomplete_verification':
    'The payment provider closed the account: verification was not completed.',
  'rejected.listed': 'The payment provider closed the account. Contact support.',
  'rejected.terms_of_service': 'The payment provider closed the account for a breach of its terms.',
  'rejected.other': 'The payment provider closed the account. Contact support.',
  other: 'The payment provider has disabled the account for now.',
};

/** Why the provider disabled the account, in words; null when it did not. */
export function disabledReasonSentence(code: string | null): string | null {
  if (!code) return null;
  return DISABLED[code] ?? DISABLED.other!;
}
