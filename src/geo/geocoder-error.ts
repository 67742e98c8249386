// A remote geocoder failing is not "no match": the caller must tell a bad address (400) from an
// upstream outage (502/504), so failures throw this instead of returning null.

export const GEOCODER_FAILURES = ['timeout', 'network', 'http', 'bad_response'] as const;
export type GeocoderFailure = (typeof GEOCODER_FAILURES)[number];

export class GeocoderError extends Error {
  /** What went wrong, for the caller's status mapping (timeout -> 504, the rest -> 502). */
  readonly failure: GeocoderFailure;
  /** HTTP status of the upstream answer when `failure` is 'http'. */
  readonly status: number | undefined;

  constructor(failure: GeocoderFailure, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'GeocoderError';
    this.failure = failure;
    this.status = options.status;
  }
}
