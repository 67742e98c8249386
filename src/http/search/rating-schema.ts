import { Type } from 'typebox';
import { nullableNumber } from '../json-schema.ts';
import { NULL_RATING_MEANING } from './null-rating.ts';

/**
 * A `rating` or `averageRatings` object of every version's answer: `value` is nullable
 * (docs/decisions.md 135), written as a type list (json-schema.ts says why).
 */
export const ratingSchema = Type.Object({
  value: Type.Unsafe<number | null>({
    type: ['number', 'null'],
    description: `Guest rating, 0 to 10, one decimal. ${NULL_RATING_MEANING}`,
  }),
  hotelStars: nullableNumber,
  count: Type.Number({ description: 'Reviews behind `value`.' }),
});
