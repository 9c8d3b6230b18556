import { pagePolicy } from '../../platform/csp.ts';

/** The sandbox's hosted pages share one look: a card on a dark page, every style in one nonce'd sheet. */

export const esc = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!,
  );

/** The portal's link colour is the one `style` attribute: allowed by hash (ADR 022). */
export const policy = pagePolicy({ styleAttributes: ['color:#9db6ff'] });

export function page(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${esc(title)} · Payment sandbox</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;background:#0f1115;color:#e8eaf0;margin:0;padding:2rem 1rem}
main{max-width:34rem;margin:0 auto;background:#181b22;border:1px solid #2a2f3a;border-radius:12px;padding:1.5rem}
h1{font-size:1.3rem;margin-top:0} .muted{color:#9aa3b2;font-size:.9rem}
table{width:100%;border-collapse:collapse;margin:1rem 0} td{padding:.35rem 0;border-bottom:1px solid #2a2f3a}
td:last-child{text-align:right} form{display:inline} .row{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #3a4150;background:#232833;color:#e8eaf0;cursor:pointer}
button.primary{background:#3b63e6;border-color:#3b63e6;color:#fff} button:focus-visible{outline:2px solid #9db6ff;outline-offset:2px}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#2a2f3a;font-size:.8rem}
.field{display:flex;flex-direction:column;gap:.3rem;margin:.8rem 0} .check{display:flex;gap:.5rem;align-items:flex-start;margin:.8rem 0}
input,select{font:inherit;padding:.5rem .6rem;border-radius:8px;border:1px solid #3a4150;background:#0f1115;color:#e8eaf0}
input:focus-visible,select:focus-visible,a:focus-visible{outline:2px solid #9db6ff;outline-offset:2px} a{color:#9db6ff}
.error{color:#ff9b9b;font-size:.9rem;margin:0} ul.due{padding-left:1.2rem}
</style></head><body><main>
<p class="muted">Tradeshelf payment sandbox: no real money moves.</p>${body}</main></body></html>`;
}
