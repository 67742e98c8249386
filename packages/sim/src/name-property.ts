// Names of simulated properties: independent hotels, chain branches and rentals, in local flavour.
import { foldText } from './fold-text.ts';
import type { RentalType } from './types.ts';
import type { Random } from './random.ts';
import {
  CHAIN_BRANCHES,
  HOTEL_PATTERNS,
  HOTEL_WORDS,
  RENTAL_ADJECTIVES,
  RENTAL_EXTRAS,
  RENTAL_PLACES,
  RIAD_WORDS,
  RYOKAN_WORDS,
  STREETS,
  type ChainBrand,
  type Language,
} from './vocabulary.ts';

/** Words that do not tell two names apart ("Hotel Lumière" and "Lumière" are one name). */
const FILLER_WORDS = new Set(['hotel', 'the', 'and', 'de', 'la', 'le', 'les', 'du', 'des', 'di', 'del', 'da', 'by']);

/**
 * Key under which two names count as the same name: folded, filler words dropped, word order ignored.
 * The generator keeps keys unique within a city, so two distinct properties never share a name there.
 */
export function nameKey(name: string): string {
  // Fast path for plain ASCII (most names): same result as foldText, without Unicode normalisation.
  const folded = PRINTABLE_ASCII.test(name) ? name.toLowerCase().replace(NON_ALNUM_ASCII, ' ').trim() : foldText(name);
  return folded
    .split(' ')
    .filter((w) => !FILLER_WORDS.has(w))
    .sort()
    .join(' ');
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NON_ALNUM_ASCII = /[^a-z0-9]+/g;

function hotelWord(rng: Random, lang: Language): string {
  // Local words two times in three; English words give the long tail everywhere.
  return lang !== 'en' && rng.chance(0.66) ? rng.pick(HOTEL_WORDS[lang]) : rng.pick(HOTEL_WORDS.en);
}

function twoWords(rng: Random, lang: Language): [string, string] {
  const w = hotelWord(rng, lang);
  let x = hotelWord(rng, lang);
  for (let i = 0; x === w && i < 5; i++) x = hotelWord(rng, lang);
  return [w, x];
}

/**
 * An independent hotel's name. `attempt` counts the names already refused in this city: after the
 * first, only two-word patterns are used, whose space is large enough for the densest city.
 */
export function nameIndependentHotel(rng: Random, lang: Language, attempt = 0): string {
  const [w, x] = twoWords(rng, lang);
  const patterns = attempt === 0 ? HOTEL_PATTERNS[lang] : TWO_WORD_PATTERNS[lang];
  return rng.pick(patterns).replace('{w}', w).replace('{x}', x);
}

const TWO_WORD_PATTERNS = {} as Record<Language, readonly string[]>;
for (const lang of Object.keys(HOTEL_PATTERNS) as Language[]) {
  TWO_WORD_PATTERNS[lang] = HOTEL_PATTERNS[lang].filter((p) => p.includes('{x}'));
}

/** "Ibis Paris Centre", "Ibis Paris", "Ibis Gare": the near-identical names of one chain in one city. */
export function nameChainHotel(rng: Random, brand: ChainBrand, cityName: string, lang: Language): string {
  const branch = rng.pick(CHAIN_BRANCHES[lang]);
  const r = rng.next();
  if (r < 0.72) return `${brand.brand} ${cityName} ${branch}`;
  if (r < 0.85) return `${brand.brand} ${cityName}`;
  return `${brand.brand} ${branch}`;
}

/** Rental names follow what hosts write: descriptive for homes, branded for B&Bs, riads, lodges. */
export function nameRental(rng: Random, type: RentalType, lang: Language, bedrooms: number | null): string {
  const adj = rng.pick(RENTAL_ADJECTIVES);
  const w = hotelWord(rng, lang);
  const near = rng.chance(0.5) ? rng.pick(RENTAL_PLACES) : rng.pick(STREETS[lang]);
  const extra = rng.pick(RENTAL_EXTRAS);
  const size = bedrooms && bedrooms > 0 ? `${bedrooms}BR ` : '';
  const descriptive = (noun: string): string => {
    const r = rng.next();
    if (r < 0.4) return `${adj} ${size}${noun} near ${near}`;
    if (r < 0.75) return `${adj} ${noun} ${extra}`;
    return `${adj} ${size}${noun} ${extra} near ${near}`;
  };
  switch (type) {
    case 'apartment':
      return bedrooms === 0 ? descriptive('studio') : descriptive(rng.chance(0.3) ? 'flat' : 'apartment');
    case 'condo':
      return descriptive('condo');
    case 'house':
      return descriptive(rng.chance(0.3) ? 'family house' : 'house');
    case 'villa':
      return rng.chance(0.6) ? `Villa ${w}` : `Villa ${w} ${extra}`;
    case 'private_vacation_home':
      return rng.chance(0.5) ? `${w} Holiday Home` : descriptive('vacation home');
    case 'bungalow':
      return rng.chance(0.5) ? `${w} Bungalow` : descriptive('bungalow');
    case 'cottage':
      return rng.chance(0.5) ? `${w} Cottage` : descriptive('cottage');
    case 'cabin':
      return rng.chance(0.5) ? `${w} Cabin` : descriptive('cabin');
    case 'chalet':
      return `Chalet ${w}`;
    case 'country_house':
      return `${w} Country House`;
    case 'farm_stay':
      return rng.chance(0.5) ? `${w} Farm` : `${w} Farm Stay`;
    case 'agritourism':
      return `Agriturismo ${w}`;
    case 'lodge':
      return rng.chance(0.5) ? `${w} Lodge` : `${w} Safari Lodge`;
    case 'resort':
      return rng.chance(0.5) ? `${w} Resort & Spa` : `${w} Beach Resort`;
    case 'all_inclusive':
      return rng.chance(0.5) ? `${w} All Inclusive Resort` : `${w} Resort - All Inclusive`;
    case 'palace':
      if (lang === 'it') return `Palazzo ${w}`;
      if (lang === 'fr') return `Palais ${w}`;
      return `${w} Palace`;
    case 'pension':
      return lang === 'it' ? `Pensione ${w}` : `Pension ${w}`;
    case 'bed_and_breakfast':
      return rng.chance(0.5) ? `${w} B&B` : `${w} Bed & Breakfast`;
    case 'hostel':
      return rng.chance(0.6) ? `${w} Hostel` : `${w} Backpackers`;
    case 'riad':
      return `Riad ${rng.pick(RIAD_WORDS)}${rng.chance(0.3) ? ` & ${rng.pick(['Spa', 'Hammam'])}` : ''}`;
    case 'ryokan':
      return rng.chance(0.6) ? `Ryokan ${rng.pick(RYOKAN_WORDS)}` : `${rng.pick(RYOKAN_WORDS)} ${w}`;
    case 'tourist':
      return lang === 'es' ? `Apartamentos Turísticos ${w}` : `${w} Tourist Apartments`;
    case 'residence':
      return rng.chance(0.5) ? `Residence ${w}` : `${w} Residences`;
    case 'aparthotel':
      return rng.chance(0.5) ? `Aparthotel ${w}` : `${w} Apart Hotel`;
  }
}
