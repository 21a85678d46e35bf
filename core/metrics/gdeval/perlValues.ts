// How gdeval.pl's Perl turns its text into numbers and its numbers into text. gdeval compares scores and topics as
// Perl numbers (a field is read up to the first character that is not part of a number: "3.5x" is 3.5, "Q0" is 0)
// and prints with C's printf, which rounds an exact half to even (0.015625 → 0.01562), where JavaScript's toFixed
// rounds it up. Everything here works on the file's bytes as latin1 strings, as Perl reads them.

/** Perl's numeric value of a string: its longest leading number, Inf/Infinity/NaN, or 0 when there is none. */
export function perlNumber(text: string | undefined): number {
  if (text === undefined) return 0;
  const match =
    /^[\t\n\v\f\r ]*([+-]?)(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(inf(?:inity)?)|(nan))/i.exec(text);
  if (!match) return 0;
  const sign = match[1] === '-' ? -1 : 1;
  if (match[2] !== undefined) return sign * Number(match[2]);
  if (match[3] !== undefined) return sign * Number.POSITIVE_INFINITY;
  return Number.NaN;
}

/**
 * A score as Perl compares it with `<`: an integer that a 64-bit integer holds stays exact (two scores that differ
 * past the 53 bits of a double are still different, as Perl keeps them as IV/UV); anything else is a double.
 */
export function perlScoreValue(text: string): number | bigint {
  if (/^[+-]?\d{16,20}$/.test(text)) {
    const exact = BigInt(text);
    if (exact >= -(2n ** 63n) && exact < 2n ** 64n) return exact;
  }
  return perlNumber(text);
}

/** Perl's `<=>` on two score values; NaN is neither greater nor smaller than anything (0). */
export function comparePerlScores(a: number | bigint, b: number | bigint): number {
  if (typeof a !== typeof b) {
    a = Number(a);
    b = Number(b);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The topic number a digit string stands for, as a key: "010" and "10" are the same topic to gdeval's `!=`. */
export function topicNumberKey(topic: string): string {
  return topic.replace(/^0+(?=\d)/, '');
}

/** Numeric order of two topic keys (`topicNumberKey`: digits without leading zeros, of any length). */
export function compareTopicKeys(x: string, y: string): number {
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Numeric order of two topic numbers (digit strings, leading zeros allowed): "010" equals "10". */
export function compareTopicNumbers(a: string, b: string): number {
  return compareTopicKeys(topicNumberKey(a), topicNumberKey(b));
}

const float64View = new DataView(new ArrayBuffer(8));

/**
 * C's printf("%.<digits>f"): the decimal nearest to the exact binary value, an exact half rounded to even. Exact
 * arithmetic on the double's mantissa and exponent, so no intermediate rounding moves a value across a half.
 */
export function printfFixed(value: number, digits: number): string {
  if (Number.isNaN(value)) return value < 0 ? '-nan' : 'nan';
  if (!Number.isFinite(value)) return value < 0 ? '-inf' : 'inf';
  float64View.setFloat64(0, value);
  const negative = float64View.getUint8(0) >= 0x80;
  const biasedExponent = (float64View.getUint16(0) >> 4) & 0x7ff;
  let mantissa = float64View.getBigUint64(0) & 0xfffffffffffffn;
  let exponent: number;
  if (biasedExponent === 0) {
    exponent = -1074;
  } else {
    mantissa |= 0x10000000000000n;
    exponent = biasedExponent - 1075;
  }
  // |value| = mantissa × 2^exponent; scaled = |value| × 10^digits, rounded half to even.
  const scaledNumerator = mantissa * 10n ** BigInt(digits);
  let rounded: bigint;
  if (exponent >= 0) {
    rounded = scaledNumerator << BigInt(exponent);
  } else {
    const shift = BigInt(-exponent);
    rounded = scaledNumerator >> shift;
    const remainder = scaledNumerator - (rounded << shift);
    const half = 1n << (shift - 1n);
    if (remainder > half || (remainder === half && (rounded & 1n) === 1n)) rounded += 1n;
  }
  const text = rounded.toString().padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

/** Perl's truthiness of a field: undefined, "" and "0" are false. */
export function perlTrue(text: string | undefined): boolean {
  return text !== undefined && text !== '' && text !== '0';
}
