/** Typed arrays that grow by doubling: column storage for millions of parsed lines. */

/** `array` if it holds `needed` elements, else a copy at least twice as long. */
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

export class GrowableInt32 {
  data: Int32Array<ArrayBuffer>;
  length = 0;
  constructor(expected = 1024) {
    this.data = new Int32Array(Math.max(expected, 16));
  }
  push(value: number): void {
    if (this.length === this.data.length) this.data = growInt32(this.data, this.length + 1);
    this.data[this.length++] = value;
  }
}

export class GrowableFloat64 {
  data: Float64Array<ArrayBuffer>;
  length = 0;
  constructor(expected = 1024) {
    this.data = new Float64Array(Math.max(expected, 16));
  }
  push(value: number): void {
    if (this.length === this.data.length) this.data = growFloat64(this.data, this.length + 1);
    this.data[this.length++] = value;
  }
}
