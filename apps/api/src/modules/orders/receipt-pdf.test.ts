import { invoicesRoutes, ordersRoutes, vendorSalesRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor } from '../../../test/factories/catalog.ts';
import {
  buyPaidProduct,
  createBuyer,
  sandboxPaymentAction,
} from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';
import { pdfText } from '../../../test/pdf.ts';

// Issue 33, ADR 060: receipts and invoices as PDF, the seller's business details and the buyer's
// billing details, through HTTP only.

const t = useTestApp();
let vendor: Awaited<ReturnType<typeof signedInVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;
beforeAll(async () => {
  vendor = await signedInVendor(t, { displayName: 'Candle Works' });
  product = await createProduct(t, vendor.id, { title: 'Breakout Scanner', amount: 12_345 });
});

const receipt = (token: string, id: string) =>
  t.call(invoicesRoutes.purchaseReceiptPdf, { token, params: { id } });
const invoice = (token: string, id: string) =>
  t.call(invoicesRoutes.vendorSaleInvoicePdf, { token, params: { id } });

describe('business and billing details', () => {
  it('validates the vendor’s tax fields and changes nothing on a bad one', async () => {
    const bad = await t.call(invoicesRoutes.saveVendorBusinessDetails, {
      token: vendor.token,
      body: {
        businessName: 'Candle Works Ltd',
        businessAddress: 'a\nb\nc\nd\ne\nf\ng',
        taxId: 'GB<script>',
        taxNote: '',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['businessAddress', 'taxId']);
    const kept = await t.call(invoicesRoutes.vendorBusinessDetails, { token: vendor.token });
    expect(kept.json().business).toEqual({
      businessName: '',
      businessAddress: '',
      taxId: '',
      taxNote: '',
    });

    const ok = await t.call(invoicesRoutes.saveVendorBusinessDetails, {
      token: vendor.token,
      body: {
        businessName: '  Candle Works Ltd ',
        businessAddress: '1 Market Street\n\n  London EC1 4AB \nUnited Kingdom',
        taxId: 'GB 123 4567 89',
        taxNote: 'VAT included where due.',
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().business).toEqual({
      businessName: 'Candle Works Ltd',
      businessAddress: '1 Market Street\nLondon EC1 4AB\nUnited Kingdom',
      taxId: 'GB 123 4567 89',
      taxNote: 'VAT included where due.',
    });
    const buyer = await createBuyer(t);
    const notVendor = await t.call(invoicesRoutes.vendorBusinessDetails, { token: buyer.token });
    expect(notVendor.statusCode).toBe(403);
  });
});

describe('receipts as PDF', () => {
  it('gives the buyer a PDF with the seller, the billing details, the lines and the refund', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    const billing = await t.call(invoicesRoutes.saveBillingDetails, {
      token: buyer.token,
      body: { name: 'Ada Trader', address: '7 Quay Road\nDublin D02' },
    });
    expect(billing.statusCode, billing.body).toBe(200);

    const res = await receipt(buyer.token, buyer.purchaseId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="receipt-.+\.pdf"$/);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toContain('%%EOF');
    const text = await pdfText(bytes);
    for (const shown of [
      'Candle Works Ltd',
      '1 Market Street',
      'Tax number: GB 123 4567 89',
      'VAT included where due.',
      'Ada Trader',
      '7 Quay Road',
      buyer.email,
      'Breakout Scanner',
      '123.45 USD',
      `/orders/${buyer.purchaseId}`,
    ])
      expect(text).toContain(shown);
    expect(text).not.toContain('Refunded');

    // The receipt mail links to the order (where the PDF is) and to what was delivered.
    const mail = await t.database.db.execute<{ text: string }>(
      sql`select text from mail_outbox where lower("to") = lower(${buyer.email})
        and subject like 'Your Tradeshelf receipt%'`,
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]!.text).toContain(`/orders/${buyer.purchaseId}`);
    expect(mail.rows[0]!.text).toMatch(/Breakout Scanner: access \(http:\/\/[^)]+\/library\)/);

    // A full refund from the sandbox's dashboard: the receipt shows it and the net.
    const refunded = await sandboxPaymentAction(t, buyer.purchaseId, 'refund');
    expect(refunded.statusCode).toBeLessThan(400);
    const after = await t.call(ordersRoutes.purchaseDetails, {
      token: buyer.token,
      params: { id: buyer.purchaseId },
    });
    expect(after.json().purchase.refunded).toEqual({ amount: 12_345, currency: 'usd' });
    const again = await pdfText((await receipt(buyer.token, buyer.purchaseId)).rawPayload);
    expect(again).toContain('Refunded');
    expect(again).toContain('-123.45 USD');
    expect(again).toContain('Net paid');
    expect(again).toContain('0.00 USD');
  });

  it('gives the vendor the seller’s copy of a sale', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    const res = await invoice(vendor.token, buyer.purchaseId);
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Seller');
    expect(text).toContain('Candle Works Ltd');
    expect(text).toContain(buyer.email);
    const sale = await t.call(vendorSalesRoutes.vendorSale, {
      token: vendor.token,
      params: { id: buyer.purchaseId },
    });
    expect(sale.statusCode).toBe(200);
  });

  it('writes names and addresses in other scripts as they were typed', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    const name = 'Łukasz Żółkiewski · Ирина Петрова · Νίκος';
    const address = 'ul. Świętokrzyska 12\nМосква 101000';
    const saved = await t.call(invoicesRoutes.saveBillingDetails, {
      token: buyer.token,
      body: { name, address },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const text = await pdfText((await receipt(buyer.token, buyer.purchaseId)).rawPayload);
    expect(text).toContain(name);
    expect(text).toContain('ul. Świętokrzyska 12');
    expect(text).toContain('Москва 101000');
    expect(text).toContain('123.45 USD');
  });

  it('answers 404 for another user’s order and another vendor’s sale', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    const stranger = await createBuyer(t);
    const other = await signedInVendor(t);
    const theirs = await receipt(stranger.token, buyer.purchaseId);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.headers['content-type']).toContain('application/json');
    expect(theirs.json().code).toBe('not_found');
    expect((await invoice(other.token, buyer.purchaseId)).statusCode).toBe(404);
    expect((await receipt(buyer.token, 'pur_missing')).statusCode).toBe(404);
    expect((await receipt(stranger.token, buyer.purchaseId)).body).not.toContain(buyer.email);
    expect(
      (await t.call(invoicesRoutes.purchaseReceiptPdf, { token: null, params: { id: 'x' } }))
        .statusCode,
    ).toBe(401);
  });
});
