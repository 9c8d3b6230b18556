// CSV cells (RFC 4180) that a spreadsheet opens as data, never as a formula.

/** Cells a spreadsheet would read as a formula (CSV injection): `=`, `+`, `-`, `@`, tab, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell: a leading formula character gets a `'`, and the cell is quoted when it must be. */
export function csvText(value: string | null | undefined): string {
  let v = value ?? '';
  if (FORMULA_START.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A number cell, written as a number (a negative one stays a number). */
export function csvNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : '';
}

/** Lines joined with CRLF, as RFC 4180 writes them. */
export function csvLines(rows: string[][]): string {
  return rows.map((r) => r.join(',')).join('\r\n') + '\r\n';
}

/** Minor units as a decimal amount of the currency (`1999` usd → `19.99`, `500` jpy → `500`). */
export function majorUnits(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // An unknown code: two decimals, as most currencies have.
  }
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const scale = 10 ** digits;
  return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(digits, '0')}`;
}
