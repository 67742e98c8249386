import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import { generateWorld, type SimListing, type World } from './generate-world.ts';
import {
  CHILD_SHARE,
  cityFactor,
  CITY_FACTORS,
  EXTRA_ADULT_SHARE,
  isPropertyFull,
  isSoldOut,
  OTHER_CITY_FACTOR_RANGE,
  SEASON_FACTORS,
  simQuote,
  SOLD_OUT_RATE,
  SUPPLIER_A_RATES,
  SUPPLIER_B_EUR_PER_USD,
  SUPPLIER_MARGINS,
  TEEN_SHARE,
  WEEKEND_FACTOR,
  type SimQuoteRequest,
} from './price-stay.ts';

// 2027-03-01 is a Monday. Wednesday and Friday nights of one week; Wednesdays in August and November.
const WED = { checkin: '2027-03-03', checkout: '2027-03-04' };
const FRI = { checkin: '2027-03-05', checkout: '2027-03-06' };
const AUG = { checkin: '2027-08-04', checkout: '2027-08-05' };
const NOV = { checkin: '2027-11-03', checkout: '2027-11-04' };
const ALL_DATES = [WED, FRI, AUG, NOV];

const party = (over: Partial<SimQuoteRequest> = {}): SimQuoteRequest => ({
  ...WED,
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
  ...over,
});

function total(world: World, supplier: SupplierId, id: string, request: SimQuoteRequest): number {
  const quote = simQuote(world, supplier, id, request);
  assert.ok(quote.available, `${supplier}:${id} should be available for ${JSON.stringify(request)}`);
  return quote.total;
}

/** Prices are rounded to cents per night: ratios hold to about a cent in a few dollars. */
function assertRatio(actual: number, expected: number, message?: string): void {
  assert.ok(Math.abs(actual - expected) < 0.002, `${message ?? ''} ratio ${actual} expected ${expected}`);
}

describe('simQuote: the pricing model', () => {
  let world: World;
  /** A supplier_d listing sleeping at least 4, not sold out on any of ALL_DATES. */
  let roomy: SimListing;

  before(() => {
    world = generateWorld({ seed: 5, stays: 3_000 });
    const free = (l: SimListing): boolean => ALL_DATES.every((d) => !isSoldOut(world, 'supplier_d', l.propertyId, d.checkin));
    roomy = world.listings.supplier_d.find((l) => l.capacity.guests >= 4 && free(l))!;
    assert.ok(roomy, 'roomy');
  });

  it('is deterministic: the same answer twice, and for another world of the same seed', () => {
    const id = roomy.supplierStayId;
    const first = simQuote(world, 'supplier_d', id, party({ ...AUG, adults: 3 }));
    assert.deepEqual(simQuote(world, 'supplier_d', id, party({ ...AUG, adults: 3 })), first);
    const again = generateWorld({ seed: 5, stays: 3_000 });
    assert.deepEqual(simQuote(again, 'supplier_d', id, party({ ...AUG, adults: 3 })), first);
  });

  it('charges Friday and Saturday nights more than weekday nights', () => {
    for (const listing of world.listings.supplier_a.slice(0, 200)) {
      if (
        isSoldOut(world, 'supplier_a', listing.propertyId, WED.checkin) ||
        isSoldOut(world, 'supplier_a', listing.propertyId, FRI.checkin)
      )
        continue;
      const wed = total(world, 'supplier_a', listing.supplierStayId, party({ adults: 1 }));
      const fri = total(world, 'supplier_a', listing.supplierStayId, party({ ...FRI, adults: 1 }));
      assertRatio(fri / wed, WEEKEND_FACTOR, listing.supplierStayId);
    }
    // Saturday too, Sunday not: a Friday-to-Monday stay is two dear nights and one plain one.
    const id = roomy.supplierStayId;
    const wed = total(world, 'supplier_d', id, party());
    const weekend = total(world, 'supplier_d', id, party({ checkin: '2027-03-05', checkout: '2027-03-08' }));
    if (!isSoldOut(world, 'supplier_d', roomy.propertyId, '2027-03-05')) assertRatio(weekend / wed, 2 * WEEKEND_FACTOR + 1);
  });

  it('follows the season: August dearer than November for the same property', () => {
    const id = roomy.supplierStayId;
    const aug = total(world, 'supplier_d', id, party(AUG));
    const nov = total(world, 'supplier_d', id, party(NOV));
    assert.ok(aug > nov, 'aug > nov');
    assertRatio(aug / nov, SEASON_FACTORS[7] / SEASON_FACTORS[10]);
    // A stay across a month end takes each night's own month.
    const across = total(world, 'supplier_d', id, party({ checkin: '2027-07-28', checkout: '2027-08-03' }));
    assert.ok(across > 0, 'across > 0');
  });

  it('prices the party: extra adults, children by age (under 2 free), rooms', () => {
    const id = roomy.supplierStayId;
    const two = total(world, 'supplier_d', id, party());
    assert.equal(total(world, 'supplier_d', id, party({ adults: 1 })), two, 'a room costs the same for one or two adults');
    assertRatio(total(world, 'supplier_d', id, party({ adults: 3 })) / two, 1 + EXTRA_ADULT_SHARE);
    assert.equal(total(world, 'supplier_d', id, party({ children: 1, childrenAges: [1] })), two, 'an infant is free');
    assertRatio(total(world, 'supplier_d', id, party({ children: 1, childrenAges: [5] })) / two, 1 + CHILD_SHARE);
    assertRatio(total(world, 'supplier_d', id, party({ children: 1, childrenAges: [14] })) / two, 1 + TEEN_SHARE);
    // supplier_d's default age is 12: a child without an age pays the teen share there.
    assertRatio(total(world, 'supplier_d', id, party({ children: 1 })) / two, 1 + TEEN_SHARE);
    // Two rooms: twice the rooms; four adults in two rooms have no extra adult.
    assertRatio(total(world, 'supplier_d', id, party({ rooms: 2 })) / two, 2);
    assertRatio(total(world, 'supplier_d', id, party({ rooms: 2, adults: 4 })) / two, 2);
  });

  it('is not available for a party larger than the capacity of the rooms', () => {
    const small = world.listings.supplier_a.find(
      (l) => l.capacity.guests === 2 && !isSoldOut(world, 'supplier_a', l.propertyId, WED.checkin),
    )!;
    const id = small.supplierStayId;
    assert.equal(simQuote(world, 'supplier_a', id, party()).available, true);
    assert.deepEqual(simQuote(world, 'supplier_a', id, party({ adults: 3 })), { available: false });
    assert.deepEqual(simQuote(world, 'supplier_a', id, party({ children: 1, childrenAges: [0] })), { available: false }, 'infants count');
    assert.equal(simQuote(world, 'supplier_a', id, party({ adults: 3, rooms: 2 })).available, true);
    assert.equal(simQuote(world, 'supplier_a', id, party({ adults: 2, children: 2, childrenAges: [3, 9], rooms: 2 })).available, true);
  });

  it('sells out about 7% of (listing, check-in) pairs: most at every seller of the property, some at one seller only', () => {
    let soldOut = 0;
    let asked = 0;
    for (let day = 1; day <= 20; day++) {
      const checkin = `2027-04-${String(day).padStart(2, '0')}`;
      for (const listing of world.listings.supplier_c) {
        const quote = simQuote(world, 'supplier_c', listing.supplierStayId, party({ checkin, checkout: '2027-04-25', adults: 1 }));
        asked++;
        if (!quote.available) soldOut++;
        assert.equal(quote.available, !isSoldOut(world, 'supplier_c', listing.propertyId, checkin));
      }
    }
    assert.ok(Math.abs(soldOut / asked - SOLD_OUT_RATE) < 0.015, `${soldOut / asked}`);
    // A full property is sold out at each of its sellers; a seller may also be sold out alone.
    const byProperty = new Map<number, [SupplierId, string][]>();
    for (const s of SUPPLIER_IDS)
      for (const l of world.listings[s]) byProperty.set(l.propertyId, [...(byProperty.get(l.propertyId) ?? []), [s, l.supplierStayId]]);
    let full = 0;
    let partly = 0;
    for (const day of ['2027-03-03', '2027-03-04', '2027-03-05']) {
      for (const [propertyId, sellers] of byProperty) {
        if (sellers.length < 2) continue;
        const states = sellers.map(
          ([s, id]) => simQuote(world, s, id, party({ checkin: day, checkout: '2027-03-06', adults: 1 })).available,
        );
        if (isPropertyFull(world, propertyId, day)) {
          assert.ok(
            states.every((available) => !available),
            'states.every((available) => !available)',
          );
          full++;
        } else if (states.includes(false) && states.includes(true)) partly++;
      }
    }
    assert.ok(full > 10 && partly > 3, `${full} full, ${partly} partly`);
  });

  it('applies each supplier margin to the same property, in its own currency and units', () => {
    const byProperty = new Map<number, Partial<Record<SupplierId, string>>>();
    for (const s of SUPPLIER_IDS)
      for (const l of world.listings[s]) byProperty.set(l.propertyId, { ...byProperty.get(l.propertyId), [s]: l.supplierStayId });
    let compared = 0;
    for (const [propertyId, ids] of byProperty) {
      if (ids.supplier_a === undefined || SUPPLIER_IDS.some((s) => isSoldOut(world, s, propertyId, AUG.checkin))) continue;
      const request = party({ ...AUG, checkout: '2027-08-11', adults: 1 });
      const a = simQuote(world, 'supplier_a', ids.supplier_a, request);
      assert.ok(a.available && a.currency === 'USD', "a.available && a.currency === 'USD'");
      for (const s of ['supplier_b', 'supplier_c', 'supplier_d'] as const) {
        if (ids[s] === undefined) continue;
        const q = simQuote(world, s, ids[s], request);
        assert.ok(q.available, 'q.available');
        const usd = s === 'supplier_b' ? q.total / SUPPLIER_B_EUR_PER_USD : q.total;
        assert.equal(q.currency, s === 'supplier_b' ? 'EUR' : 'USD');
        assert.ok(Math.abs(usd / a.total - SUPPLIER_MARGINS[s]) < 0.003, `${s} ${usd / a.total}`);
        compared++;
      }
    }
    assert.ok(compared > 20, `${compared}`);
  });

  it('answers supplier_a in the requested currency when native (JPY without decimals), else in USD', () => {
    const id = world.listings.supplier_a.find((l) => !isSoldOut(world, 'supplier_a', l.propertyId, AUG.checkin))!.supplierStayId;
    const request = party({ ...AUG, checkout: '2027-08-08', adults: 1 });
    const usd = simQuote(world, 'supplier_a', id, request);
    assert.ok(usd.available, 'usd.available');
    assert.equal(Math.round(usd.total * 100), usd.total * 100);
    for (const currency of ['EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD']) {
      const q = simQuote(world, 'supplier_a', id, { ...request, currency });
      assert.ok(q.available, 'q.available');
      assert.equal(q.currency, currency);
      const digits = currency === 'JPY' ? 1 : 100;
      assert.equal(q.total, Math.round(usd.total * SUPPLIER_A_RATES.perUsd[currency] * digits) / digits);
    }
    assert.ok(
      Number.isInteger((simQuote(world, 'supplier_a', id, { ...request, currency: 'JPY' }) as { total: number }).total),
      "Number.isInteger((simQuote(world, 'supplier_a', id, { ...request, currency: 'JPY' }) as { total: number }).total)",
    );
    assert.deepEqual(simQuote(world, 'supplier_a', id, { ...request, currency: 'BRL' }), usd);
    assert.deepEqual(
      simQuote(world, 'supplier_a', id, { ...request, currency: 'eur' }),
      simQuote(world, 'supplier_a', id, { ...request, currency: 'EUR' }),
    );
  });

  it('gives the dearest cities their documented level and every other a stable one in range', () => {
    assert.equal(cityFactor('Paris', 'FR'), CITY_FACTORS['Paris|FR']);
    assert.equal(cityFactor('Tokyo', 'JP'), CITY_FACTORS['Tokyo|JP']);
    const other = cityFactor('Lyon', 'FR');
    assert.equal(cityFactor('Lyon', 'FR'), other);
    assert.ok(
      other >= OTHER_CITY_FACTOR_RANGE[0] && other < OTHER_CITY_FACTOR_RANGE[1],
      'other >= OTHER_CITY_FACTOR_RANGE[0] && other < OTHER_CITY_FACTOR_RANGE[1]',
    );
  });

  it('answers ids the supplier does not sell as not available', () => {
    assert.deepEqual(simQuote(world, 'supplier_a', '1', party()), { available: false });
    // A supplier_b id is not a supplier_d id.
    assert.deepEqual(simQuote(world, 'supplier_d', world.listings.supplier_b[0].supplierStayId, party()), { available: false });
  });

  it('throws a RangeError for what the APIs answer with a 400', () => {
    const id = roomy.supplierStayId;
    const bad: Partial<SimQuoteRequest>[] = [
      { checkin: '2027-02-30' },
      { checkout: '2027/03/04' },
      { checkout: WED.checkin },
      { checkin: '2027-03-05' },
      { adults: 0 },
      { adults: 1.5 },
      { children: -1 },
      { children: 2, childrenAges: [3] },
      { children: 1, childrenAges: [18] },
      { rooms: 0 },
      { currency: 'EURO' },
      { checkout: '2030-01-01' },
    ];
    for (const over of bad) assert.throws(() => simQuote(world, 'supplier_d', id, party(over)), RangeError, JSON.stringify(over));
  });
});
