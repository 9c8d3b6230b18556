// Webhooks as Stripe sends them, written by hand for what no click on the sandbox makes: the body
// signed with the endpoint's secret by Stripe's own test helper.
import Stripe from 'stripe';
import { PAYMENTS_WEBHOOK_PATH } from '../src/integrations/payments/port.ts';
import type { TestApp } from './harness.ts';

/** Posts a raw webhook body with a real Stripe signature made with `secret`. */
export function postSignedWebhook(t: TestApp, payload: string, secret: string) {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({
    method: 'POST',
    url: PAYMENTS_WEBHOOK_PATH,
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

/** Posts the event `id` of `type` about `object`, signed with `secret`. */
export function postStripeEvent(
  t: TestApp,
  secret: string,
  type: string,
  object: Record<string, unknown>,
  id: string,
) {
  const event = {
    id,
    object: 'event',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object },
  };
  return postSignedWebhook(t, JSON.stringify(event), secret);
}
