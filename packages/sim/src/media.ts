// The simulated suppliers' pictures: each supplier serves its listings' photos and its own logo
// (README.md, "Media"). A real supplier's feed names image URLs on its CDN; a simulated one names
// URLs on its own server, so a page showing them never reaches for a host that does not exist.
// Images are small SVGs drawn on request from a hash of the supplier, the listing and the photo
// number: nothing is generated or held at start, whatever the size of the world.
import type { SupplierId } from './types.ts';
import { ok, SupplierHttpError, type SupplierResponse, type SupplierRoute } from './create-supplier-server.ts';
import type { SimListing, World } from './generate-world.ts';
import { anyListing } from './world-lookup.ts';
import { MAX_PHOTOS, MEDIA_PATHS } from './media-paths.ts';
import { hashToUnit } from './random.ts';

export { MAX_PHOTOS, MEDIA_PATHS };

/** The base URL a feed writes its media under: the address the request reached (its Host header). */
export function requestBase(headers: { host?: string }, fallback = 'http://127.0.0.1'): string {
  const host = headers.host;
  return host !== undefined && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `http://${host}` : fallback;
}

const BRAND: Record<SupplierId, { letter: string; colour: string }> = {
  supplier_a: { letter: 'A', colour: '#1f6feb' },
  supplier_b: { letter: 'B', colour: '#d1242f' },
  supplier_c: { letter: 'C', colour: '#1a7f37' },
  supplier_d: { letter: 'D', colour: '#bf5700' },
};

export function logoSvg(supplier: SupplierId): string {
  const { letter, colour } = BRAND[supplier];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="12" fill="${colour}"/>` +
    `<text x="32" y="44" font-family="sans-serif" font-size="36" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text></svg>`
  );
}

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h)},${Math.round(s)}%,${Math.round(l)}%)`;

/**
 * A 320x200 picture of a stay: a sky by the time of day, a ground, and the building (a tower with
 * rows of windows for hotels, a house with a roof for rentals), every colour and size drawn from
 * a hash of (supplier, listing, photo), so the same URL is always the same picture.
 */
export function photoSvg(supplier: SupplierId, listing: SimListing, n: number): string {
  const r = (i: number) => hashToUnit(supplier, listing.supplierStayId, n, i);
  const skyHue = 190 + r(1) * 40;
  const dusk = r(2) < 0.25;
  const sky = dusk ? [hsl(20 + r(3) * 20, 80, 70), hsl(260, 40, 45)] : [hsl(skyHue, 70, 85), hsl(skyHue, 65, 62)];
  const ground = hsl(80 + r(4) * 60, 35, 38 + r(5) * 12);
  const wall = hsl(r(6) * 50, 20 + r(7) * 30, 55 + r(8) * 30);
  const window = dusk ? '#ffd66b' : hsl(205, 40, 30 + r(9) * 20);
  const parts: string[] = [];
  if (listing.type === 'hotel') {
    const w = 120 + Math.floor(r(10) * 80);
    const h = 90 + Math.floor(r(11) * 70);
    const x = 160 - w / 2;
    const y = 170 - h;
    parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${wall}"/>`);
    const cols = Math.floor(w / 24);
    const rows = Math.floor((h - 20) / 22);
    const gap = (w - cols * 14) / (cols + 1);
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < cols; col++) {
        parts.push(
          `<rect x="${(x + gap + col * (14 + gap)).toFixed(1)}" y="${y + 10 + row * 22}" width="14" height="12" fill="${window}"/>`,
        );
      }
    }
    parts.push(`<rect x="${150}" y="${152}" width="20" height="18" fill="${hsl(30, 30, 25)}"/>`);
  } else {
    const w = 110 + Math.floor(r(10) * 60);
    const h = 55 + Math.floor(r(11) * 30);
    const x = 160 - w / 2;
    const y = 170 - h;
    const roof = hsl(r(12) * 25, 55, 35 + r(13) * 15);
    parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${wall}"/>`);
    parts.push(`<polygon points="${x - 10},${y} ${x + w + 10},${y} ${160},${y - 35 - r(14) * 20}" fill="${roof}"/>`);
    parts.push(`<rect x="${x + 14}" y="${y + 14}" width="22" height="18" fill="${window}"/>`);
    parts.push(`<rect x="${x + w - 36}" y="${y + 14}" width="22" height="18" fill="${window}"/>`);
    parts.push(`<rect x="${152}" y="${170 - 28}" width="16" height="28" fill="${hsl(25, 35, 28)}"/>`);
  }
  const trees = Math.floor(r(15) * 3);
  for (let i = 0; i < trees; i++) {
    const tx = i % 2 === 0 ? 25 + r(16 + i) * 30 : 265 + r(16 + i) * 30;
    parts.push(`<circle cx="${tx.toFixed(0)}" cy="150" r="${(14 + r(20 + i) * 8).toFixed(0)}" fill="${hsl(110, 40, 30)}"/>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">` +
    `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>` +
    `<rect width="320" height="200" fill="url(#s)"/><rect y="168" width="320" height="32" fill="${ground}"/>${parts.join('')}</svg>`
  );
}

function svg(text: string): SupplierResponse {
  // Deterministic for a URL: caches may keep it as long as they like.
  return { ...ok(null), text, headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' } };
}

/**
 * `GET <prefix>...`: the supplier's logo, or photo n of a listing it sells (404 otherwise). The
 * paths are parsed back from MEDIA_PATHS' patterns, so the feed and the server cannot disagree.
 */
export function mediaRoute(supplier: SupplierId, world: World): SupplierRoute {
  const paths = MEDIA_PATHS[supplier];
  // photo(id, n) with a marker id, split around it: what comes before and after the id for each n.
  const MARK = '\u0000';
  const shapes = Array.from({ length: MAX_PHOTOS }, (_v, i) => {
    const [before, after] = paths.photo(MARK, i + 1).split(MARK);
    return { n: i + 1, before, after };
  });
  return {
    method: 'GET',
    path: paths.prefix,
    prefix: true,
    handle({ path }) {
      if (path === paths.logo) return svg(logoSvg(supplier));
      for (const { n, before, after } of shapes) {
        if (!path.startsWith(before) || !path.endsWith(after)) continue;
        const id = path.slice(before.length, path.length - after.length);
        // Any listing the supplier sells or once sold: a stored URL keeps its picture after a close.
        const listing = anyListing(world, supplier, id);
        if (listing !== undefined && !id.includes('/')) return svg(photoSvg(supplier, listing, n));
      }
      throw new SupplierHttpError(404, `no image at ${path}`);
    },
  };
}
