import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { distanceMeters } from './distance.ts';
import { CITY_ALIASES, COUNTRY_ALIASES, createGazetteerGeocoder } from './gazetteer-geocoder.ts';
import { runGeocoderContract } from '../test-support/contracts/geocoder-contract.ts';

runGeocoderContract('gazetteer', async () => {
  const geocoder = createGazetteerGeocoder();
  geocoder.warm();
  return geocoder;
});

describe('gazetteer geocoder', () => {
  const geocoder = createGazetteerGeocoder();
  before(() => geocoder.warm());

  async function labelOf(address: string): Promise<string | null> {
    return (await geocoder.geocode(address))?.label ?? null;
  }

  it('is tolerant of case, accents and punctuation', async () => {
    for (const address of ['MÜNCHEN', 'munchen', 'Munich']) assert.equal(await labelOf(address), 'Munich, Germany', address);
    for (const address of ['Zürich', 'zurich', 'ZURICH!']) assert.equal(await labelOf(address), 'Zürich, Switzerland', address);
    for (const address of ['São Paulo', 'sao paulo', 'Sao-Paulo']) assert.equal(await labelOf(address), 'São Paulo, Brazil', address);
    // Letters NFD does not decompose still fold to what an ASCII keyboard types.
    assert.equal(await labelOf('Lodz'), 'Łódź, Poland');
    assert.equal(await labelOf('Saint Louis'), 'St. Louis, Missouri, United States');
  });

  it('reads city names in any language and script (GeoNames alternate names)', async () => {
    assert.equal(await labelOf('東京'), 'Tokyo, Japan');
    assert.equal(await labelOf('Москва'), 'Moscow, Russia');
    assert.equal(await labelOf('القاهرة'), 'Cairo, Egypt');
    assert.equal(await labelOf('München'), 'Munich, Germany');
    assert.equal(await labelOf('Zürich'), 'Zürich, Switzerland');
    assert.equal(await labelOf('Αθήνα'), 'Athens, Greece');
    assert.equal(await labelOf('서울'), 'Seoul, South Korea');
    assert.equal(await labelOf('Monaco di Baviera'), 'Munich, Germany');
    // With the rest of an address, as other segments are read.
    assert.equal(await labelOf('Красная площадь, Москва, Россия'), 'Moscow, Russia');
    // A city's own name is never taken for another city's alternate name.
    assert.equal(await labelOf('Paris'), 'Paris, France');
  });

  it('settles ambiguity by population', async () => {
    assert.equal(await labelOf('London'), 'London, United Kingdom');
    assert.equal(await labelOf('Paris'), 'Paris, France');
    assert.equal(await labelOf('Barcelona'), 'Barcelona, Spain');
    assert.equal(await labelOf('Springfield'), 'Springfield, Missouri, United States');
  });

  it('honours a trailing country given by name, alias or ISO code', async () => {
    assert.equal(await labelOf('Paris, France'), 'Paris, France');
    assert.equal(await labelOf('Paris, FR'), 'Paris, France');
    assert.equal(await labelOf('London, Canada'), 'London, Ontario, Canada');
    assert.equal(await labelOf('Barcelona, Venezuela'), 'Barcelona, Venezuela');
    assert.equal(await labelOf('Portland, England'), 'Portland, United Kingdom');
    assert.equal(await labelOf('Roma, USA'), 'Roma, Texas, United States');
    assert.equal(await labelOf('Amsterdam, Holland'), 'Amsterdam, Netherlands');
    // A country is a constraint, not a hint: no Springfield in France.
    assert.equal(await labelOf('Springfield, France'), null);
  });

  it('reads US states and Canadian provinces, including two-letter codes that are also countries', async () => {
    assert.equal(await labelOf('Paris, TX'), 'Paris, Texas, United States');
    assert.equal(await labelOf('Paris, Texas'), 'Paris, Texas, United States');
    assert.equal(await labelOf('Los Angeles, CA'), 'Los Angeles, California, United States');
    assert.equal(await labelOf('London, CA'), 'London, Ontario, Canada');
    assert.equal(await labelOf('London, Ontario'), 'London, Ontario, Canada');
    assert.equal(await labelOf('Atlanta, Georgia'), 'Atlanta, Georgia, United States');
    assert.equal(await labelOf('Tbilisi, Georgia'), 'Tbilisi, Georgia');
    assert.equal(await labelOf('Portland, ME'), 'Portland, Maine, United States');
  });

  it('resolves longer addresses by their place segments', async () => {
    assert.equal(await labelOf('12 Rue de Rivoli, Paris, France'), 'Paris, France');
    assert.equal(await labelOf('Eiffel Tower, Paris'), 'Paris, France');
    assert.equal(await labelOf('10117 Berlin, Germany'), 'Berlin, Germany');
    assert.equal(await labelOf('London SW1A 1AA, UK'), 'London, United Kingdom');
    assert.equal(await labelOf('Times Square, New York'), 'New York City, New York, United States');
    assert.equal(await labelOf('Hotel Lumière, 12 Rue Lafayette, Paris, FR'), 'Paris, France');
    assert.equal(await labelOf('Paris France'), 'Paris, France');
    assert.equal(await labelOf('Austin TX'), 'Austin, Texas, United States');
  });

  it('lets a more specific segment win only when the broader ones confirm it', async () => {
    assert.equal(await labelOf('Brooklyn, New York'), 'Brooklyn, New York, United States');
    assert.equal(await labelOf('Manhattan, New York, USA'), 'Manhattan, New York, United States');
    assert.equal(await labelOf('Santa Monica, Los Angeles, CA'), 'Santa Monica, California, United States');
    assert.equal(await labelOf('Venice, CA'), 'Venice, California, United States');
    // "Westminster" is only a town in the US/Australia in the gazetteer: London is not overridden.
    assert.equal(await labelOf('Westminster, London'), 'London, United Kingdom');
  });

  it('knows common alternate names', async () => {
    const newYork = await geocoder.geocode('New York');
    assert.ok(newYork, 'newYork');
    assert.equal(newYork.label, 'New York City, New York, United States');
    assert.ok(
      distanceMeters(newYork.lat, newYork.lng, 40.7128, -74.006) < 5_000,
      'distanceMeters(newYork.lat, newYork.lng, 40.7128, -74.006) < 5_000',
    );
    assert.equal(await labelOf('NYC'), 'New York City, New York, United States');
    assert.equal(await labelOf('New York, NY'), 'New York City, New York, United States');
    assert.equal(await labelOf('Roma'), 'Rome, Italy');
    assert.equal(await labelOf('Washington'), 'Washington, D.C., United States');
    assert.equal(await labelOf('Washington, D.C.'), 'Washington, D.C., United States');
    assert.equal(await labelOf('Seattle, Washington'), 'Seattle, Washington, United States');
  });

  it('resolves every alias in its table to the intended country', async () => {
    for (const [alias, [, country]] of Object.entries(CITY_ALIASES)) {
      const place = await geocoder.geocode(alias);
      assert.ok(place, alias);
      const countryName = new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
      assert.ok(
        place.label.endsWith(countryName) || place.label.endsWith('Macao') || place.label.endsWith('Panama'),
        `${alias} -> ${place.label}`,
      );
    }
    const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) {
      assert.ok(regionNames.of(code) !== undefined, `${alias} -> ${code} is not an ISO 3166-1 code`);
    }
  });

  it('treats a bare country as an area: null unless a same-named city lies in it', async () => {
    assert.equal(await labelOf('France'), null);
    assert.equal(await labelOf('USA'), null);
    assert.equal(await labelOf('Mexico'), null);
    // A trailing area admits only cities inside it, even when its name is a city elsewhere (Usa, Japan).
    assert.equal(await labelOf('Texas, USA'), null);
    assert.equal(await labelOf('Georgia, USA'), null);
    assert.equal(await labelOf('Singapore'), 'Singapore');
    assert.equal(await labelOf('Luxembourg'), 'Luxembourg');
  });

  it('returns null for nothing, digits and gibberish', async () => {
    for (const address of ['', '   ', ',,,', '12345', 'asdfghjkl', 'x']) {
      assert.equal(await geocoder.geocode(address), null, JSON.stringify(address));
    }
  });

  it('honours minPopulation', async () => {
    const big = createGazetteerGeocoder({ minPopulation: 100_000 });
    assert.equal(await big.geocode('Paris, TX'), null);
    assert.equal((await big.geocode('Paris'))?.label, 'Paris, France');
  });

  // How fast a warm geocode is: bench/timings.ts (target: 1,000 under 1 s).
  it('answers the same once warm, every time', async () => {
    const first = await geocoder.geocode('12 Rue de Rivoli, Paris, France');
    assert.equal(first?.label.includes('Paris'), true, JSON.stringify(first));
    for (let i = 0; i < 100; i++) assert.deepEqual(await geocoder.geocode('12 Rue de Rivoli, Paris, France'), first);
  });
});
