// Receipts and invoices as PDF (ADR 060), drawn with pdfkit: the seller's business details, the
// buyer's billing details, line items in minor units formatted with their currency, refunds. One
// document for both copies; the vendor's says so in its title line.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatMoney, plans, type Purchase } from '@tradeshelf/contract';
import PDFDocument from 'pdfkit';
import type { SellerDetails } from '../catalog/index.ts';

export interface ReceiptInput {
  purchase: Purchase;
  seller: SellerDetails;
  buyer: { name: string; address: string; email: string };
  copy: 'buyer' | 'vendor';
  /** Where the buyer finds the order and what was delivered. */
  orderUrl: string;
  /** pdfkit compresses page content; tests turn it off to read the text. */
  compress?: boolean;
}

const money = (m: { amount: number; currency: string }) =>
  formatMoney(m.amount, m.currency, 'code');
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

// Names and addresses come in every script: the PDF standard fonts (Helvetica) hold Western
// European letters only, so "Łódź" or "Иванов" came out as other letters. DejaVu Sans covers Latin,
// Greek, Cyrillic and more; pdfkit embeds only the glyphs a receipt uses. Read once, on first use.
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function receiptFonts() {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    const read = (file: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
    fonts = { regular: read('DejaVuSans.ttf'), bold: read('DejaVuSans-Bold.ttf') };
  }
  return fonts;
}

/** The whole file in memory: a receipt is one page of text, a few kilobytes. */
export function receiptPdf(input: ReceiptInput): Promise<Buffer> {
  const { purchase: p, seller, buyer } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: input.compress ?? true,
    info: {
      Title: `Receipt ${p.receiptNumber ?? p.id}`,
      Author: seller.businessName || seller.displayName,
      CreationDate: new Date(p.paidAt ?? p.createdAt),
    },
  });
  const { regular, bold } = receiptFonts();
  doc.registerFont('Body', regular);
  doc.registerFont('Body-Bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font('Body-Bold').fontSize(20).text('Receipt and invoice');
  doc
    .font('Body')
    .fontSize(10)
    .fillColor('#555555')
    .text(input.copy === 'vendor' ? 'Seller’s copy' : 'Buyer’s copy')
    .moveDown();
  doc.fillColor('#000000');
  const facts: Array<[string, string]> = [
    ['Receipt number', p.receiptNumber ?? '—'],
    ['Order', p.id],
    ['Date paid', day(p.paidAt)],
  ];
  for (const [k, v] of facts) doc.text(`${k}: ${v}`);
  doc.moveDown();

  const top = doc.y;
  const half = width / 2 - 8;
  doc.font('Body-Bold').text('Seller', left, top, { width: half });
  doc.font('Body').text(seller.businessName || seller.displayName, { width: half });
  if (seller.businessAddress) doc.text(seller.businessAddress, { width: half });
  if (seller.taxId) doc.text(`Tax number: ${seller.taxId}`, { width: half });
  if (seller.taxNote) doc.text(seller.taxNote, { width: half });
  const sellerBottom = doc.y;
  doc.font('Body-Bold').text('Billed to', left + half + 16, top, { width: half });
  doc.font('Body').text(buyer.name || buyer.email, { width: half });
  if (buyer.address) doc.text(buyer.address, { width: half });
  if (buyer.name) doc.text(buyer.email, { width: half });
  doc.x = left;
  doc.y = Math.max(sellerBottom, doc.y) + 16;

  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Body-Bold' : 'Body');
    doc.text(label, left, y, { width: width - 120 });
    const after = doc.y;
    doc.text(amount, left + width - 120, y, { width: 120, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke('#999999');
  doc.moveDown(0.5);
  const sub = p.subscription;
  row(`${p.item.title}${sub ? ` (${p.scheme} plan)` : ''}`, money(p.subtotal));
  if (p.discount.amount > 0) row(`Coupon ${p.coupon?.code ?? ''}`, `-${money(p.discount)}`);
  if (p.memberPrice)
    row(`${plans[p.memberPrice.plan].name} member price`, `-${money(p.memberPrice.discount)}`);
  row('Total', money(p.total), true);
  doc.moveDown(0.5);
  row('Paid', money(p.paid));
  if (p.refunded.amount > 0) {
    row(`Refunded${p.refundedAt ? ` on ${day(p.refundedAt)}` : ''}`, `-${money(p.refunded)}`);
    row(
      'Net paid',
      money({ amount: p.paid.amount - p.refunded.amount, currency: p.paid.currency }),
      true,
    );
  }
  if (p.revoked) row(`Access ended on ${day(p.revoked.at)}: ${p.revoked.reason}`, '');
  doc.moveDown();
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke('#999999');
  doc.moveDown(0.5);
  doc.font('Body').fontSize(9).fillColor('#555555');
  doc.text(
    `Sold through Tradeshelf by ${seller.displayName}. Amounts in ${p.total.currency.toUpperCase()}.`,
  );
  if (input.copy === 'buyer') doc.text(`Your order and downloads: ${input.orderUrl}`);
  doc.end();
  return done;
}
