/** A typed array of `capacity` elements holding `array`'s at the start: the growth step of columns built by appending. */
export function growTypedArray<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(array: T, capacity: number): T {
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}
