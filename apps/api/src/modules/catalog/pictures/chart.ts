import type { AssetClass, TradingPlatform } from '@tradeshelf/contract';
import {
  candles,
  clip,
  COVER,
  ema,
  esc,
  FONT,
  n1,
  rng,
  rsi,
  seedOf,
  svg,
  SYMBOLS,
  TIMEFRAMES,
  type ProductPicture,
} from './draw.ts';

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
export function chartSvg(p: ProductPicture, variant: number): string {
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
