// Issue 23's property: random qrels/run pairs — ties in score, unjudged documents, negative grades (TREC's −2),
// topics only in the qrels or only in the run, odd document ids — give the same numbers through the normal output,
// --json and the --as modes: err@K/ndcg_gd@K as `--as gdeval` prints them (with and without -c), rbp@P with its
// residual as `--as rbp_eval -q`, ndeval's measures as `--as ndeval`, and the text output as --json rounded.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { printfFixed } from '../../core/metrics/gdeval/perlValues.ts';
import { printfFixed6 } from '../../core/metrics/ndeval/ndeval.ts';
import { formatFixed4 } from '../../core/metrics/trecEvalOutput.ts';
import { scratchDir } from '../helpers.ts';
import { cliInProcess } from './inProcessCli.ts';

/** mulberry32: a small seeded generator, so that a failure names its seed and replays. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  qrels: string;
  nonNegativeQrels: string;
  diversityQrels: string;
  run: string;
}

/** Numeric topics (gdeval and ndeval read numbers); documents with `-`, `.`, `:`, `/`, upper case and long ids. */
function randomCase(seed: number): Case {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const docno = (i: number) =>
    `${pick(['d', 'DOC-', 'clueweb09-en0000-', 'x.y:', 'a/b_'])}${i}${pick(['', '-Z', '.0'])}`;
  const topics = Array.from({ length: 2 + Math.floor(random() * 4) }, (_, i) => 100 + i * 7 + Math.floor(random() * 3));
  let qrels = '';
  let nonNegativeQrels = '';
  let diversityQrels = '';
  let run = '';
  for (const topic of topics) {
    const documents = Array.from({ length: 3 + Math.floor(random() * 12) }, (_, i) => docno(i));
    const unique = [...new Set(documents)];
    const judgedInQrels = random() < 0.85; // some topics only in the run
    const inRun = random() < 0.85; // some topics only in the qrels
    if (judgedInQrels) {
      let positive = false;
      for (const doc of unique) {
        if (random() < 0.25) continue; // unjudged
        const grade = pick([-2, 0, 0, 1, 1, 2, 3, 4]);
        positive ||= grade > 0;
        qrels += `${topic} 0 ${doc} ${grade}\n`;
        nonNegativeQrels += `${topic} 0 ${doc} ${Math.max(grade, 0)}\n`;
        for (let subtopic = 1; subtopic <= 3; subtopic++) {
          if (random() < 0.5) diversityQrels += `${topic} ${subtopic} ${doc} ${grade > 0 && random() < 0.6 ? 1 : 0}\n`;
        }
      }
      if (!positive && unique.length > 0) {
        qrels += `${topic} 0 extra-${topic} 1\n`;
        nonNegativeQrels += `${topic} 0 extra-${topic} 1\n`;
      }
      diversityQrels += `${topic} 1 extra-${topic} 1\n`;
    }
    if (inRun) {
      const retrieved = unique.filter(() => random() < 0.9);
      if (retrieved.length === 0) retrieved.push(unique[0]!);
      retrieved.forEach((doc, rank) => {
        const score = pick([1, 2, 2, 3, 3.5, 10]); // ties
        run += `${topic} Q0 ${doc} ${rank + 1} ${score} tag${seed}\n`;
      });
    }
  }
  if (run === '') run = `${topics[0]} Q0 ${docno(0)} 1 1 tag${seed}\n`;
  return { qrels, nonNegativeQrels, diversityQrels, run };
}

interface JsonRun {
  all: Record<string, number>;
  queries: Record<string, Record<string, number>>;
}

async function run(folder: string, ...args: string[]): Promise<string> {
  const result = await cliInProcess(folder, 'eval', ...args);
  assert.equal(result.status, 0, `eval ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** The text output's lines equal the --json values rounded as trec_eval rounds (%6.4f). */
function assertTextIsJson(text: string, json: JsonRun, where: string): void {
  const expected: string[] = [];
  for (const [qid, record] of Object.entries(json.queries)) {
    for (const [name, value] of Object.entries(record))
      expected.push(`${name.padEnd(22)}\t${qid}\t${formatFixed4(value).padStart(6)}`);
  }
  for (const [name, value] of Object.entries(json.all))
    expected.push(`${name.padEnd(22)}\tall\t${formatFixed4(value).padStart(6)}`);
  // As sets: a JSON object lists integer-like keys (topics 116, 123) in numeric order, not the output's.
  assert.deepEqual(text.trim().split('\n').sort(), expected.sort(), where);
}

test('random qrels and runs: the named measures equal the --as modes, and the text output equals --json', {
  timeout: 300_000,
}, async () => {
  const folder = scratchDir();
  let compared = 0; // values compared with a tool's, so that a generator gone empty fails
  for (let seed = 1; seed <= 25; seed++) {
    const c = randomCase(seed);
    const file = (name: string) => join(folder, `${seed}.${name}`);
    writeFileSync(file('qrels'), c.qrels);
    writeFileSync(file('nonneg.qrels'), c.nonNegativeQrels);
    writeFileSync(file('diversity.qrels'), c.diversityQrels);
    writeFileSync(file('run'), c.run);
    const where = `seed ${seed}`;

    for (const complete of [false, true]) {
      const flags = complete ? ['-c'] : [];
      const named = ['-m', 'err@10', '-m', 'ndcg_gd@10', '-m', 'rbp@0.8', '-m', 'alpha_ndcg@10', '-m', 'nrbp'];
      const inputs = ['--diversity-qrels', file('diversity.qrels'), file('nonneg.qrels'), file('run')];
      const json = (JSON.parse(await run(folder, '--json', '-q', ...flags, ...named, ...inputs)) as { runs: JsonRun[] })
        .runs[0]!;
      assertTextIsJson(await run(folder, '-q', ...flags, ...named, ...inputs), json, `${where} -c ${complete}`);

      // gdeval (on the qrels with −2: gdeval drops grades ≤ 0, so both files give it the same judgments).
      const gdeval = (await run(folder, '--as', 'gdeval', '-k', '10', ...flags, file('qrels'), file('run')))
        .trim()
        .split('\n')
        .slice(1);
      const withNegatives = (
        JSON.parse(
          await run(folder, '--json', '-q', ...flags, '-m', 'err@10', '-m', 'ndcg_gd@10', file('qrels'), file('run')),
        ) as { runs: JsonRun[] }
      ).runs[0]!;
      for (const row of gdeval) {
        const [, topic, ndcg, err] = row.split(',');
        const ours = topic === 'amean' ? withNegatives.all : withNegatives.queries[topic!];
        assert.ok(ours, `${where}: topic ${topic} of gdeval has no err@10 line`);
        assert.equal(printfFixed(ours['ndcg_gd@10']!, 5), ndcg, `${where} -c ${complete} ndcg_gd@10 topic ${topic}`);
        compared++;
        assert.equal(printfFixed(ours['err@10']!, 5), err, `${where} -c ${complete} err@10 topic ${topic}`);
      }
      assert.equal(
        Object.values(withNegatives.queries).filter((q) => q['err@10'] !== undefined).length,
        gdeval.length - 1,
        `${where}: the topics gdeval prints`,
      );

      if (!complete) {
        // rbp_eval has no -c: its mean is over the run's judged topics, as rbp@P's without -c.
        const rbp = (await run(folder, '--as', 'rbp_eval', '-q', '-H', '-p', '0.8', file('nonneg.qrels'), file('run')))
          .trim()
          .split('\n');
        for (const line of rbp.filter((l) => l.startsWith('p='))) {
          const match = /^p= 0\.80 q=\s+(\S+) d= full rbp= (\S+) \+(\S+)$/.exec(line);
          assert.ok(match, `${where}: ${line}`);
          const [, topic, value, residual] = match;
          const ours = topic === 'all' ? json.all : json.queries[topic!]!;
          compared++;
          assert.equal(formatFixed4(ours['rbp@0.8']!), value, `${where} rbp@0.8 topic ${topic}`);
          assert.equal(formatFixed4(ours['rbp_residual@0.8']!), residual, `${where} rbp_residual@0.8 topic ${topic}`);
        }
      }

      // ndeval.
      const ndeval = (await run(folder, '--as', 'ndeval', ...flags, file('diversity.qrels'), file('run')))
        .trim()
        .split('\n');
      const columns = ndeval[0]!.split(',');
      const alpha = columns.indexOf('alpha-nDCG@10');
      const nrbp = columns.indexOf('NRBP');
      for (const row of ndeval.slice(1)) {
        const fields = row.split(',');
        const topic = fields[1]!;
        const ours = topic === 'amean' ? json.all : json.queries[topic]!;
        assert.ok(ours, `${where}: topic ${topic} of ndeval has no line`);
        assert.equal(
          printfFixed6(ours['alpha_ndcg@10']!),
          fields[alpha],
          `${where} -c ${complete} alpha_ndcg@10 topic ${topic}`,
        );
        compared++;
        assert.equal(printfFixed6(ours.nrbp!), fields[nrbp], `${where} -c ${complete} nrbp topic ${topic}`);
      }
    }
  }
  assert.ok(compared > 300, `only ${compared} values compared`);
});
