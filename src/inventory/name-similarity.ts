import { foldText } from '../text/fold-text.ts';
import { streetAddress } from './street-address.ts';

/**
 * Words that do not tell two property names apart: suppliers add or drop them at will
 * ("Hotel Lumière" / "Lumière Hotel" / "Lumière"), and "&" vs "and" is the same name.
 */
const GENERIC_WORDS = new Set([
  'hotel',
  'hotels',
  'the',
  'and',
  'a',
  'an',
  'of',
  'at',
  'by',
  'in',
  'de',
  'la',
  'le',
  'les',
  'l',
  'd',
  'du',
  'des',
  'di',
  'del',
  'della',
  'da',
  'do',
  'dos',
  'das',
  'el',
  'los',
  'las',
  'y',
  'e',
  'et',
  'und',
  'het',
  'een',
  'van',
]);

/** City of a canonical address "<street>, <city>, <country>": the second part from the end. */
function cityOf(address: string): string {
  const last = address.lastIndexOf(',');
  if (last < 0) return '';
  const before = address.lastIndexOf(',', last - 1);
  return before < 0 ? '' : address.slice(before + 1, last);
}

/** Printable ASCII; anything else (accents, control characters) takes foldText's full path. */
const ASCII = /^[ -~]*$/;
const NON_ALNUM_ASCII = /[^a-z0-9]+/g;

/**
 * foldText, with a fast path: most names are ASCII, where foldText's Unicode normalisation changes
 * nothing and costs most of the time (ingestion folds every name and address).
 */
function fold(text: string): string {
  return ASCII.test(text) ? text.toLowerCase().replace(NON_ALNUM_ASCII, ' ').trim() : foldText(text);
}

function words(folded: string): string[] {
  return folded === '' ? [] : folded.split(' ');
}

/**
 * Sorts pool[from, to) and removes duplicates in place; returns the new end. Insertion sort: the
 * segments are a few to a few dozen numbers, and nothing is allocated.
 */
function sortUnique(pool: Int32Array, from: number, to: number): number {
  for (let i = from + 1; i < to; i++) {
    const value = pool[i];
    let j = i - 1;
    while (j >= from && pool[j] > value) {
      pool[j + 1] = pool[j];
      j--;
    }
    pool[j + 1] = value;
  }
  let end = from;
  for (let i = from; i < to; i++) if (i === from || pool[i] !== pool[end - 1]) pool[end++] = pool[i];
  return end;
}

/** A 32-bit mix of three UTF-16 code units: trigram identity without a dictionary of millions of entries. */
function trigramHash(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ b ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ c ^ (h >>> 16), 0x27d4eb2f);
  return h ^ (h >>> 15);
}

const SPACE = 32;

/** Trigrams of " word ": the padding marks where words start and end. */
function pushTrigrams(word: string, push: (value: number) => void): void {
  let a = SPACE;
  let b = word.charCodeAt(0);
  for (let i = 1; i <= word.length; i++) {
    const c = i < word.length ? word.charCodeAt(i) : SPACE;
    push(trigramHash(a, b, c));
    a = b;
    b = c;
  }
}

/**
 * The words of a name that tell it apart: generic words and the words of its own city dropped
 * (`cityWords` caches a city's words: a big city is asked for thousands of times).
 */
function distinctiveWords(name: string, address: string, cityWords: Map<string, Set<string>>): string[] {
  const cityName = cityOf(address);
  let city = cityWords.get(cityName);
  if (city === undefined) {
    city = new Set(words(fold(cityName)));
    cityWords.set(cityName, city);
  }
  const all = words(fold(name));
  const core = all.filter((word) => !GENERIC_WORDS.has(word) && !city.has(word));
  if (core.length > 0) return core;
  // "Hotel Paris" is all generic words and city: then the words are all there is to compare.
  const named = all.filter((word) => !GENERIC_WORDS.has(word));
  return named.length > 0 ? named : all;
}

/**
 * Sorted sets of integers laid end to end in one growable Int32Array, each a segment [from, to):
 * `push` values, then `seal(from)` sorts and dedups the open segment and returns its end. Slot 0
 * is never used, so that an end of 0 can mean "not computed".
 */
function createSetPool(capacity: number) {
  let pool = new Int32Array(Math.max(1024, capacity));
  let end = 1;
  return {
    get end(): number {
      return end;
    },
    push(value: number): void {
      if (end === pool.length) {
        const grown = new Int32Array(pool.length * 2);
        grown.set(pool);
        pool = grown;
      }
      pool[end++] = value;
    },
    seal(from: number): number {
      end = sortUnique(pool, from, end);
      return end;
    },
    /** Sørensen-Dice coefficient of two segments, 0..1 (1 when both are empty). */
    dice(i0: number, i1: number, j0: number, j1: number): number {
      const total = i1 - i0 + (j1 - j0);
      if (total === 0) return 1;
      let common = 0;
      while (i0 < i1 && j0 < j1) {
        const a = pool[i0];
        const b = pool[j0];
        if (a === b) {
          common++;
          i0++;
          j0++;
        } else if (a < b) i0++;
        else j0++;
      }
      return (2 * common) / total;
    },
  };
}

/**
 * The names and addresses of a list of listings reduced to what identifies them, compared by
 * position in that list. Three sorted integer sets per listing: the distinctive words of the name
 * (generic words and the city's own words removed), the character trigrams of those words, and the
 * words of the address. They live in one flat Int32Array: 200k listings would otherwise be 600k
 * small arrays for the garbage collector to chase.
 */
export interface NameFeatures {
  /**
   * How alike two names are, 0..1: the mean of word-set and trigram-set Dice. Words catch
   * reordering and dropped words exactly; trigrams give partial credit for a typo or a split
   * word ("Bellavista" / "Bella Vista") where the word sets alone would say 0.
   */
  nameSimilarity(i: number, j: number): number;
  /**
   * How alike two addresses are, 0..1, from their streets alone (street-address.ts): the city and
   * country are the same for any two neighbours and tell nothing. The word-set Dice of the
   * streets' names, but 0 when both have house numbers and share none (the same street, another
   * door); a number one feed left out counts neither way. 0.5, no evidence either way, when
   * either feed gives no street.
   */
  addressSimilarity(i: number, j: number): number;
}

export function createNameFeatures(listings: readonly { name: string; address: string }[]): NameFeatures {
  const dictionary = new Map<string, number>();
  const intern = (word: string): number => {
    let id = dictionary.get(word);
    if (id === undefined) {
      id = dictionary.size;
      dictionary.set(word, id);
    }
    return id;
  };
  const cityWords = new Map<string, Set<string>>();

  // Features are computed on first use: a listing with no other supplier's listing nearby is
  // never compared, and an address only matters once two names are alike.
  // Name of listing k: words at pool[nameAt[k] .. gramsAt[k]), trigrams .. nameEnd[k].
  // Address of listing k: street words at pool[addressAt[k] .. numbersAt[k]), house numbers ..
  // addressEnd[k]. nameEnd/addressEnd 0 = not yet.
  const n = listings.length;
  const nameAt = new Uint32Array(n);
  const gramsAt = new Uint32Array(n);
  const nameEnd = new Uint32Array(n);
  const addressAt = new Uint32Array(n);
  const numbersAt = new Uint32Array(n);
  const addressEnd = new Uint32Array(n);
  const pool = createSetPool(n * 32);
  const push = (value: number): void => pool.push(value);

  const computeName = (k: number): void => {
    const core = distinctiveWords(listings[k].name, listings[k].address, cityWords);
    nameAt[k] = pool.end;
    for (const word of core) push(intern(word));
    gramsAt[k] = pool.seal(nameAt[k]);
    for (const word of core) pushTrigrams(word, push);
    nameEnd[k] = pool.seal(gramsAt[k]);
  };

  const computeAddress = (k: number): void => {
    const street = streetAddress(listings[k].address);
    addressAt[k] = pool.end;
    for (const word of street.words) push(intern(word));
    numbersAt[k] = pool.seal(addressAt[k]);
    for (const number of street.numbers) push(intern(number));
    addressEnd[k] = pool.seal(numbersAt[k]);
  };

  return {
    nameSimilarity(i, j) {
      if (nameEnd[i] === 0) computeName(i);
      if (nameEnd[j] === 0) computeName(j);
      const wordsDice = pool.dice(nameAt[i], gramsAt[i], nameAt[j], gramsAt[j]);
      const gramsDice = pool.dice(gramsAt[i], nameEnd[i], gramsAt[j], nameEnd[j]);
      return (wordsDice + gramsDice) / 2;
    },
    addressSimilarity(i, j) {
      if (addressEnd[i] === 0) computeAddress(i);
      if (addressEnd[j] === 0) computeAddress(j);
      if (addressAt[i] === numbersAt[i] || addressAt[j] === numbersAt[j]) return 0.5;
      const street = pool.dice(addressAt[i], numbersAt[i], addressAt[j], numbersAt[j]);
      if (numbersAt[i] === addressEnd[i] || numbersAt[j] === addressEnd[j]) return street;
      return pool.dice(numbersAt[i], addressEnd[i], numbersAt[j], addressEnd[j]) > 0 ? street : 0;
    },
  };
}
