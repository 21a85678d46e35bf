// Compares our trec_eval text with a reference output line by line: the first difference is reported by measure
// and topic with both values, and so is a line one side has and the other has not.
import assert from 'node:assert/strict';

interface Line {
  measure: string;
  topic: string;
  value: string;
}

function parse(text: string): Line[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [measure, topic, value] = line.split('\t');
      return { measure: measure!.trim(), topic: topic!, value: value! };
    });
}

export function assertSameTrecEvalLines(ours: string, reference: string, referenceName: string): void {
  const ourLines = parse(ours);
  const referenceLines = parse(reference);
  const count = Math.max(ourLines.length, referenceLines.length);
  for (let i = 0; i < count; i++) {
    const a = ourLines[i];
    const b = referenceLines[i];
    if (a && b && a.measure === b.measure && a.topic === b.topic && a.value === b.value) continue;
    const where = b ? `measure ${b.measure}, topic ${b.topic}` : `measure ${a!.measure}, topic ${a!.topic}`;
    assert.fail(
      `${referenceName} line ${i + 1} (${where}): ours ${a ? `${a.measure} ${a.topic} ${a.value}` : 'nothing'}, ` +
        `trec_eval ${b ? `${b.measure} ${b.topic} ${b.value}` : 'nothing'}`,
    );
  }
  // The raw texts too: padding and tabs byte for byte.
  assert.equal(ours, reference.endsWith('\n') ? reference : `${reference}\n`);
}
