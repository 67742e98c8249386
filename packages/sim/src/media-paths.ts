// Where each simulated supplier keeps its pictures: paths on its own server (media.ts serves
// them, the feeds write them absolute). Apart from media.ts so the world generator needs no HTTP.
import type { SupplierId } from './types.ts';

/** Where each supplier keeps its pictures, in its own URL style (paths on its own server). */
export const MEDIA_PATHS: Record<SupplierId, { prefix: string; logo: string; photo(id: string, n: number): string }> = {
  supplier_a: {
    prefix: '/img/',
    logo: '/img/brand/logo-square.svg',
    photo: (id, n) => (n === 1 ? `/img/p/${id}/thumb.svg` : `/img/p/${id}/${n}.svg`),
  },
  supplier_b: {
    prefix: '/static/',
    logo: '/static/logo/square-256.svg',
    photo: (id, n) => (n === 1 ? `/static/hotels/${id}/photo-main.svg` : `/static/hotels/${id}/photo-${n}.svg`),
  },
  supplier_c: { prefix: '/media/', logo: '/media/logo-sq.svg', photo: (id, n) => `/media/acc/${id}/${n === 1 ? 't' : n}.svg` },
  supplier_d: {
    prefix: '/photos/',
    logo: '/photos/brand/logo-square.svg',
    photo: (id, n) => (n === 1 ? `/photos/listings/${id}/cover.svg` : `/photos/listings/${id}/${n}.svg`),
  },
};

/** Photos a listing has (numbered from 1; 1 is the thumbnail). supplier_d's feed shows up to three. */
export const MAX_PHOTOS = 3;
