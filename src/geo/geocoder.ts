/** A place an address resolved to. */
export interface GeocodedPlace {
  lat: number;
  lng: number;
  /** Display name of what matched, e.g. "Paris, France". */
  label: string;
}

/**
 * Turns a free-text address into a centre point. The default is an offline gazetteer
 * (geo/gazetteer-geocoder.ts); an HTTP (Nominatim-compatible) geocoder can replace it.
 */
export interface Geocoder {
  /** null when nothing matches. */
  geocode(address: string): Promise<GeocodedPlace | null>;
}
