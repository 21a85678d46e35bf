// Where the labels of an exported qrels file come from (`qrels-studio export --from SOURCE`): one record per source,
// in one table. Every source gives at most one label per (query, document) pair; a pair it has no label for is left
// out of the qrels (trec_eval counts a document it has no judgment for as not relevant either).
import { closestWords } from '../dsl/editDistance.ts';
import { humanElseLlmSource } from './humanElseLlmSource.ts';
import { meanThresholdSource } from './meanThresholdSource.ts';
import type { PairLabel } from './port/agreementPort.ts';
import { StoreError } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

export type { PairLabel } from './port/agreementPort.ts';

export interface LabelSource {
  /** What `--from` takes: `majority`, or a prefix for sources with an argument (`annotator:`). */
  readonly id: string;
  readonly takesArgument: boolean;
  /** What the argument is, in the list of sources (`NAME` when not said). */
  readonly argumentName?: string;
  readonly description: string;
  labels(store: StudyStore, studyId: number, argument: string): Promise<PairLabel[]>;
}

export function knownAnnotators(store: StudyStore, studyId: number, kind: 'human' | 'llm'): Promise<string[]> {
  return store.agreement.knownAnnotators(studyId, kind);
}

/**
 * An LLM judge's labels: its current judgments (imported ones) and, for the other pairs, its latest parsed
 * suggestion — what `qrels-studio judge` and *Run LLM judge* store, and the Label view shows.
 */
export async function judgeLabels(store: StudyStore, studyId: number, judge: string): Promise<PairLabel[]> {
  const labels: PairLabel[] = [];
  for (const [qid, docid, annotator, , label] of await store.agreement.studyLabelRows(studyId)) {
    if (annotator === judge) labels.push({ qid, docid, label });
  }
  return labels.sort((a, b) => compareBytes(a.qid, b.qid) || compareBytes(a.docid, b.docid));
}

/**
 * The majority of the human annotators' current labels per pair. A tie goes to the lower label: a pair two
 * annotators split on 1 and 2 is exported as 1 — the conservative reading, which never makes a document more
 * relevant than one of its assessors found it. LLM judges, imported LLM labels and gold (core/store/labelKind.ts) do not
 * vote.
 */
export function majorityLabels(store: StudyStore, studyId: number): Promise<PairLabel[]> {
  return store.agreement.majorityLabels(studyId);
}

/** The latest adjudicated label per pair (whoever adjudicated) that is not retracted. */
export function adjudicatedLabels(store: StudyStore, studyId: number): Promise<PairLabel[]> {
  return store.agreement.adjudicatedLabels(studyId);
}

export const labelSources: readonly LabelSource[] = [
  {
    id: 'annotator:',
    takesArgument: true,
    description: "one annotator's current labels (annotator:alice)",
    async labels(store, studyId, name) {
      const known = await knownAnnotators(store, studyId, 'human');
      if (!known.includes(name)) {
        throw new StoreError(`no judgments by annotator '${name}' (annotators: ${known.join(', ') || 'none'})`);
      }
      return store.agreement.annotatorLabels(studyId, name);
    },
  },
  {
    id: 'llm:',
    takesArgument: true,
    description:
      "an LLM judge's current labels (llm:gpt-4.1-mini, or llm:gpt-4.1-mini@<prompt-hash> when several), or LLM " +
      'labels imported `kind llm` (llm:gpt52)',
    async labels(store, studyId, name) {
      const known = await knownAnnotators(store, studyId, 'llm');
      const wanted = `llm:${name}`;
      // A judge's name is `llm:<model>[@prompt]`; LLM labels imported `kind llm` keep the name they were given.
      const matching = known.includes(wanted)
        ? [wanted]
        : known.includes(name)
          ? [name]
          : known.filter((k) => k.startsWith(`${wanted}@`));
      if (matching.length !== 1) {
        const why = matching.length === 0 ? 'no judgments by' : 'several prompts for';
        throw new StoreError(`${why} LLM judge '${name}' (LLM judges: ${known.join(', ') || 'none'})`);
      }
      return judgeLabels(store, studyId, matching[0]!);
    },
  },
  {
    id: 'majority',
    takesArgument: false,
    description: "the human annotators' majority label; a tie goes to the lower label",
    labels: (store, studyId) => majorityLabels(store, studyId),
  },
  {
    id: 'adjudicated',
    takesArgument: false,
    description: 'the adjudicated label; pairs not adjudicated are left out',
    labels: (store, studyId) => adjudicatedLabels(store, studyId),
  },
  {
    id: 'adjudicated-else-majority',
    takesArgument: false,
    description: 'the adjudicated label where there is one, else the majority (ties to the lower label)',
    async labels(store, studyId) {
      const adjudicated = await adjudicatedLabels(store, studyId);
      const decided = new Set(adjudicated.map((l) => `${l.qid}\u0000${l.docid}`));
      const merged = [
        ...adjudicated,
        ...(await majorityLabels(store, studyId)).filter((l) => !decided.has(`${l.qid}\u0000${l.docid}`)),
      ];
      return merged.sort((a, b) => compareBytes(a.qid, b.qid) || compareBytes(a.docid, b.docid));
    },
  },
  meanThresholdSource,
  humanElseLlmSource,
];

/** Orders as SQLite's BINARY collation does (UTF-8 bytes). */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The source `--from` names (`annotator:alice`, `majority`, …) and its argument, or an error listing them. */
export function findLabelSource(written: string): { source: LabelSource; argument: string } {
  // `mean > 1.5` as the study file writes it is `mean>1.5`.
  const spec = written.startsWith('mean') ? written.replace(/\s+/g, '') : written;
  for (const source of labelSources) {
    if (source.takesArgument && spec.startsWith(source.id) && spec.length > source.id.length) {
      return { source, argument: spec.slice(source.id.length) };
    }
    if (!source.takesArgument && spec === source.id) return { source, argument: '' };
  }
  const listed = labelSources.map((s) => (s.takesArgument ? `${s.id}${s.argumentName ?? 'NAME'}` : s.id)).join(', ');
  const near = closestWords(
    spec,
    labelSources.map((s) => s.id),
  );
  const hint = near.length > 0 ? `; did you mean '${near[0]}'?` : '';
  throw new StoreError(`unknown label source '${written}' (expected one of: ${listed})${hint}`);
}
