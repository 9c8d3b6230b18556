// Builds the demo's deliverable files (`demo-files/`) from their sources (`demo-sources/`) and the
// versions in `demo-content.ts`, byte for byte the same on every run: `npm run demo:files` writes
// them, and a test proves the committed files are what this builds. Each version's file carries
// its own version number and change log, as a vendor's build would.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import type { DeliverablePlatform } from '@tradeshelf/contract';
import { demoDeliveries } from './demo-content.ts';
import type { DemoDelivery, DemoVersion } from './demo-shape.ts';
import { localFileHeader } from './zip.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEMO_FILES_DIR = path.join(here, 'demo-files');
const SOURCES_DIR = path.join(here, 'demo-sources');

/** The size every demo file stays under (the whole folder stays well under 1 MB). */
export const DEMO_FILE_MAX_BYTES = 16 * 1024;

/** A ZIP of the entries as given: deflated, one fixed timestamp, no extra fields. */
export function zip(entries: ReadonlyArray<{ name: string; data: Buffer }>): Buffer {
  const DOS_TIME = 0; // 00:00:00
  const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1; // 2026-01-01
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = localFileHeader({
      method: 'deflate',
      time: DOS_TIME,
      date: DOS_DATE,
      crc,
      packedSize: packed.length,
      size: data.length,
      nameLength: nameBytes.length,
    });
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    local.copy(central, 6, 4, 28); // version needed … name length, as in the local header
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a plain rw-r--r-- file
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The release notes of this version and the ones before it, newest first, as plain lines. */
function changeLog(versions: readonly DemoVersion[], upTo: DemoVersion): string[] {
  const mine = versions.filter((v) => v.platform === upTo.platform);
  const lines: string[] = [];
  for (const v of mine.slice(0, mine.indexOf(upTo) + 1).reverse()) {
    lines.push(`${v.version}:`);
    for (const line of v.notes.split('\n')) if (line.trim()) lines.push(`  ${line.trim()}`);
  }
  return lines;
}

/**
 * Fills a source in: `{{version}}` and `{{title}}`; a line holding `{{changelog}}` becomes one line
 * per change-log line with the same prefix (a comment marker); lines between `//#mt4` (or `//#mt5`)
 * and `//#end` stay only in that platform's file, so one MQL source serves both.
 */
function fill(
  text: string,
  delivery: DemoDelivery,
  version: DemoVersion,
  platform: DeliverablePlatform,
): string {
  const out: string[] = [];
  let only: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*\/\/#(mt4|mt5|end)\s*$/.exec(line);
    if (marker) {
      only = marker[1] === 'end' ? null : marker[1]!;
      continue;
    }
    if (only && only !== platform) continue;
    const at = line.indexOf('{{changelog}}');
    if (at >= 0) {
      const prefix = line.slice(0, at);
      for (const entry of changeLog(delivery.versions, version))
        out.push(`${prefix}${entry}`.trimEnd());
      continue;
    }
    out.push(
      line.replaceAll('{{version}}', version.version).replaceAll('{{title}}', delivery.title),
    );
  }
  return out.join('\n');
}

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory()
        ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`)
        : [`${prefix}${e.name}`],
    );
}

/** What the platform's import needs beside the vendor's sources. */
function platformExtras(
  platform: DeliverablePlatform,
  title: string,
  version: string,
): Record<string, string> {
  if (platform === 'ninjatrader')
    // NinjaTrader 8's Tools → Import → NinjaScript Add-On reads the export's Info.xml first.
    return {
      'Info.xml': `<?xml version="1.0" encoding="utf-8"?>\n<NinjaTrader>\n  <Export>\n    <Version>8.1.4.1</Version>\n  </Export>\n  <!-- ${title} ${version} -->\n</NinjaTrader>\n`,
    };
  if (platform === 'ctrader')
    return {
      'README.txt': `${title} ${version} for cTrader\n\nThis archive holds the source (.cs). A real release would also carry the .algo file cTrader\nbuilds from it; the demo data cannot produce one, so build it yourself in Automate (see the\nset-up guide): New, paste the source, Build (Ctrl+B).\n`,
    };
  if (platform === 'tradestation')
    return {
      'README.txt': `${title} ${version} for TradeStation\n\nThis archive holds the EasyLanguage source as text. A real release would be an .eld file;\nthe demo data cannot produce one, so paste the text into a new study in the TradeStation\nDevelopment Environment and Verify it (F3), as the set-up guide shows.\n`,
    };
  return {};
}

/** One version's file: `<product>/<platform>-<version>/<name>` under `demo-files/`. */
function render(delivery: DemoDelivery, version: DemoVersion): Buffer {
  const file = version.file!;
  const [product] = file.split('/');
  const name = path.basename(file);
  const ext = path.extname(name);
  const source = path.join(SOURCES_DIR, product!);
  if (ext === '.zip') {
    // MetaTrader archives share one `mt/` tree: `MQL/…/X.mq` becomes `MQL5/…/X.mq5` (or 4), the
    // layout of the data folder the buyer unzips into.
    const mt = version.platform === 'mt4' || version.platform === 'mt5';
    const digit = version.platform.slice(2);
    const dir = path.join(source, mt ? 'mt' : version.platform);
    const entries = filesUnder(dir).map((rel) => ({
      name: mt ? rel.replace(/^MQL\//, `MQL${digit}/`).replace(/\.mq$/, `.mq${digit}`) : rel,
      data: Buffer.from(
        fill(readFileSync(path.join(dir, rel), 'utf8'), delivery, version, version.platform),
      ),
    }));
    for (const [rel, text] of Object.entries(
      platformExtras(version.platform, delivery.title, version.version),
    ))
      entries.unshift({ name: rel, data: Buffer.from(text) });
    return zip(entries);
  }
  // A single source file; `.mq4`/`.mq5` come from one `.mq` source for both MetaTraders.
  const stem = path.basename(name, ext);
  const candidates = [name, ext === '.mq4' || ext === '.mq5' ? `${stem}.mq` : name];
  const found = candidates.map((c) => path.join(source, c)).find((p) => safeRead(p) !== null);
  if (!found) throw new Error(`No source for demo file ${file}`);
  return Buffer.from(fill(readFileSync(found, 'utf8'), delivery, version, version.platform));
}

function safeRead(p: string): string | null {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

/** Every demo file by its path under `demo-files/`. */
export function renderDemoFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const delivery of demoDeliveries)
    for (const version of delivery.versions)
      if (version.file) files.set(version.file, render(delivery, version));
  return files;
}
