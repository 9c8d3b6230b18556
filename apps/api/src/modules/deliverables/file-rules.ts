// What a platform's file may be (ADR 053): its name's extension must be one the platform takes, and
// its bytes must agree with that extension. Text stays text to its end; a disk image ends with its
// trailer; nothing is a page or script under another name.
import {
  DELIVERABLE_MAX_BYTES,
  deliverableExtensions,
  deliverableMessages as m,
  type DeliverablePlatform,
} from '@tradeshelf/contract';
import {
  looksLikeMarkup,
  OLE_MAGIC,
  PDF_MAGIC,
  PE_MAGIC,
  startsAsText,
  TextCheck,
  Utf16TextCheck,
  XAR_MAGIC,
  ZIP_MAGIC,
} from '../../platform/sniff.ts';
import type { FileRules } from '../../platform/uploads.ts';

export type DeliverableType =
  | 'application/zip'
  | 'application/pdf'
  | 'application/x-msdownload'
  | 'application/x-msi'
  | 'application/x-xar'
  | 'application/x-apple-diskimage'
  | 'application/octet-stream'
  | 'text/plain'
  | 'text/plain; charset=utf-16le';

export const extensionOf = (name: string) => /\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? '';

const TEXT = new Set(['.mq4', '.mq5', '.set', '.tpl', '.csv', '.txt']);
/** Compiled MetaTrader programs have no published signature: binary, and no other known kind. */
const OPAQUE = new Set(['.ex4', '.ex5']);

const knownMagic = (b: Buffer) =>
  ZIP_MAGIC(b) || PDF_MAGIC(b) || PE_MAGIC(b) || OLE_MAGIC(b) || XAR_MAGIC(b);

/** The type of a file for `platform`, from its name's extension and its first bytes; null refuses. */
export function sniffDeliverable(
  platform: DeliverablePlatform,
  head: Buffer,
  name: string,
  whole: boolean,
): DeliverableType | null {
  const ext = extensionOf(name);
  if (!deliverableExtensions[platform].includes(ext)) return null;
  if (looksLikeMarkup(head)) return null;
  if (ext === '.zip' || ext === '.algo') return ZIP_MAGIC(head) ? 'application/zip' : null;
  if (ext === '.pdf') return PDF_MAGIC(head) ? 'application/pdf' : null;
  if (ext === '.exe') return PE_MAGIC(head) ? 'application/x-msdownload' : null;
  if (ext === '.msi' || ext === '.eld') return OLE_MAGIC(head) ? 'application/x-msi' : null;
  if (ext === '.pkg') return XAR_MAGIC(head) ? 'application/x-xar' : null;
  if (ext === '.dmg')
    return head.includes(0) && !knownMagic(head) ? 'application/x-apple-diskimage' : null;
  if (OPAQUE.has(ext))
    return head.includes(0) && !knownMagic(head) ? 'application/octet-stream' : null;
  if (TEXT.has(ext)) {
    const text = startsAsText(head, whole);
    if (text === 'utf-16le') return 'text/plain; charset=utf-16le';
    return text ? 'text/plain' : null;
  }
  return null;
}

/** A UDIF disk image ends with a 512-byte trailer starting `koly`. */
class TrailerCheck {
  private tail = Buffer.alloc(0);
  push(chunk: Buffer): boolean {
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-512);
    return true;
  }
  end(): boolean {
    return this.tail.length === 512 && this.tail.subarray(0, 4).toString('latin1') === 'koly';
  }
}

export function deliverableRules(platform: DeliverablePlatform): FileRules<DeliverableType> {
  return {
    maxBytes: DELIVERABLE_MAX_BYTES,
    tooLarge: m.tooLarge,
    missing: m.missing,
    wrongType: m.wrongType,
    sniff: (head, name, whole) => sniffDeliverable(platform, head, name, whole),
    follow: (type) => {
      if (type === 'text/plain') return new TextCheck();
      if (type === 'text/plain; charset=utf-16le') return new Utf16TextCheck();
      if (type === 'application/x-apple-diskimage') return new TrailerCheck();
      return null;
    },
    keepsName: true,
  };
}
