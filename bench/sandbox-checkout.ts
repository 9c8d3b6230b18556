/**
 * A buyer's checkout through HTTP only, as a person makes it: open the checkout, then the sandbox's
 * hosted Pay button. Imports nothing of the app, so `orders-driver.ts` can use it against an older
 * tree's server.
 */

/** Opens a checkout of one price as the buyer (201); answers the sandbox's session id. */
export async function openCheckout(
  baseUrl: string,
  token: string,
  vendorUrl: string,
  priceId: string,
): Promise<string> {
  const res = await fetch(
    `${baseUrl}/api/v1/user/product?vendorUrl=${encodeURIComponent(vendorUrl)}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ priceId }),
    },
  );
  if (res.status !== 201) throw new Error(`checkout ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { sessionId: string }).sessionId;
}

/** The sandbox checkout's Pay button: pays and delivers the signed webhook before answering (303). */
export async function payCheckout(baseUrl: string, sessionId: string): Promise<void> {
  const res = await fetch(`${baseUrl}/sandbox/checkout/${sessionId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
    body: '',
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`pay ${res.status}: ${await res.text()}`);
}
