import { inflateSync } from 'node:zlib';

/**
 * The text a PDF made by pdfkit shows, cheaply: each content stream inflated (pdfkit compresses them
 * with Flate), then the hex strings of its `TJ` arrays decoded. The standard fonts pdfkit writes
 * encode one byte per character (WinAnsi), so this is the text, word spacing included.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  const re = /stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    try {
      streams.push(inflateSync(bytes).toString('latin1'));
    } catch {
      streams.push(bytes.toString('latin1'));
    }
    re.lastIndex = end;
  }
  const lines: string[] = [];
  for (const s of streams) {
    for (const tj of s.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return lines.join('\n');
}
