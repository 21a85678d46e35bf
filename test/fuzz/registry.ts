// Every fuzz target, with the behaviour its test is named after. Loaded lazily: fuzz.test.ts only needs the names,
// the worker that runs a target imports just that target's modules.
import type { FuzzTarget } from './harness.ts';

export interface FuzzTargetEntry {
  readonly id: string;
  /** The test name: what the target proves. */
  readonly title: string;
  load(): Promise<FuzzTarget>;
}

export const fuzzTargets: readonly FuzzTargetEntry[] = [
  {
    id: 'lintText',
    title: 'lintText gives valid, sorted ranges in bounded time for any mutated qrels, run or BEIR text, of any type',
    load: async () => (await import('./targets/lintTextFuzz.ts')).lintTextFuzz,
  },
  {
    id: 'incrementalLint',
    title: 'IncrementalLint agrees with lintText of the whole text after any sequence of mutated line edits',
    load: async () => (await import('./targets/incrementalLintFuzz.ts')).incrementalLintFuzz,
  },
  {
    id: 'fileReaders',
    title:
      'readQrels, readRunByQuery and lintFile reject any file (plain, invalid UTF-8, gzip) only with documented errors',
    load: async () => (await import('./targets/fileReaderFuzz.ts')).fileReaderFuzz,
  },
  {
    id: 'recordLint',
    title: 'lintRecordText gives valid, ordered ranges in bounded time for any mutated JSONL, CSV or TSV text',
    load: async () => (await import('./targets/recordLintFuzz.ts')).recordLintFuzz,
  },
  {
    id: 'studyFile',
    title: 'study-file parser, checks and editor services hold their laws on broken, 10,000-deep and huge files',
    load: async () => (await import('./targets/studyFileFuzz.ts')).studyFileFuzz,
  },
];
