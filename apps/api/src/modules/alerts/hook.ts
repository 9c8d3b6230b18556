// The feed's webhook (ADR 059), in the shape TradingView posts an alert's message: plain text, or
// the JSON the vendor typed into the message box. Anything we cannot read is a 400 that says how
// to send it; nothing is published from a body we did not fully understand.
import {
  alertSideWords,
  alertsMessages as m,
  publishAlertBody,
  type PublishAlertBody,
} from '@tradeshelf/contract';
import { sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import type { AlertInput } from './publish.ts';

const pick = (o: Record<string, unknown>, ...keys: string[]): unknown => {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

const asText = (v: unknown, message: string, field: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new AppError('validation_failed', message, { [field]: message });
};

/** The alert a body describes; `contentType` decides whether JSON is expected. */
export function parseHookBody(raw: string, contentType: string | undefined): AlertInput {
  const body = raw.trim();
  if (!body) throw new AppError('validation_failed', m.badBody, { body: m.badBody });
  const saysJson = /^application\/([\w.+-]*\+)?json\b/i.test(contentType ?? '');
  let fields: PublishAlertBody;
  if (saysJson || body.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      if (saysJson) throw new AppError('validation_failed', m.badJson, { body: m.badJson });
      parsed = undefined;
    }
    if (parsed === undefined) fields = { text: body };
    else if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new AppError('validation_failed', m.badBody, { body: m.badBody });
    else {
      const o = parsed as Record<string, unknown>;
      const sideWord = asText(pick(o, 'side', 'action'), m.side, 'side');
      const side = sideWord === undefined ? null : alertSideWords[sideWord.trim().toLowerCase()];
      if (side === undefined) throw new AppError('validation_failed', m.side, { side: m.side });
      const symbol = asText(pick(o, 'symbol', 'ticker'), m.symbol, 'symbol');
      const price = asText(pick(o, 'price', 'close'), m.price, 'price');
      const text = asText(pick(o, 'text', 'message', 'comment'), m.text, 'text');
      const id = asText(pick(o, 'id'), m.alertId, 'id');
      fields = {
        side,
        ...(symbol !== undefined ? { symbol } : {}),
        ...(price !== undefined ? { price } : {}),
        ...(text !== undefined ? { text } : {}),
        ...(id !== undefined ? { id } : {}),
      };
    }
  } else fields = { text: body };
  const input = checkedAlert(fields);
  // A body without an id is its own id: TradingView repeating one delivery is one alert.
  return { ...input, dedupeKey: input.dedupeKey ?? `body:${sha256(body)}` };
}

/** The contract's rules for an alert, as a 400 with the first field's message. */
export function checkedAlert(fields: PublishAlertBody): AlertInput {
  const parsed = publishAlertBody.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'body');
    throw new AppError('validation_failed', issue.message, { [field]: issue.message });
  }
  const b = parsed.data;
  return {
    symbol: b.symbol.toUpperCase(),
    side: b.side,
    price: b.price,
    text: b.text,
    image: b.image ?? null,
    dedupeKey: b.id === undefined ? null : `id:${b.id}`,
  };
}
