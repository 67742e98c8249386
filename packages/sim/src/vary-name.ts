// How a second supplier writes the name of a property it shares with another: the same hotel, typed
// by a different content team. Entity resolution must still see one property.
import type { Random } from './random.ts';

const ACCENTS = /[\u0300-\u036f]/g;
const HOTEL_WORD = /^(hotel|hôtel)$/i;

type Variation = (name: string, cityName: string, rng: Random) => string;

const caseChange: Variation = (name, _city, rng) => {
  const r = rng.next();
  if (r < 0.3) return name.toUpperCase();
  if (r < 0.5) return name.toLowerCase();
  // Title Case every word ("Hotel de la Paix" -> "Hotel De La Paix").
  return name.replace(/(^|\s)(\p{Ll})/gu, (_m, space: string, ch: string) => space + ch.toUpperCase());
};

/** "Hotel Lumière" <-> "Lumière Hotel". */
const moveHotelWord: Variation = (name) => {
  const words = name.split(' ');
  if (words.length < 2) return name;
  if (HOTEL_WORD.test(words[0])) return [...words.slice(1), 'Hotel'].join(' ');
  if (HOTEL_WORD.test(words[words.length - 1])) return ['Hotel', ...words.slice(0, -1)].join(' ');
  return name;
};

const appendCity: Variation = (name, city, rng) => {
  if (name.toLowerCase().includes(city.toLowerCase())) return name;
  return rng.chance(0.6) ? `${name} ${city}` : `${name} - ${city}`;
};

const dropAccents: Variation = (name) => name.normalize('NFD').replace(ACCENTS, '').normalize('NFC');

const ampersand: Variation = (name) => {
  if (name.includes(' & ')) return name.replace(' & ', ' and ');
  if (/ and /i.test(name)) return name.replace(/ and /i, ' & ');
  return name;
};

/** Drops "Hotel"/"The" or, in names of three words or more, one word after the first. */
const dropWord: Variation = (name, _city, rng) => {
  const words = name.split(' ');
  const filler = words.findIndex((w) => HOTEL_WORD.test(w) || /^the$/i.test(w));
  if (filler >= 0 && words.length >= 2) return words.filter((_w, i) => i !== filler).join(' ');
  if (words.length < 3) return name;
  const drop = rng.int(1, words.length - 1);
  if (words[drop] === '&' || words[drop] === '-') return name;
  return words.filter((_w, i) => i !== drop).join(' ');
};

const VARIATIONS: readonly Variation[] = [caseChange, moveHotelWord, appendCity, dropAccents, ampersand, dropWord];

/**
 * A supplier's variant of `name`: one change (sometimes two) among case, "Hotel X" vs "X Hotel",
 * city appended, accents dropped, "&" vs "and", a word dropped. Always differs from `name`.
 */
export function varyName(name: string, cityName: string, rng: Random): string {
  let varied = name;
  const changes = rng.chance(0.3) ? 2 : 1;
  for (let done = 0, tries = 0; done < changes && tries < 12; tries++) {
    const next = rng.pick(VARIATIONS)(varied, cityName, rng);
    if (next !== varied && next.trim() !== '') {
      varied = next;
      done++;
    }
  }
  if (varied === name) varied = appendCity(name, cityName, rng);
  if (varied === name) varied = name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase();
  return varied;
}
