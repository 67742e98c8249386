// Booking.com's accommodation types (the integer `accommodation_type` of /accommodations/details;
// the list /accommodations/constants gives) and the interface's stay type each is filed under.
import type { StayType } from '../types.ts';

/**
 * Booking.com's accommodation type ids, their names, and the StayType each means (decision 151).
 * Where Booking has a type of the interface's own (riad, ryokan, chalet, condo ...) it is that type;
 * the rest fold into the nearest (a motel, an inn, a capsule hotel are hotels; a holiday park a
 * bungalow; a homestay a house). An id not here is a hotel labelled with its number, so an
 * operator sees what came.
 */
export const BOOKING_ACCOMMODATION_TYPES: Readonly<Record<number, { type: StayType; label: string }>> = {
  201: { type: 'apartment', label: 'Apartment' },
  202: { type: 'tourist', label: 'Guest accommodation' },
  203: { type: 'hostel', label: 'Hostel' },
  204: { type: 'hotel', label: 'Hotel' },
  205: { type: 'hotel', label: 'Motel' },
  206: { type: 'resort', label: 'Resort' },
  207: { type: 'residence', label: 'Residence' },
  208: { type: 'bed_and_breakfast', label: 'Bed and breakfast' },
  209: { type: 'ryokan', label: 'Ryokan' },
  210: { type: 'farm_stay', label: 'Farm stay' },
  212: { type: 'bungalow', label: 'Holiday park' },
  213: { type: 'villa', label: 'Villa' },
  214: { type: 'cabin', label: 'Campsite' },
  215: { type: 'hotel', label: 'Boat' },
  216: { type: 'pension', label: 'Guest house' },
  218: { type: 'hotel', label: 'Inn' },
  219: { type: 'aparthotel', label: 'Aparthotel' },
  220: { type: 'private_vacation_home', label: 'Holiday home' },
  221: { type: 'lodge', label: 'Lodge' },
  222: { type: 'house', label: 'Homestay' },
  223: { type: 'country_house', label: 'Country house' },
  224: { type: 'lodge', label: 'Luxury tent' },
  225: { type: 'hotel', label: 'Capsule hotel' },
  226: { type: 'hotel', label: 'Love hotel' },
  227: { type: 'riad', label: 'Riad' },
  228: { type: 'chalet', label: 'Chalet' },
  229: { type: 'condo', label: 'Condo' },
  230: { type: 'cottage', label: 'Cottage' },
  231: { type: 'hotel', label: 'Economy hotel' },
  232: { type: 'cottage', label: 'Gite' },
  233: { type: 'resort', label: 'Health resort' },
  234: { type: 'hotel', label: 'Cruise' },
  235: { type: 'hostel', label: 'Student accommodation' },
};

/** The stay type and label of a Booking.com accommodation type id. */
export function bookingAccommodationType(id: number): { type: StayType; label: string } {
  return BOOKING_ACCOMMODATION_TYPES[id] ?? { type: 'hotel', label: `Accommodation type ${id}` };
}
