import type { AssetClass, ProductKind, TradingPlatform } from '@tradeshelf/contract';

/** Shared drawing helpers for the demo pictures (ADR 026): sizes, text, seeded randomness, prices. */

export const COVER = { width: 1200, height: 675 } as const;
export const SHARE = { width: 1200, height: 630 } as const;
export const LOGO = 256;

export const FONT = `font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"`;

export function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** FNV-1a: a stable 32-bit seed from a string. */
export function seedOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

export const n1 = (v: number) => Math.round(v * 10) / 10;

export interface Candle {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** Where a price stands on a chart of `data` drawn `height` px tall from `top` (the high at the top). */
export function priceScale(data: Candle[], top: number, height: number) {
  const hi = Math.max(...data.map((d) => d.h));
  const lo = Math.min(...data.map((d) => d.l));
  return { hi, lo, y: (v: number) => n1(top + ((hi - v) / (hi - lo)) * height) };
}

/**
 * Plain candles for a picture's decoration (the product charts draw their own, themed): candle `k`
 * centred at `x0 + k * step`, a wick and a `body`-wide body in the up or down colour.
 */
export function plainCandles(
  data: Candle[],
  y: (v: number) => number,
  o: {
    x0: number;
    step: number;
    body: number;
    up: string;
    down: string;
    minBody?: number;
    extra?: string;
  },
): string[] {
  const extra = o.extra ? ` ${o.extra}` : '';
  return data.flatMap((d, k) => {
    const cx = o.x0 + k * o.step;
    const colour = d.c >= d.o ? o.up : o.down;
    return [
      `<line x1="${cx}" y1="${y(d.h)}" x2="${cx}" y2="${y(d.l)}" stroke="${colour}"${extra}/>`,
      `<rect x="${cx - o.body / 2}" y="${Math.min(y(d.o), y(d.c))}" width="${o.body}" height="${Math.max(o.minBody ?? 1, n1(Math.abs(y(d.o) - y(d.c))))}" fill="${colour}"${extra}/>`,
    ];
  });
}

/** A trending random walk with volatility clusters: reads as a market, not noise. */
export function candles(random: () => number, count: number, start: number): Candle[] {
  const out: Candle[] = [];
  let price = start;
  let drift = (random() - 0.45) * 0.004;
  let vol = 0.008;
  for (let i = 0; i < count; i++) {
    if (i % 18 === 0) drift = (random() - 0.47) * 0.006;
    vol = Math.min(0.02, Math.max(0.003, vol * (0.85 + random() * 0.3)));
    const o = price;
    const c = o * (1 + drift + (random() - 0.5) * vol * 2);
    const h = Math.max(o, c) * (1 + random() * vol);
    const l = Math.min(o, c) * (1 - random() * vol);
    out.push({ o, h, l, c, v: 0.3 + random() * 0.7 + Math.abs(c - o) / o / vol });
    price = c;
  }
  return out;
}

export function ema(values: number[], period: number): number[] {
  const k = 2 / (period + 1);
  const out: number[] = [];
  values.forEach((v, i) => out.push(i === 0 ? v : v * k + out[i - 1]! * (1 - k)));
  return out;
}

export function rsi(values: number[], period = 14): number[] {
  let gain = 0;
  let loss = 0;
  return values.map((v, i) => {
    if (i === 0) return 50;
    const d = v - values[i - 1]!;
    gain = (gain * (period - 1) + Math.max(d, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-d, 0)) / period;
    return loss === 0 ? 70 : 100 - 100 / (1 + gain / loss);
  });
}

export const SYMBOLS: Record<AssetClass, Array<[string, number, string]>> = {
  stocks: [
    ['NVDA', 131, 'NASDAQ'],
    ['AAPL', 228, 'NASDAQ'],
    ['TSLA', 246, 'NASDAQ'],
    ['AMD', 154, 'NASDAQ'],
  ],
  options: [
    ['SPY', 571, 'AMEX'],
    ['QQQ', 488, 'NASDAQ'],
  ],
  futures: [
    ['ES1!', 5810, 'CME'],
    ['NQ1!', 20240, 'CME'],
    ['CL1!', 71.4, 'NYMEX'],
  ],
  forex: [
    ['EURUSD', 1.0842, 'FX'],
    ['GBPJPY', 193.7, 'FX'],
    ['USDJPY', 149.8, 'FX'],
  ],
  crypto: [
    ['BTCUSDT', 67250, 'BINANCE'],
    ['ETHUSDT', 2630, 'BINANCE'],
    ['SOLUSDT', 152, 'BINANCE'],
  ],
  indices: [
    ['US500', 5805, 'INDEX'],
    ['NAS100', 20180, 'INDEX'],
  ],
  commodities: [
    ['XAUUSD', 2648, 'OANDA'],
    ['USOIL', 71.2, 'TVC'],
  ],
};

export const TIMEFRAMES = ['5', '15', '1H', '4H', '1D'];

export interface ProductPicture {
  title: string;
  kind: ProductKind;
  platforms: readonly TradingPlatform[];
  assets: readonly AssetClass[];
  tags: readonly string[];
  vendorName: string;
  community: string | null;
}

export function svg(w: number, h: number, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

export function initials(name: string): string {
  const words = name.split(/[\s-]+/).filter(Boolean);
  return ((words[0]?.[0] ?? '') + (words[1]?.[0] ?? words[0]?.[1] ?? '')).toUpperCase();
}

export const HUES = [168, 200, 230, 260, 290, 330, 20, 45, 140];
export const hueOf = (s: string) => HUES[seedOf(s) % HUES.length]!;
