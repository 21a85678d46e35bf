/** Typed arrays that grow by doubling: column storage for millions of parsed lines. */
export class GrowableInt32 {
  data: Int32Array<ArrayBuffer>;
  length = 0;
  constructor(expected = 1024) {
    this.data = new Int32Array(Math.max(expected, 16));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
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
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}
