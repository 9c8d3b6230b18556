// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RevenueBars } from './charts.tsx';
import type { ChartRow } from './format.ts';

afterEach(cleanup);

const row = (label: string, gross: number, net: number): ChartRow => ({
  period: label,
  label,
  gross,
  net,
  refunds: 0,
  affiliate: 0,
  sales: gross > 0 ? 1 : 0,
  refundCount: 0,
});

/** Every y coordinate of an SVG path (absolute commands, as recharts writes them). */
function pathYs(d: string): number[] {
  const ys: number[] = [];
  for (const [, cmd, args] of d.matchAll(/([MLHVCSQTAZ])([^MLHVCSQTAZ]*)/gi)) {
    const n = (args ?? '')
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (cmd === 'V') ys.push(...n);
    else if (cmd === 'M' || cmd === 'L' || cmd === 'C' || cmd === 'S' || cmd === 'Q' || cmd === 'T')
      ys.push(...n.filter((_, i) => i % 2 === 1));
    else if (cmd === 'A') ys.push(...n.filter((_, i) => i % 7 === 6));
  }
  return ys;
}

describe('revenue chart', () => {
  // Days with nothing between big days: a smoothed curve through them swung under $0 (issue 27).
  const rows = [
    row('1 Jan', 0, 0),
    row('2 Jan', 49, 42.25),
    row('3 Jan', 0, 0),
    row('4 Jan', 0, 0),
    row('5 Jan', 399, 356.05),
    row('6 Jan', 0, 0),
    row('7 Jan', 29, 24.25),
  ];

  it('draws money as bars that never go below the zero line for non-negative data', () => {
    const { container } = render(
      <RevenueBars rows={rows} currency="usd" size={{ width: 600, height: 240 }} />,
    );
    const svg = container.querySelector('svg.recharts-surface');
    expect(svg).not.toBeNull();
    // The zero line is the bottom of the plot: the x axis sits on it.
    const axisLine = container.querySelector('.xAxis .recharts-cartesian-axis-line');
    expect(axisLine).not.toBeNull();
    const baseline = Number(axisLine!.getAttribute('y1'));
    expect(baseline).toBeGreaterThan(0);
    // Everything drawn for the data: bar shapes, and any line or curve there might be.
    const drawn = [
      ...container.querySelectorAll(
        '.recharts-bar-rectangle path, .recharts-line path, .recharts-area path, .recharts-curve',
      ),
    ];
    expect(drawn.length).toBeGreaterThan(0);
    for (const el of drawn) {
      const d = el.getAttribute('d') ?? '';
      expect(d).not.toMatch(/[CSQT]/i);
      for (const y of pathYs(d)) expect(y).toBeLessThanOrEqual(baseline + 0.5);
    }
    // One bar per non-zero value: gross and net of the three days with sales.
    expect(container.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(6);
  });
});
