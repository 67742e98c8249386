// Geocoder over a Nominatim-compatible HTTP API (`/search?q=...&format=jsonv2&limit=1`), for
// deployments that want street-level precision instead of the offline gazetteer's city centres.

import { GeocoderError } from './geocoder-error.ts';
import type { GeocodedPlace, Geocoder } from './geocoder.ts';

export interface HttpGeocoderOptions {
  /** Root of the service, e.g. "https://nominatim.openstreetmap.org"; `/search` is appended. */
  baseUrl: string;
  /** Deadline for the whole exchange, headers and body: a slow geocoder must not stall a search. */
  timeoutMs: number;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Nominatim's usage policy asks every client to identify itself. */
  userAgent?: string;
}

const DEFAULT_USER_AGENT = 'staygate/0.1 (accommodation search gateway)';

/** The fields of one jsonv2 result read here; Nominatim sends coordinates as strings. */
interface NominatimResult {
  lat?: unknown;
  lon?: unknown;
  display_name?: unknown;
}

export function createHttpGeocoder(options: HttpGeocoderOptions): Geocoder {
  const doFetch = options.fetch ?? fetch;
  // new URL('search', base) drops the base's last path part unless it ends in "/"; keep it so a
  // service mounted under a path ("https://host/nominatim") works.
  const searchUrl = new URL('search', options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  return {
    async geocode(address: string): Promise<GeocodedPlace | null> {
      const query = address.trim();
      // Nothing to look up: save the round trip, and answer what the gazetteer answers.
      if (query === '') return null;

      const url = new URL(searchUrl);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('limit', '1');

      let text: string;
      try {
        const response = await doFetch(url, {
          headers: { accept: 'application/json', 'user-agent': userAgent },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) {
          // Drain the body so the connection can be reused.
          await response.body?.cancel().catch(() => undefined);
          throw new GeocoderError('http', `geocoder answered HTTP ${response.status}`, { status: response.status });
        }
        // Read as text under the same signal, so a body that trickles in also times out.
        text = await response.text();
      } catch (error) {
        if (error instanceof GeocoderError) throw error;
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw new GeocoderError('timeout', `geocoder did not answer within ${options.timeoutMs} ms`, { cause: error });
        }
        throw new GeocoderError('network', 'geocoder unreachable', { cause: error });
      }

      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (cause) {
        throw new GeocoderError('bad_response', 'geocoder answered with invalid JSON', { cause });
      }
      if (!Array.isArray(body)) throw new GeocoderError('bad_response', 'geocoder answer is not a JSON array');
      if (body.length === 0) return null;
      const first = (body[0] ?? {}) as NominatimResult;
      const lat = coordinate(first.lat, 90);
      const lng = coordinate(first.lon, 180);
      if (lat === undefined || lng === undefined) {
        throw new GeocoderError('bad_response', 'geocoder result has missing or invalid lat/lon');
      }
      const label = typeof first.display_name === 'string' && first.display_name !== '' ? first.display_name : query;
      return { lat, lng, label };
    },
  };
}

/** Nominatim sends "48.8588897"; accept numbers too, reject "", NaN and out-of-range values. */
function coordinate(value: unknown, limit: number): number | undefined {
  if (typeof value === 'string' && value.trim() === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}
