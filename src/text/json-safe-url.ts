// URLs that can be written into a JSON body as they are (http/json-schema.ts, jsonSafeString).

/** Every character but printable ASCII without the quote and the backslash. */
const NOT_SAFE = /[^\x21\x23-\x5b\x5d-\x7e]/u;
const NOT_SAFE_ALL = /[^\x21\x23-\x5b\x5d-\x7e]/gu;

/**
 * `url` with every character that is not printable ASCII, and the quote and the backslash,
 * percent-encoded (UTF-8; a lone surrogate becomes U+FFFD). The URL keeps its meaning and no
 * longer holds anything JSON must escape, so the serialiser need not scan it. Applied where URLs
 * enter the gateway: supplier media at ingest, the request's base URL and path.
 */
export function jsonSafeUrl(url: string): string {
  if (!NOT_SAFE.test(url)) return url;
  return url.replace(NOT_SAFE_ALL, encodeCodePoint);
}

function encodeCodePoint(c: string): string {
  // With the u flag a match is a whole code point: a lone surrogate is the only one that cannot be encoded.
  return c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '%EF%BF%BD' : encodeURIComponent(c);
}
