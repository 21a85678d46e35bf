// What the bench scripts share to make their data: a seeded PRNG, so that every machine benchmarks the same files,
// and buffered writers of generated lines.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Deterministic PRNG (mulberry32), so every machine benchmarks the same files: the bootstrap's generator. */
export { seededRandom as random } from '../core/agreement/bootstrap.ts';

/** Writes what `produce` writes (synchronously, in any pieces) to `file`, buffered in 64 KiB writes. */
export async function writeLines(file: string, produce: (write: (text: string) => void) => void): Promise<void> {
  const stream = createWriteStream(file);
  let buffer = '';
  produce((text) => {
    buffer += text;
    if (buffer.length > 1 << 16) {
      stream.write(buffer);
      buffer = '';
    }
  });
  stream.write(buffer);
  stream.end();
  await once(stream, 'finish');
}

/** Writes `line(0)` … `line(count - 1)` to `file`, buffered, waiting for the stream when it is full. */
export async function writeNumberedLines(file: string, count: number, line: (i: number) => string): Promise<void> {
  const stream = createWriteStream(file);
  let buffer = '';
  for (let i = 0; i < count; i++) {
    buffer += line(i);
    if (buffer.length > 1 << 16) {
      if (!stream.write(buffer)) await once(stream, 'drain');
      buffer = '';
    }
  }
  stream.end(buffer);
  await once(stream, 'finish');
}
