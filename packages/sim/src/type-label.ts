// The free-form display label each supplier writes for a stay type. Suppliers word them
// differently ("Entire villa", "Villa", "B&B"); the normalised `type` stays the same.
import type { StayType, SupplierId } from './types.ts';

export const HOTEL_STYLES = ['standard', 'boutique', 'business', 'design'] as const;
export type HotelStyle = (typeof HOTEL_STYLES)[number];

const BASE_LABELS: Record<StayType, string> = {
  hotel: 'Hotel',
  palace: 'Palace',
  lodge: 'Lodge',
  agritourism: 'Agritourism',
  riad: 'Riad',
  ryokan: 'Ryokan',
  villa: 'Villa',
  resort: 'Resort',
  pension: 'Pension',
  bed_and_breakfast: 'Bed and breakfast',
  apartment: 'Apartment',
  private_vacation_home: 'Vacation home',
  bungalow: 'Bungalow',
  tourist: 'Tourist accommodation',
  all_inclusive: 'All-inclusive resort',
  hostel: 'Hostel',
  farm_stay: 'Farm stay',
  cabin: 'Cabin',
  residence: 'Residence',
  house: 'House',
  condo: 'Condo',
  chalet: 'Chalet',
  country_house: 'Country house',
  aparthotel: 'Aparthotel',
  cottage: 'Cottage',
};

const HOTEL_LABELS_A: Record<HotelStyle, string> = {
  standard: 'Hotel',
  boutique: 'Boutique hotel',
  business: 'Business hotel',
  design: 'Design hotel',
};

/** supplier_c writes short labels, like a compact feed would. */
const SHORT_LABELS_C: Partial<Record<StayType, string>> = {
  bed_and_breakfast: 'B&B',
  private_vacation_home: 'Holiday home',
  all_inclusive: 'All inclusive',
  tourist: 'Tourist apt',
  country_house: 'Country home',
};

/** supplier_d, a vacation-rental marketplace, says whether the guest gets the whole place. */
const WHOLE_PLACE_D: ReadonlySet<StayType> = new Set<StayType>([
  'villa',
  'apartment',
  'private_vacation_home',
  'bungalow',
  'cabin',
  'house',
  'condo',
  'chalet',
  'country_house',
  'cottage',
]);

export function typeLabel(supplier: SupplierId, type: StayType, style: HotelStyle): string {
  switch (supplier) {
    case 'supplier_a':
      return type === 'hotel' ? HOTEL_LABELS_A[style] : BASE_LABELS[type];
    case 'supplier_b':
      return type === 'hotel' && style === 'boutique' ? 'Boutique Hotel' : BASE_LABELS[type];
    case 'supplier_c':
      if (type === 'hotel') return style === 'standard' || style === 'business' ? 'Hotel' : 'Boutique';
      return SHORT_LABELS_C[type] ?? BASE_LABELS[type];
    case 'supplier_d':
      if (type === 'hotel') return 'Hotel room';
      if (type === 'private_vacation_home') return 'Entire home';
      if (type === 'bed_and_breakfast') return 'B&B';
      return WHOLE_PLACE_D.has(type) ? `Entire ${BASE_LABELS[type].toLowerCase()}` : BASE_LABELS[type];
  }
}
