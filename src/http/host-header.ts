// Links and deeplinks are written under the request's own host when no public URL is configured,
// so the Host header (or a trusted proxy's X-Forwarded-Host) must be a host and nothing else:
// no path, query, fragment, userinfo or spaces smuggled into every link of a response.

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9A-Fa-f:.]{2,45}\\])(?::(\\d{1,5}))?$`);

/** Whether `host` is a DNS name, IPv4 address or bracketed IPv6 address, with an optional port 1-65535. */
export function isValidHost(host: string): boolean {
  if (host.length === 0 || host.length > 255) return false;
  const match = HOST.exec(host);
  if (match === null) return false;
  return match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65_535);
}
