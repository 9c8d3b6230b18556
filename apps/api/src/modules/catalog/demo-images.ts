import type { AssetClass, ProductKind, TradingPlatform } from '@tradeshelf/contract';

/**
 * Demo pictures drawn as SVG in each product's platform style (ADR 026). Everything is derived from
 * the product's own fields through a seeded generator, so the same product gives the same bytes on
 * every machine, and the content hash of the SVG names the stored image.
 */

export const COVER = { width: 1200, height: 675 } as const;
export const SHARE = { width: 1200, height: 630 } as const;
export const LOGO = 256;

const FONT = `font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"`;

export function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** FNV-1a: a stable 32-bit seed from a string. */
export function seedOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function rng(seed: number) {
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

const n1 = (v: number) => Math.round(v * 10) / 10;

interface Candle {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** A trending random walk with volatility clusters: reads as a market, not noise. */
function candles(random: () => number, count: number, start: number): Candle[] {
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

function ema(values: number[], period: number): number[] {
  const k = 2 / (period + 1);
  const out: number[] = [];
  values.forEach((v, i) => out.push(i === 0 ? v : v * k + out[i - 1]! * (1 - k)));
  return out;
}

function rsi(values: number[], period = 14): number[] {
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

const SYMBOLS: Record<AssetClass, Array<[string, number, string]>> = {
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

const TIMEFRAMES = ['5', '15', '1H', '4H', '1D'];

export interface ProductPicture {
  title: string;
  kind: ProductKind;
  platforms: readonly TradingPlatform[];
  assets: readonly AssetClass[];
  tags: readonly string[];
  vendorName: string;
  community: string | null;
}

interface Theme {
  bg: string;
  panel: string;
  grid: string;
  text: string;
  muted: string;
  up: string;
  down: string;
  upFill: string;
  downFill: string;
  wick: string;
  line: string;
  line2: string;
  accent: string;
}

const THEMES: Record<string, Theme> = {
  // Dark chart, teal/red candles, purple study line: the TradingView look.
  tradingview: {
    bg: '#131722',
    panel: '#1e222d',
    grid: '#1f2430',
    text: '#d1d4dc',
    muted: '#787b86',
    up: '#26a69a',
    down: '#ef5350',
    upFill: '#26a69a',
    downFill: '#ef5350',
    wick: '',
    line: '#2962ff',
    line2: '#7e57c2',
    accent: '#2962ff',
  },
  // Black chart, lime outlines, black bulls and white bears: MetaTrader's defaults.
  metatrader: {
    bg: '#000000',
    panel: '#d4d0c8',
    grid: '#2f3b2f',
    text: '#ffffff',
    muted: '#9aa09a',
    up: '#00ff00',
    down: '#00ff00',
    upFill: '#000000',
    downFill: '#ffffff',
    wick: '#00ff00',
    line: '#ff0000',
    line2: '#c0c0c0',
    accent: '#1e90ff',
  },
  // Light chart, green/red bodies with dark outlines, dark chrome: NinjaTrader 8.
  ninjatrader: {
    bg: '#ffffff',
    panel: '#2b2b2b',
    grid: '#e8e8e8',
    text: '#1a1a1a',
    muted: '#6b6b6b',
    up: '#1a1a1a',
    down: '#1a1a1a',
    upFill: '#32cd32',
    downFill: '#dc143c',
    wick: '#1a1a1a',
    line: '#1e90ff',
    line2: '#ff8c00',
    accent: '#ff8c00',
  },
  // Black chart, hollow green bulls, red bears, cyan study: thinkorswim.
  thinkorswim: {
    bg: '#000000',
    panel: '#1c1c1c',
    grid: '#1f1f1f',
    text: '#e0e0e0',
    muted: '#8a8a8a',
    up: '#00c853',
    down: '#ff1744',
    upFill: '#000000',
    downFill: '#ff1744',
    wick: '',
    line: '#00e5ff',
    line2: '#ff00ff',
    accent: '#00c853',
  },
  ctrader: {
    bg: '#1b2130',
    panel: '#242c3f',
    grid: '#232b3c',
    text: '#c9d1e3',
    muted: '#7d879c',
    up: '#3ba776',
    down: '#e04a4a',
    upFill: '#3ba776',
    downFill: '#e04a4a',
    wick: '',
    line: '#f5b83d',
    line2: '#45a0ff',
    accent: '#45a0ff',
  },
  tradestation: {
    bg: '#0d1117',
    panel: '#1b2330',
    grid: '#182030',
    text: '#d8dee9',
    muted: '#7d8796',
    up: '#00b4d8',
    down: '#ff6b6b',
    upFill: '#00b4d8',
    downFill: '#ff6b6b',
    wick: '',
    line: '#ffd166',
    line2: '#06d6a0',
    accent: '#ffd166',
  },
};

function themeOf(platform: TradingPlatform | undefined): [string, Theme] {
  const key =
    platform === 'mt4' || platform === 'mt5'
      ? 'metatrader'
      : platform && platform in THEMES
        ? platform
        : 'tradingview';
  return [key, THEMES[key]!];
}

type Study = 'rsi' | 'macd' | 'volume' | 'delta' | 'stoch';

function studyOf(p: ProductPicture): Study {
  const text = `${p.title} ${p.tags.join(' ')}`.toLowerCase();
  if (/rsi|divergen/.test(text)) return 'rsi';
  if (/macd|momentum/.test(text)) return 'macd';
  if (/delta|footprint|order ?flow|tape/.test(text)) return 'delta';
  if (/volume|vwap|profile/.test(text)) return 'volume';
  if (/stoch|oscillat|squeeze/.test(text)) return 'stoch';
  return ['rsi', 'macd', 'volume', 'stoch'][seedOf(p.title) % 4] as Study;
}

function fmtPrice(v: number, ref: number): string {
  return ref < 10 ? v.toFixed(4) : ref < 1000 ? v.toFixed(2) : v.toFixed(1);
}

/** A trading chart in a platform's style: price pane with an overlay, a study pane and axes. */
function chartSvg(p: ProductPicture, variant: number): string {
  const { width: W, height: H } = COVER;
  const random = rng(seedOf(`${p.title}#${variant}`));
  const [style, t] = themeOf(p.platforms[0]);
  const assets = p.assets.length ? p.assets : (['stocks'] as AssetClass[]);
  const pool = SYMBOLS[assets[Math.floor(random() * assets.length)]!];
  const [symbol, base, exchange] = pool[Math.floor(random() * pool.length)]!;
  const tf = TIMEFRAMES[Math.floor(random() * TIMEFRAMES.length)]!;
  const study = studyOf(p);

  const top = style === 'metatrader' ? 34 : 46;
  const left = style === 'tradingview' ? 46 : 0;
  const axisW = 78;
  const bottom = 30;
  const studyH = 150;
  const gap = 8;
  const priceTop = top + 10;
  const priceBottom = H - bottom - studyH - gap;
  const studyTop = priceBottom + gap;
  const studyBottom = H - bottom;
  const plotRight = W - axisW;
  const count = 84;
  const step = (plotRight - left - 16) / count;
  const data = candles(random, count, base * (0.94 + random() * 0.08));
  const hi = Math.max(...data.map((d) => d.h));
  const lo = Math.min(...data.map((d) => d.l));
  const pad = (hi - lo) * 0.08;
  const y = (v: number) =>
    n1(priceTop + ((hi + pad - v) / (hi - lo + 2 * pad)) * (priceBottom - priceTop));
  const x = (i: number) => n1(left + 8 + i * step + step / 2);
  const closes = data.map((d) => d.c);

  const parts: string[] = [];
  parts.push(`<rect width="${W}" height="${H}" fill="${t.bg}"/>`);
  // Grid.
  for (let i = 1; i < 8; i++) {
    const gx = n1(left + ((plotRight - left) * i) / 8);
    parts.push(
      `<line x1="${gx}" y1="${top}" x2="${gx}" y2="${studyBottom}" stroke="${t.grid}" stroke-width="1"${style === 'metatrader' ? ' stroke-dasharray="2 3"' : ''}/>`,
    );
  }
  for (let i = 1; i < 6; i++) {
    const gy = n1(priceTop + ((priceBottom - priceTop) * i) / 6);
    parts.push(
      `<line x1="${left}" y1="${gy}" x2="${plotRight}" y2="${gy}" stroke="${t.grid}" stroke-width="1"${style === 'metatrader' ? ' stroke-dasharray="2 3"' : ''}/>`,
    );
  }
  // Candles.
  const bw = Math.max(3, n1(step * 0.62));
  data.forEach((d, i) => {
    const up = d.c >= d.o;
    const stroke = up ? t.up : t.down;
    const fill = up ? t.upFill : t.downFill;
    const wick = t.wick || stroke;
    const yo = y(d.o);
    const yc = y(d.c);
    parts.push(
      `<line x1="${x(i)}" y1="${y(d.h)}" x2="${x(i)}" y2="${y(d.l)}" stroke="${wick}" stroke-width="1.2"/>`,
      `<rect x="${n1(x(i) - bw / 2)}" y="${Math.min(yo, yc)}" width="${bw}" height="${Math.max(1, n1(Math.abs(yo - yc)))}" fill="${fill}" stroke="${stroke}" stroke-width="1"/>`,
    );
  });
  // Overlay: a fast and a slow average, or bands for band-like products.
  const path = (vals: number[], yf: (v: number) => number) =>
    vals.map((v, i) => `${i ? 'L' : 'M'}${x(i)} ${n1(yf(v))}`).join('');
  const fast = ema(closes, 9);
  const slow = ema(closes, 26);
  parts.push(`<path d="${path(fast, y)}" fill="none" stroke="${t.line}" stroke-width="2"/>`);
  parts.push(
    `<path d="${path(slow, y)}" fill="none" stroke="${t.line2}" stroke-width="2" opacity="0.9"/>`,
  );
  // Signals where the averages cross: what the indicator would mark.
  for (let i = 1; i < count; i++) {
    const crossUp = fast[i - 1]! < slow[i - 1]! && fast[i]! >= slow[i]!;
    const crossDown = fast[i - 1]! > slow[i - 1]! && fast[i]! <= slow[i]!;
    if (crossUp) {
      const yy = y(data[i]!.l) + 14;
      parts.push(
        `<path d="M${x(i)} ${yy - 8}l7 12h-14z" fill="${t.up === '#1a1a1a' ? t.upFill : t.up}"/>`,
        `<text x="${x(i)}" y="${yy + 20}" ${FONT} font-size="12" fill="${t.up === '#1a1a1a' ? '#1a1a1a' : t.up}" text-anchor="middle" font-weight="bold">BUY</text>`,
      );
    } else if (crossDown) {
      const yy = y(data[i]!.h) - 14;
      parts.push(
        `<path d="M${x(i)} ${yy + 8}l7 -12h-14z" fill="${t.down === '#1a1a1a' ? t.downFill : t.down}"/>`,
        `<text x="${x(i)}" y="${yy - 10}" ${FONT} font-size="12" fill="${t.down === '#1a1a1a' ? '#1a1a1a' : t.down}" text-anchor="middle" font-weight="bold">SELL</text>`,
      );
    }
  }
  // Study pane.
  parts.push(
    `<line x1="${left}" y1="${studyTop - gap / 2}" x2="${W}" y2="${studyTop - gap / 2}" stroke="${t.muted}" stroke-width="1" opacity="0.5"/>`,
  );
  const sy = (v: number, min: number, max: number) =>
    studyTop + 18 + ((max - v) / (max - min || 1)) * (studyBottom - studyTop - 26);
  let label: string;
  if (study === 'rsi' || study === 'stoch') {
    const vals = study === 'rsi' ? rsi(closes) : ema(rsi(closes, 5), 3);
    label = study === 'rsi' ? 'RSI 14 close' : 'Stoch RSI 14 14 3 3';
    parts.push(
      `<rect x="${left}" y="${n1(sy(70, 0, 100))}" width="${plotRight - left}" height="${n1(sy(30, 0, 100) - sy(70, 0, 100))}" fill="${t.line2}" opacity="0.1"/>`,
      `<line x1="${left}" y1="${n1(sy(70, 0, 100))}" x2="${plotRight}" y2="${n1(sy(70, 0, 100))}" stroke="${t.muted}" stroke-dasharray="4 4"/>`,
      `<line x1="${left}" y1="${n1(sy(30, 0, 100))}" x2="${plotRight}" y2="${n1(sy(30, 0, 100))}" stroke="${t.muted}" stroke-dasharray="4 4"/>`,
      `<path d="${path(vals, (v) => sy(v, 0, 100))}" fill="none" stroke="${t.line2}" stroke-width="2"/>`,
    );
  } else if (study === 'macd') {
    const macd = fast.map((f, i) => f - slow[i]!);
    const signal = ema(macd, 9);
    const hist = macd.map((m, i) => m - signal[i]!);
    const mx = Math.max(...macd.map(Math.abs), ...hist.map(Math.abs)) || 1;
    label = 'MACD 12 26 close 9';
    const zero = n1(sy(0, -mx, mx));
    hist.forEach((h, i) => {
      const hy = n1(sy(h, -mx, mx));
      parts.push(
        `<rect x="${n1(x(i) - bw / 2)}" y="${Math.min(zero, hy)}" width="${bw}" height="${Math.max(1, n1(Math.abs(zero - hy)))}" fill="${h >= 0 ? (t.upFill === '#000000' ? t.up : t.upFill) : t.downFill === '#ffffff' ? t.line2 : t.downFill}" opacity="0.7"/>`,
      );
    });
    parts.push(
      `<path d="${path(macd, (v) => sy(v, -mx, mx))}" fill="none" stroke="${t.line}" stroke-width="2"/>`,
      `<path d="${path(signal, (v) => sy(v, -mx, mx))}" fill="none" stroke="${t.line2}" stroke-width="1.6"${style === 'metatrader' ? ' stroke-dasharray="3 3"' : ''}/>`,
    );
  } else {
    const vmax = Math.max(...data.map((d) => d.v));
    label = study === 'delta' ? 'Cumulative Delta' : 'Volume 20';
    let cum = 0;
    const deltas = data.map((d) => (cum += (d.c - d.o >= 0 ? 1 : -1) * d.v));
    data.forEach((d, i) => {
      const vy = n1(sy(d.v, 0, vmax));
      parts.push(
        `<rect x="${n1(x(i) - bw / 2)}" y="${vy}" width="${bw}" height="${n1(studyBottom - 4 - vy)}" fill="${d.c >= d.o ? (t.upFill === '#000000' ? t.up : t.upFill) : t.downFill === '#ffffff' ? t.muted : t.downFill}" opacity="0.55"/>`,
      );
    });
    if (study === 'delta') {
      const dmin = Math.min(...deltas);
      const dmax = Math.max(...deltas);
      parts.push(
        `<path d="${path(deltas, (v) => sy(v, dmin, dmax))}" fill="none" stroke="${t.line2}" stroke-width="2"/>`,
      );
    } else {
      parts.push(
        `<path d="${path(
          ema(
            data.map((d) => d.v),
            20,
          ),
          (v) => sy(v, 0, vmax),
        )}" fill="none" stroke="${t.line}" stroke-width="1.6"/>`,
      );
    }
  }
  parts.push(
    `<text x="${left + 10}" y="${studyTop + 14}" ${FONT} font-size="12" fill="${t.muted}">${label}</text>`,
  );
  // Price axis with the last price tag.
  parts.push(
    `<rect x="${plotRight}" y="${top}" width="${axisW}" height="${H - top}" fill="${t.bg}"/>`,
    `<line x1="${plotRight}" y1="${top}" x2="${plotRight}" y2="${H}" stroke="${t.muted}" stroke-width="1" opacity="0.5"/>`,
  );
  for (let i = 0; i <= 6; i++) {
    const v = hi + pad - ((hi - lo + 2 * pad) * i) / 6;
    parts.push(
      `<text x="${plotRight + 8}" y="${n1(y(v) + 4)}" ${FONT} font-size="12" fill="${t.muted}">${fmtPrice(v, base)}</text>`,
    );
  }
  const last = data[count - 1]!;
  const lastUp = last.c >= last.o;
  const tagColor = lastUp ? (t.upFill === '#000000' ? t.up : t.upFill) : t.downFill;
  parts.push(
    `<line x1="${left}" y1="${y(last.c)}" x2="${plotRight}" y2="${y(last.c)}" stroke="${tagColor}" stroke-dasharray="2 3" stroke-width="1"/>`,
    `<rect x="${plotRight + 2}" y="${n1(y(last.c) - 10)}" width="${axisW - 4}" height="20" rx="2" fill="${tagColor === '#ffffff' ? '#c0c0c0' : tagColor}"/>`,
    `<text x="${plotRight + 8}" y="${n1(y(last.c) + 4)}" ${FONT} font-size="12" font-weight="bold" fill="${style === 'ninjatrader' ? '#ffffff' : '#000000'}">${fmtPrice(last.c, base)}</text>`,
  );
  // Time axis.
  parts.push(`<rect x="0" y="${H - bottom}" width="${W}" height="${bottom}" fill="${t.bg}"/>`);
  const hours = ['09:30', '11:00', '12:30', '14:00', '15:30', '10:00', '11:30'];
  for (let i = 1; i < 8; i++) {
    parts.push(
      `<text x="${n1(left + ((plotRight - left) * i) / 8)}" y="${H - 10}" ${FONT} font-size="12" fill="${t.muted}" text-anchor="middle">${hours[(i + variant) % hours.length]}</text>`,
    );
  }

  // Platform chrome.
  const ohlc = `O ${fmtPrice(last.o, base)}  H ${fmtPrice(last.h, base)}  L ${fmtPrice(last.l, base)}  C ${fmtPrice(last.c, base)}`;
  const name = esc(clip(p.title, 38));
  if (style === 'metatrader') {
    parts.push(
      `<rect width="${W}" height="${top}" fill="#d4d0c8"/>`,
      `<rect x="0" y="${top - 1}" width="${W}" height="1" fill="#808080"/>`,
      `<text x="12" y="22" ${FONT} font-size="14" fill="#000000" font-weight="bold">${esc(symbol.replace('!', ''))},${tf === '1H' ? 'H1' : tf === '4H' ? 'H4' : tf === '1D' ? 'D1' : `M${tf}`}</text>`,
      `<text x="${W - 12}" y="22" ${FONT} font-size="13" fill="#000000" text-anchor="end">${esc(p.platforms[0] === 'mt4' ? 'MetaTrader 4' : 'MetaTrader 5')}</text>`,
      `<text x="10" y="${top + 22}" ${FONT} font-size="13" fill="#ffffff">${esc(symbol.replace('!', ''))},${tf}  ${ohlc}</text>`,
      `<text x="10" y="${top + 42}" ${FONT} font-size="13" fill="${t.line}">${name}</text>`,
    );
  } else if (style === 'ninjatrader') {
    parts.push(
      `<rect width="${W}" height="${top}" fill="${t.panel}"/>`,
      `<rect x="8" y="10" width="190" height="${top - 10}" rx="3" fill="#3c3c3c"/>`,
      `<text x="20" y="32" ${FONT} font-size="14" fill="#ffffff">${esc(symbol.replace('1!', ' 03-27'))} · ${tf} Min</text>`,
      `<text x="${W - 12}" y="30" ${FONT} font-size="13" fill="#bbbbbb" text-anchor="end">NinjaTrader 8</text>`,
      `<text x="10" y="${top + 22}" ${FONT} font-size="13" fill="#1a1a1a">${ohlc}</text>`,
      `<text x="10" y="${top + 42}" ${FONT} font-size="13" fill="${t.accent}" font-weight="bold">${name}</text>`,
    );
  } else {
    const brand =
      style === 'thinkorswim'
        ? 'thinkorswim'
        : style === 'ctrader'
          ? 'cTrader'
          : style === 'tradestation'
            ? 'TradeStation'
            : '';
    parts.push(
      `<rect width="${W}" height="${top}" fill="${style === 'tradingview' ? t.bg : t.panel}"/>`,
      `<rect x="0" y="${top - 1}" width="${W}" height="1" fill="${t.grid}"/>`,
      `<text x="${left + 12}" y="29" ${FONT} font-size="16" font-weight="bold" fill="${t.text}">${esc(symbol)}</text>`,
      `<text x="${left + 24 + symbol.length * 11}" y="29" ${FONT} font-size="14" fill="${t.muted}">${tf} · ${esc(exchange)}</text>`,
      `<rect x="${W - 130}" y="9" width="118" height="28" rx="4" fill="${t.accent}"/>`,
      `<text x="${W - 71}" y="28" ${FONT} font-size="13" font-weight="bold" fill="#ffffff" text-anchor="middle">${brand || 'Publish'}</text>`,
      `<text x="${left + 12}" y="${top + 22}" ${FONT} font-size="13" fill="${t.muted}">${ohlc}</text>`,
      `<text x="${left + 12}" y="${top + 42}" ${FONT} font-size="13" fill="${t.line}">${name}</text>`,
    );
    if (style === 'tradingview') {
      parts.push(
        `<rect x="0" y="0" width="${left}" height="${H}" fill="${t.bg}"/>`,
        `<line x1="${left}" y1="0" x2="${left}" y2="${H}" stroke="${t.grid}"/>`,
      );
      for (let i = 0; i < 9; i++)
        parts.push(
          `<rect x="14" y="${60 + i * 42}" width="18" height="18" rx="3" fill="none" stroke="${t.muted}" stroke-width="1.5"/>`,
        );
    }
  }
  if (p.kind === 'scanner') parts.push(scannerPanel(random, t, W - axisW - 330, top + 60));
  if (p.kind === 'alert') parts.push(alertToast(p, t, symbol, last.c, base));
  return svg(W, H, parts);
}

/** A watchlist of matches over the chart: what a scanner shows. */
function scannerPanel(random: () => number, t: Theme, x0: number, y0: number): string {
  const rows = ['NVDA', 'META', 'AMD', 'PLTR', 'SMCI', 'COIN', 'MSTR', 'ARM'];
  const light = t.bg === '#ffffff';
  const out = [
    `<rect x="${x0}" y="${y0}" width="310" height="${36 + rows.length * 30}" rx="6" fill="${light ? '#f4f4f4' : t.panel}" stroke="${t.muted}" stroke-opacity="0.4"/>`,
    `<text x="${x0 + 14}" y="${y0 + 24}" ${FONT} font-size="13" font-weight="bold" fill="${t.text}">Scanner · ${rows.length} matches</text>`,
  ];
  rows.forEach((s, i) => {
    const chg = (random() * 9 - 1.5).toFixed(2);
    const up = Number(chg) >= 0;
    const yy = y0 + 56 + i * 30;
    out.push(
      `<text x="${x0 + 14}" y="${yy}" ${FONT} font-size="13" fill="${t.text}">${s}</text>`,
      `<text x="${x0 + 120}" y="${yy}" ${FONT} font-size="13" fill="${up ? (t.upFill === '#000000' ? t.up : t.upFill) : t.downFill}">${up ? '+' : ''}${chg}%</text>`,
      `<rect x="${x0 + 200}" y="${yy - 13}" width="96" height="18" rx="3" fill="${t.accent}" opacity="0.25"/>`,
      `<text x="${x0 + 248}" y="${yy}" ${FONT} font-size="11" fill="${t.text}" text-anchor="middle">${['Pullback', 'Breakout', 'Squeeze', 'Divergence'][i % 4]}</text>`,
    );
  });
  return out.join('');
}

function alertToast(p: ProductPicture, t: Theme, symbol: string, price: number, base: number) {
  const x0 = 880 - 360;
  const y0 = 120;
  return [
    `<rect x="${x0}" y="${y0}" width="340" height="86" rx="8" fill="${t.bg === '#ffffff' ? '#f4f4f4' : t.panel}" stroke="${t.accent}" stroke-width="2"/>`,
    `<circle cx="${x0 + 34}" cy="${y0 + 43}" r="18" fill="${t.accent}"/>`,
    `<path d="M${x0 + 26} ${y0 + 49}h16l-2-4v-7a6 6 0 0 0-12 0v7z" fill="#ffffff"/>`,
    `<text x="${x0 + 64}" y="${y0 + 36}" ${FONT} font-size="15" font-weight="bold" fill="${t.text}">Alert: ${esc(symbol)} ${fmtPrice(price, base)}</text>`,
    `<text x="${x0 + 64}" y="${y0 + 60}" ${FONT} font-size="13" fill="${t.muted}">${esc(clip(p.title, 34))} triggered</text>`,
  ].join('');
}

function svg(w: number, h: number, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

function initials(name: string): string {
  const words = name.split(/[\s-]+/).filter(Boolean);
  return ((words[0]?.[0] ?? '') + (words[1]?.[0] ?? words[0]?.[1] ?? '')).toUpperCase();
}

const HUES = [168, 200, 230, 260, 290, 330, 20, 45, 140];
const hueOf = (s: string) => HUES[seedOf(s) % HUES.length]!;

/** A Discord community: server rail, channels and a chat with a shared chart. */
function communitySvg(p: ProductPicture, variant: number): string {
  const { width: W, height: H } = COVER;
  const random = rng(seedOf(`${p.title}#${variant}`));
  const server = esc(clip(p.community ?? p.vendorName, 24));
  const hue = hueOf(p.vendorName);
  const parts = [
    `<rect width="${W}" height="${H}" fill="#313338"/>`,
    `<rect width="72" height="${H}" fill="#1e1f22"/>`,
  ];
  for (let i = 0; i < 7; i++) {
    const active = i === 1;
    parts.push(
      `<rect x="12" y="${12 + i * 58}" width="48" height="48" rx="${active ? 16 : 24}" fill="${active ? `hsl(${hue},60%,45%)` : `hsl(${HUES[i % HUES.length]},25%,30%)`}"/>`,
    );
    if (active)
      parts.push(
        `<text x="36" y="${12 + i * 58 + 31}" ${FONT} font-size="17" font-weight="bold" fill="#fff" text-anchor="middle">${esc(initials(p.community ?? p.vendorName))}</text>`,
      );
  }
  parts.push(
    `<rect x="72" width="240" height="${H}" fill="#2b2d31"/>`,
    `<rect x="72" width="240" height="52" fill="#2b2d31"/>`,
    `<text x="88" y="32" ${FONT} font-size="16" font-weight="bold" fill="#f2f3f5">${server}</text>`,
    `<line x1="72" y1="52" x2="312" y2="52" stroke="#1f2023"/>`,
  );
  const channels = [
    'welcome',
    'announcements',
    'trade-ideas',
    'signals',
    'charts',
    'education',
    'wins-and-losses',
  ];
  parts.push(
    `<text x="88" y="82" ${FONT} font-size="12" font-weight="bold" fill="#949ba4">TEXT CHANNELS</text>`,
  );
  channels.forEach((c, i) => {
    const yy = 110 + i * 34;
    const active = i === 2 + (variant % 2);
    if (active)
      parts.push(`<rect x="80" y="${yy - 22}" width="224" height="32" rx="4" fill="#404249"/>`);
    parts.push(
      `<text x="92" y="${yy}" ${FONT} font-size="16" fill="${active ? '#f2f3f5' : '#949ba4'}"># ${c}</text>`,
    );
  });
  parts.push(
    `<text x="88" y="${110 + channels.length * 34 + 20}" ${FONT} font-size="12" font-weight="bold" fill="#949ba4">VOICE</text>`,
    `<text x="92" y="${110 + channels.length * 34 + 50}" ${FONT} font-size="16" fill="#949ba4">♪ live-trading-room</text>`,
  );
  const active = channels[2 + (variant % 2)]!;
  parts.push(
    `<rect x="312" width="${W - 312}" height="52" fill="#313338"/>`,
    `<text x="332" y="33" ${FONT} font-size="17" font-weight="bold" fill="#f2f3f5"># ${active}</text>`,
    `<line x1="312" y1="52" x2="${W}" y2="52" stroke="#26272b"/>`,
    `<rect x="${W - 150}" y="12" width="132" height="30" rx="4" fill="#5865f2"/>`,
    `<text x="${W - 84}" y="32" ${FONT} font-size="14" font-weight="bold" fill="#fff" text-anchor="middle">${800 + Math.floor(random() * 9000)} online</text>`,
  );
  const names = ['Maya', 'jt_trades', 'Kenji', 'OrderflowOli', 'Priya', 'sam.swing', 'Dario'];
  const lines = [
    'Long above the opening range high, stop under VWAP.',
    'Scanner flagged the pullback at 9:41, took a half size.',
    'Trimmed into the 2R target, runner on.',
    'Levels for tomorrow are posted in #charts.',
    'Morning call starts in 10 minutes in the voice room.',
  ];
  let yy = 96;
  for (let i = 0; i < 4; i++) {
    const who = names[Math.floor(random() * names.length)]!;
    parts.push(
      `<circle cx="352" cy="${yy}" r="20" fill="hsl(${HUES[(i * 3 + variant) % HUES.length]},45%,50%)"/>`,
      `<text x="384" y="${yy - 4}" ${FONT} font-size="16" font-weight="bold" fill="${i === 0 ? `hsl(${hue},70%,65%)` : '#f2f3f5'}">${who}${i === 0 ? ' · MOD' : ''}</text>`,
      `<text x="${384 + who.length * 10 + (i === 0 ? 70 : 12)}" y="${yy - 4}" ${FONT} font-size="12" fill="#949ba4">Today at ${9 + i}:${String(10 + Math.floor(random() * 49))}</text>`,
      `<text x="384" y="${yy + 18}" ${FONT} font-size="15" fill="#dbdee1">${esc(lines[(i + variant) % lines.length]!)}</text>`,
    );
    if (i === 1) {
      // A shared chart, as the community posts them.
      const data = candles(random, 40, 100);
      const hi = Math.max(...data.map((d) => d.h));
      const lo = Math.min(...data.map((d) => d.l));
      const cy = (v: number) => n1(yy + 40 + ((hi - v) / (hi - lo)) * 170);
      parts.push(
        `<rect x="384" y="${yy + 32}" width="460" height="186" rx="6" fill="#131722" stroke="#1e1f22"/>`,
      );
      data.forEach((d, k) => {
        const cx = 398 + k * 11;
        const up = d.c >= d.o;
        parts.push(
          `<line x1="${cx}" y1="${cy(d.h)}" x2="${cx}" y2="${cy(d.l)}" stroke="${up ? '#26a69a' : '#ef5350'}"/>`,
          `<rect x="${cx - 3.5}" y="${Math.min(cy(d.o), cy(d.c))}" width="7" height="${Math.max(1, n1(Math.abs(cy(d.o) - cy(d.c))))}" fill="${up ? '#26a69a' : '#ef5350'}"/>`,
        );
      });
      yy += 200;
    }
    yy += 66;
  }
  parts.push(
    `<rect x="332" y="${H - 62}" width="${W - 352}" height="44" rx="8" fill="#383a40"/>`,
    `<text x="352" y="${H - 34}" ${FONT} font-size="15" fill="#6d6f78">Message #${active}</text>`,
  );
  return svg(W, H, parts);
}

/** A course: a video player frame with the lesson list beside it. */
function courseSvg(p: ProductPicture, variant: number): string {
  const { width: W, height: H } = COVER;
  const random = rng(seedOf(`${p.title}#${variant}`));
  const hue = hueOf(p.title);
  const lessons = [
    'Reading market structure',
    'Support, resistance and liquidity',
    'Entries that define the risk',
    'Position sizing and the 1% rule',
    'Managing a winning trade',
    'Journaling and review',
    'Building your written plan',
  ];
  const parts = [
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,16%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},55%,10%)"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#g)"/>`,
    `<rect x="40" y="40" width="720" height="405" rx="12" fill="#0b0f17" stroke="hsl(${hue},50%,40%)"/>`,
  ];
  // The lesson's slide: a chart with a marked zone.
  const data = candles(random, 50, 100);
  const hi = Math.max(...data.map((d) => d.h));
  const lo = Math.min(...data.map((d) => d.l));
  const cy = (v: number) => n1(80 + ((hi - v) / (hi - lo)) * 300);
  const zone = cy(lo + (hi - lo) * 0.3);
  parts.push(
    `<rect x="60" y="${zone - 18}" width="680" height="36" fill="hsl(${hue},70%,55%)" opacity="0.18"/>`,
  );
  data.forEach((d, k) => {
    const cx = 80 + k * 13;
    const up = d.c >= d.o;
    parts.push(
      `<line x1="${cx}" y1="${cy(d.h)}" x2="${cx}" y2="${cy(d.l)}" stroke="${up ? '#34d399' : '#f87171'}"/>`,
      `<rect x="${cx - 4}" y="${Math.min(cy(d.o), cy(d.c))}" width="8" height="${Math.max(1, n1(Math.abs(cy(d.o) - cy(d.c))))}" fill="${up ? '#34d399' : '#f87171'}"/>`,
    );
  });
  parts.push(
    `<circle cx="400" cy="242" r="46" fill="#000" opacity="0.55"/>`,
    `<path d="M386 218l40 24-40 24z" fill="#fff"/>`,
    `<rect x="60" y="412" width="680" height="6" rx="3" fill="#1f2937"/>`,
    `<rect x="60" y="412" width="${200 + Math.floor(random() * 300)}" height="6" rx="3" fill="hsl(${hue},70%,55%)"/>`,
    `<text x="40" y="500" ${FONT} font-size="34" font-weight="bold" fill="#ffffff">${esc(clip(p.title, 40))}</text>`,
    `<text x="40" y="540" ${FONT} font-size="20" fill="#cbd5e1">A video course by ${esc(clip(p.vendorName, 30))}</text>`,
    `<text x="40" y="590" ${FONT} font-size="18" fill="hsl(${hue},70%,70%)">${lessons.length} modules · ${12 + (seedOf(p.title) % 30)} lessons · ${4 + (seedOf(p.title) % 9)} h of video</text>`,
    `<rect x="790" y="40" width="370" height="595" rx="12" fill="#0b0f17" opacity="0.75"/>`,
    `<text x="814" y="80" ${FONT} font-size="16" font-weight="bold" fill="#ffffff">Course content</text>`,
  );
  lessons.forEach((l, i) => {
    const yy = 118 + i * 72;
    const done = i < 2 + (variant % 3);
    parts.push(
      `<circle cx="830" cy="${yy}" r="14" fill="${done ? `hsl(${hue},70%,50%)` : 'none'}" stroke="hsl(${hue},70%,60%)" stroke-width="2"/>`,
      `<text x="830" y="${yy + 5}" ${FONT} font-size="13" font-weight="bold" fill="#fff" text-anchor="middle">${i + 1}</text>`,
      `<text x="856" y="${yy - 2}" ${FONT} font-size="15" fill="#e2e8f0">${esc(l)}</text>`,
      `<text x="856" y="${yy + 20}" ${FONT} font-size="13" fill="#94a3b8">${2 + ((i * 7 + seedOf(p.title)) % 5)} lessons · ${10 + ((i * 13) % 40)} min</text>`,
    );
  });
  return svg(W, H, parts);
}

/** A desktop app window: back-test equity curve, drawdown and the figures that matter. */
function appSvg(p: ProductPicture, variant: number): string {
  const { width: W, height: H } = COVER;
  const random = rng(seedOf(`${p.title}#${variant}`));
  const hue = hueOf(p.title);
  const parts = [
    `<rect width="${W}" height="${H}" fill="#0f172a"/>`,
    `<rect width="${W}" height="40" fill="#1e293b"/>`,
    `<circle cx="22" cy="20" r="6" fill="#f87171"/><circle cx="42" cy="20" r="6" fill="#fbbf24"/><circle cx="62" cy="20" r="6" fill="#34d399"/>`,
    `<text x="${W / 2}" y="26" ${FONT} font-size="14" fill="#cbd5e1" text-anchor="middle">${esc(clip(p.title, 50))}</text>`,
    `<rect x="0" y="40" width="190" height="${H - 40}" fill="#111c33"/>`,
  ];
  ['Dashboard', 'Strategies', 'Back-tests', 'Journal', 'Risk', 'Settings'].forEach((s, i) =>
    parts.push(
      i === 2 - (variant % 2)
        ? `<rect x="10" y="${62 + i * 44}" width="170" height="34" rx="6" fill="hsl(${hue},60%,40%)"/>`
        : '',
      `<text x="28" y="${84 + i * 44}" ${FONT} font-size="15" fill="${i === 2 - (variant % 2) ? '#fff' : '#94a3b8'}">${s}</text>`,
    ),
  );
  const stats: Array<[string, string, string]> = [
    ['Net profit', `+$${(20 + random() * 60).toFixed(1)}k`, '#34d399'],
    ['Win rate', `${Math.floor(48 + random() * 20)}%`, '#e2e8f0'],
    ['Profit factor', (1.3 + random()).toFixed(2), '#e2e8f0'],
    ['Max drawdown', `-${(4 + random() * 9).toFixed(1)}%`, '#f87171'],
  ];
  stats.forEach(([k, v, c], i) => {
    const x0 = 214 + i * 244;
    parts.push(
      `<rect x="${x0}" y="60" width="226" height="92" rx="10" fill="#1e293b"/>`,
      `<text x="${x0 + 18}" y="92" ${FONT} font-size="14" fill="#94a3b8">${k}</text>`,
      `<text x="${x0 + 18}" y="132" ${FONT} font-size="30" font-weight="bold" fill="${c}">${v}</text>`,
    );
  });
  // Equity curve and its drawdown.
  let eq = 100;
  let peak = 100;
  const pts: Array<[number, number, number]> = [];
  for (let i = 0; i < 120; i++) {
    eq *= 1 + (random() - 0.44) * 0.025;
    peak = Math.max(peak, eq);
    pts.push([i, eq, eq / peak - 1]);
  }
  const emax = Math.max(...pts.map((q) => q[1]));
  const emin = Math.min(...pts.map((q) => q[1]));
  const ex = (i: number) => n1(234 + i * 7.6);
  const ey = (v: number) => n1(200 + ((emax - v) / (emax - emin || 1)) * 260);
  const dmin = Math.min(...pts.map((q) => q[2])) || -0.01;
  const dy = (v: number) => n1(505 + (v / dmin) * 120);
  parts.push(
    `<rect x="214" y="172" width="966" height="470" rx="10" fill="#1e293b"/>`,
    `<text x="234" y="194" ${FONT} font-size="14" fill="#94a3b8">Equity curve · ${2015 + (seedOf(p.title) % 5)}–2025</text>`,
    `<path d="M${ex(0)} 470${pts.map(([i, v]) => `L${ex(i)} ${ey(v)}`).join('')}L${ex(119)} 470Z" fill="hsl(${hue},70%,50%)" opacity="0.18"/>`,
    `<path d="${pts.map(([i, v], k) => `${k ? 'L' : 'M'}${ex(i)} ${ey(v)}`).join('')}" fill="none" stroke="hsl(${hue},75%,60%)" stroke-width="2.5"/>`,
    `<text x="234" y="498" ${FONT} font-size="14" fill="#94a3b8">Drawdown</text>`,
    `<path d="M${ex(0)} 505${pts.map(([i, , d]) => `L${ex(i)} ${dy(d)}`).join('')}L${ex(119)} 505Z" fill="#f87171" opacity="0.5"/>`,
  );
  return svg(W, H, parts);
}

/** The product's pictures: cover first, then a second view (another symbol, another screen). */
export function productSvgs(p: ProductPicture): string[] {
  const draw =
    p.kind === 'community'
      ? communitySvg
      : p.kind === 'course'
        ? courseSvg
        : p.kind === 'app' && !p.platforms.some((x) => x !== 'other')
          ? appSvg
          : chartSvg;
  return [draw(p, 0), draw(p, 1)];
}

/** A vendor's logo: initials on its colour. */
export function logoSvg(name: string): string {
  const hue = hueOf(name);
  return svg(LOGO, LOGO, [
    `<defs><linearGradient id="lg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},65%,48%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},65%,30%)"/></linearGradient></defs>`,
    `<rect width="${LOGO}" height="${LOGO}" rx="56" fill="url(#lg)"/>`,
    `<text x="128" y="160" ${FONT} font-size="100" font-weight="bold" fill="#ffffff" text-anchor="middle">${esc(initials(name))}</text>`,
  ]);
}

/** A storefront's share card (and banner): logo, name, what it sells, on a faint chart. */
export function vendorCardSvg(v: {
  displayName: string;
  bio: string;
  products: number;
  verified: boolean;
}): string {
  const { width: W, height: H } = SHARE;
  const hue = hueOf(v.displayName);
  const random = rng(seedOf(v.displayName));
  const data = candles(random, 60, 100);
  const hi = Math.max(...data.map((d) => d.h));
  const lo = Math.min(...data.map((d) => d.l));
  const cy = (v: number) => n1(180 + ((hi - v) / (hi - lo)) * 400);
  const bio = v.bio.length > 64 ? v.bio.slice(0, v.bio.lastIndexOf(' ', 62)) + '…' : v.bio;
  const parts = [
    `<defs><linearGradient id="vg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b0f17"/><stop offset="1" stop-color="hsl(${hue},45%,14%)"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#vg)"/>`,
  ];
  data.forEach((d, k) => {
    const cx = 20 + k * 20;
    const up = d.c >= d.o;
    parts.push(
      `<rect x="${cx - 6}" y="${Math.min(cy(d.o), cy(d.c))}" width="12" height="${Math.max(2, n1(Math.abs(cy(d.o) - cy(d.c))))}" fill="${up ? `hsl(${hue},70%,55%)` : '#64748b'}" opacity="0.16"/>`,
    );
  });
  // Logo, name and figures sit in the middle band, so a storefront banner (a wide crop of this
  // card) still shows them; the brand mark at the top shows on share cards only.
  parts.push(
    `<g transform="translate(80 235) scale(0.625)">${logoSvg(v.displayName).replace(/^<svg[^>]*>|<\/svg>$/g, '')}</g>`,
    `<text x="280" y="300" ${FONT} font-size="56" font-weight="bold" fill="#ffffff">${esc(clip(v.displayName, 26))}${v.verified ? ` <tspan fill="hsl(${hue},80%,65%)">✓</tspan>` : ''}</text>`,
    `<text x="280" y="348" ${FONT} font-size="24" fill="#cbd5e1">${esc(bio)}</text>`,
    `<text x="280" y="392" ${FONT} font-size="22" font-weight="bold" fill="hsl(${hue},80%,70%)">${v.products} ${v.products === 1 ? 'product' : 'products'} on Tradeshelf</text>`,
    `<text x="${W - 80}" y="96" ${FONT} font-size="28" font-weight="bold" fill="#ffffff" text-anchor="end">Tradeshelf</text>`,
  );
  return svg(W, H, parts);
}

/** A bundle's cover: its products' covers fanned out, with the saving. */
export function bundleSvg(b: {
  title: string;
  vendorName: string;
  products: ProductPicture[];
  savingPercent: number;
}): string {
  const { width: W, height: H } = COVER;
  const hue = hueOf(b.title);
  const parts = [
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b0f17"/><stop offset="1" stop-color="hsl(${hue},50%,16%)"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>`,
  ];
  const shown = b.products.slice(0, 3);
  shown.forEach((p, i) => {
    const inner = productSvgs(p)[0]!.replace(/^<svg[^>]*>|<\/svg>$/g, '');
    const angle = (i - (shown.length - 1) / 2) * 7;
    parts.push(
      `<g transform="translate(${620 + i * 130} ${130 + i * 40}) rotate(${angle}) scale(0.42)"><rect x="-8" y="-8" width="1216" height="691" rx="14" fill="#ffffff" opacity="0.9"/><svg width="1200" height="675" viewBox="0 0 1200 675">${inner}</svg></g>`,
    );
  });
  parts.push(
    `<rect x="60" y="80" width="150" height="40" rx="8" fill="#f59e0b"/>`,
    `<text x="135" y="108" ${FONT} font-size="20" font-weight="bold" fill="#1f1300" text-anchor="middle">BUNDLE</text>`,
    `<text x="60" y="200" ${FONT} font-size="38" font-weight="bold" fill="#ffffff">${esc(clip(b.title, 26))}</text>`,
    `<text x="60" y="250" ${FONT} font-size="24" fill="#cbd5e1">${b.products.length} products by ${esc(clip(b.vendorName, 24))}</text>`,
  );
  b.products
    .slice(0, 4)
    .forEach((p, i) =>
      parts.push(
        `<text x="60" y="${330 + i * 40}" ${FONT} font-size="22" fill="#e2e8f0">• ${esc(clip(p.title, 30))}</text>`,
      ),
    );
  if (b.savingPercent > 0)
    parts.push(
      `<text x="60" y="${H - 70}" ${FONT} font-size="34" font-weight="bold" fill="#fbbf24">Save ${b.savingPercent}%</text>`,
    );
  return svg(W, H, parts);
}
