// Who made a label source's labels, and what each kind counts in. Declared when importing (`import qrels "…" as NAME
// kind gold`, `import --kind gold`); otherwise a person, or an LLM judge for the judges the tool runs (`llm:…`).
//   person, crowd: people — agreement counts them, `majority` lets them vote (crowd workers are assessors too; a
//                  study that wants them apart gives them their own agreement run over a label file).
//   llm, judge:    an LLM's labels imported from a file, or a judge the tool ran: in agreement only with
//                  --include-llm, no vote in `majority`.
//   gold:          the reference: never in agreement, no vote in `majority`; exported with `--from annotator:NAME`.
import type { LabelKind } from '../dsl/model.ts';

export type { LabelKind };
/** A declared kind, or `judge`: an LLM judge the tool ran. */
export type AnnotatorLabelKind = LabelKind | 'judge';

export const declaredLabelKinds: readonly LabelKind[] = ['person', 'crowd', 'gold', 'llm'];

/** The annotator table's coarse kind for a declared one: only LLMs are `llm`. */
export function coarseKindOf(kind: LabelKind): 'human' | 'llm' {
  return kind === 'llm' ? 'llm' : 'human';
}
