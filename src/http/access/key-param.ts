// The API key may travel as the `key` query parameter; it must never reach a link or a log line.
// Links and logs therefore drop (or redact) every parameter a person or a lenient parser could
// read as `key`: any case, percent-encoded letters, accents, and stray spaces, NUL or punctuation
// around it (`KEY`, `key%20`, `key%00`, `%key`, `k%C3%A9y`).

/** Whether a query parameter name, as decoded by URLSearchParams or written raw, is a spelling of `key`. */
export function isKeyParamName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // not decodable: compared as written
  }
  return (
    decoded
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '') === 'key'
  );
}

/** The query without any spelling of `key` (URLSearchParams decodes names; isKeyParamName copes with raw ones too). */
export function withoutKeyParams(rawQuery: string): URLSearchParams {
  const params = new URLSearchParams(rawQuery);
  for (const name of new Set(params.keys())) if (isKeyParamName(name)) params.delete(name);
  return params;
}
