import {
  candles,
  clip,
  COVER,
  esc,
  FONT,
  hueOf,
  HUES,
  initials,
  n1,
  plainCandles,
  priceScale,
  rng,
  seedOf,
  svg,
  type ProductPicture,
} from './draw.ts';
import { demoCourseCounts, demoCourseOutline } from '../demo-courses.ts';
import { countOf } from '../demo-copy.ts';

/** A Discord community: server rail, channels and a chat with a shared chart. */
export function communitySvg(p: ProductPicture, variant: number): string {
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
      parts.push(
        `<rect x="384" y="${yy + 32}" width="460" height="186" rx="6" fill="#131722" stroke="#1e1f22"/>`,
        ...plainCandles(data, priceScale(data, yy + 40, 170).y, {
          x0: 398,
          step: 11,
          body: 7,
          up: '#26a69a',
          down: '#ef5350',
        }),
      );
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
export function courseSvg(p: ProductPicture, variant: number): string {
  const { width: W, height: H } = COVER;
  const random = rng(seedOf(`${p.title}#${variant}`));
  const hue = hueOf(p.title);
  // The course's own outline (the one its lessons are seeded from): the picture counts from it.
  const outline = demoCourseOutline(p.title);
  const counts = demoCourseCounts(outline);
  const lessons = outline.flatMap((m) => m.lessons.map(([title]) => title)).slice(0, 7);
  const parts = [
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,16%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},55%,10%)"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#g)"/>`,
    `<rect x="40" y="40" width="720" height="405" rx="12" fill="#0b0f17" stroke="hsl(${hue},50%,40%)"/>`,
  ];
  // The lesson's slide: a chart with a marked zone.
  const data = candles(random, 50, 100);
  const { hi, lo, y } = priceScale(data, 80, 300);
  const zone = y(lo + (hi - lo) * 0.3);
  parts.push(
    `<rect x="60" y="${zone - 18}" width="680" height="36" fill="hsl(${hue},70%,55%)" opacity="0.18"/>`,
    ...plainCandles(data, y, { x0: 80, step: 13, body: 8, up: '#34d399', down: '#f87171' }),
  );
  parts.push(
    `<circle cx="400" cy="242" r="46" fill="#000" opacity="0.55"/>`,
    `<path d="M386 218l40 24-40 24z" fill="#fff"/>`,
    `<rect x="60" y="412" width="680" height="6" rx="3" fill="#1f2937"/>`,
    `<rect x="60" y="412" width="${200 + Math.floor(random() * 300)}" height="6" rx="3" fill="hsl(${hue},70%,55%)"/>`,
    `<text x="40" y="500" ${FONT} font-size="34" font-weight="bold" fill="#ffffff">${esc(clip(p.title, 40))}</text>`,
    `<text x="40" y="540" ${FONT} font-size="20" fill="#cbd5e1">A video course by ${esc(clip(p.vendorName, 30))}</text>`,
    `<text x="40" y="590" ${FONT} font-size="18" fill="hsl(${hue},70%,70%)">${countOf(counts.modules, 'module')} · ${countOf(counts.lessons, 'lesson')}</text>`,
    `<rect x="790" y="40" width="370" height="595" rx="12" fill="#0b0f17" opacity="0.75"/>`,
    `<text x="814" y="80" ${FONT} font-size="16" font-weight="bold" fill="#ffffff">Course content</text>`,
  );
  lessons.forEach((l, i) => {
    const yy = 118 + i * 72;
    const done = i < 2 + (variant % 3);
    parts.push(
      `<circle cx="830" cy="${yy}" r="14" fill="${done ? `hsl(${hue},70%,50%)` : 'none'}" stroke="hsl(${hue},70%,60%)" stroke-width="2"/>`,
      `<text x="830" y="${yy + 5}" ${FONT} font-size="13" font-weight="bold" fill="#fff" text-anchor="middle">${i + 1}</text>`,
      `<text x="856" y="${yy + 5}" ${FONT} font-size="15" fill="#e2e8f0">${esc(clip(l, 34))}</text>`,
    );
  });
  return svg(W, H, parts);
}

/** A desktop app window: back-test equity curve, drawdown and the figures that matter. */
export function appSvg(p: ProductPicture, variant: number): string {
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

/** A position-size calculator: the inputs a trader types and the size they give, worked out. */
export function calculatorSvg(p: ProductPicture, variant: number): string {
  const { width: W, height: H } = COVER;
  const random = rng(seedOf(`${p.title}#${variant}`));
  const hue = hueOf(p.title);
  const balance = 10_000 + Math.floor(random() * 40) * 1_000;
  const riskPercent = [0.5, 1, 1.5, 2][Math.floor(random() * 4)]!;
  const entry = Math.round((40 + random() * 300) * 100) / 100;
  const stop = Math.round(entry * (0.97 - random() * 0.03) * 100) / 100;
  const risk = (balance * riskPercent) / 100;
  const shares = Math.floor(risk / (entry - stop));
  const money = (v: number) =>
    `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const parts = [
    `<rect width="${W}" height="${H}" fill="#0f172a"/>`,
    `<rect width="${W}" height="40" fill="#1e293b"/>`,
    `<circle cx="22" cy="20" r="6" fill="#f87171"/><circle cx="42" cy="20" r="6" fill="#fbbf24"/><circle cx="62" cy="20" r="6" fill="#34d399"/>`,
    `<text x="${W / 2}" y="26" ${FONT} font-size="14" fill="#cbd5e1" text-anchor="middle">${esc(clip(p.title, 50))}</text>`,
    `<text x="80" y="110" ${FONT} font-size="28" font-weight="bold" fill="#ffffff">${variant ? 'Futures' : 'Stocks'} · risk-based size</text>`,
  ];
  const fields: Array<[string, string]> = [
    ['Account balance', money(balance)],
    ['Risk per trade', `${riskPercent} %`],
    ['Entry price', money(entry)],
    ['Stop price', money(stop)],
  ];
  fields.forEach(([label, value], i) => {
    const y0 = 150 + i * 100;
    parts.push(
      `<text x="80" y="${y0 + 20}" ${FONT} font-size="16" fill="#94a3b8">${label}</text>`,
      `<rect x="80" y="${y0 + 32}" width="460" height="48" rx="8" fill="#1e293b" stroke="#334155"/>`,
      `<text x="100" y="${y0 + 64}" ${FONT} font-size="20" fill="#e2e8f0">${value}</text>`,
    );
  });
  parts.push(
    `<rect x="620" y="150" width="500" height="430" rx="14" fill="#111c33" stroke="hsl(${hue},60%,45%)"/>`,
    `<text x="660" y="210" ${FONT} font-size="18" fill="#94a3b8">Position size</text>`,
    `<text x="660" y="290" ${FONT} font-size="64" font-weight="bold" fill="hsl(${hue},80%,65%)">${shares.toLocaleString('en-US')}</text>`,
    `<text x="660" y="330" ${FONT} font-size="20" fill="#cbd5e1">${variant ? 'units' : 'shares'}</text>`,
    `<text x="660" y="410" ${FONT} font-size="18" fill="#94a3b8">Money at risk</text>`,
    `<text x="660" y="450" ${FONT} font-size="30" font-weight="bold" fill="#f87171">${money(shares * (entry - stop))}</text>`,
    `<text x="660" y="520" ${FONT} font-size="16" fill="#94a3b8">Risk ÷ distance to the stop (${money(entry - stop)})</text>`,
  );
  return svg(W, H, parts);
}

/** A platform plan: what membership is about, no chart and no figures that are not the plan's. */
export function planSvg(p: ProductPicture): string {
  const { width: W, height: H } = COVER;
  const hue = hueOf(p.title);
  return svg(W, H, [
    `<defs><linearGradient id="pg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,18%)"/><stop offset="1" stop-color="#0b0f17"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#pg)"/>`,
    `<text x="80" y="300" ${FONT} font-size="64" font-weight="bold" fill="#ffffff">${esc(clip(p.title, 28))}</text>`,
    `<text x="80" y="370" ${FONT} font-size="28" fill="hsl(${hue},80%,75%)">Member prices · Saved-search alerts · Priority support</text>`,
  ]);
}
