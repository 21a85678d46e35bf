// Growing typed arrays for per-entry data kept beside a ByteKeyTable (millions of entries, no JS objects).

export function growInt32(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Int32Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}

export function growFloat64(array: Float64Array<ArrayBuffer>, needed: number): Float64Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Float64Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}

export function growUint8(array: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Uint8Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}
