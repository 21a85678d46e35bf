// Which label source (labelSources.ts) a study's qrels come from: what its `export qrels "…" from X` declarations
// name, in the terms of `qrels-studio export --from`. Exporting a study's qrels and evaluating runs against them
// use this one mapping, so both read the same labels.
import type { ExportModel, StudyModel } from '../dsl/model.ts';
import type { QrelsUnit } from './qrelsUnits.ts';
import { StoreError } from './studyDatabase.ts';

/** The label source of one `export qrels` declaration; a declaration a qrels file cannot be made from is an error. */
export function labelSourceOfExport(
  study: StudyModel,
  exported: Pick<ExportModel, 'path' | 'from' | 'perDocument' | 'threshold'>,
): string {
  const where = `study '${study.name}', export qrels "${exported.path}"`;
  switch (exported.from) {
    case 'adjudicated':
      // The study file's `from adjudicated`: the adjudicator's decision where there is one, the agreed label elsewhere.
      return 'adjudicated-else-majority';
    case 'majority':
      return 'majority';
    case 'mean':
      if (exported.threshold === undefined) throw new StoreError(`${where}: expected \`from mean > T\`, a threshold`);
      return `mean>${exported.threshold}`;
    case 'human-else-llm':
      return 'human-else-llm';
    case 'judge': {
      const judge = study.judges[0];
      if (judge === undefined) throw new StoreError(`${where}: expected a \`judge\` statement for \`from judge\``);
      return `llm:${judge.model}`;
    }
    case 'all':
      throw new StoreError(
        `${where}: \`from all\` is every judgment, several per pair, and a qrels file holds one label per pair ` +
          '(use `export labels … from all`)',
      );
  }
}

/**
 * The unit of one `export qrels` declaration's lines: `per document [by max|any]` rolls chunk labels up to their
 * document (MaxP unless `by any`), `per chunk` gives each document's label to its chunks.
 */
export function qrelsUnitOfExport(exported: Pick<ExportModel, 'perDocument' | 'rollup' | 'perChunk'>): QrelsUnit {
  if (exported.perDocument) return { per: 'document', rollup: exported.rollup ?? 'max' };
  return exported.perChunk ? { per: 'chunk' } : { per: 'pair' };
}

/** The label source of a study's qrels: its first `export qrels` declaration's, else `from adjudicated`'s. */
export function studyQrelsSource(study: StudyModel): string {
  const declared = study.exports.find((e) => e.what === 'qrels');
  return declared
    ? labelSourceOfExport(study, declared)
    : labelSourceOfExport(study, { path: `${study.name}.qrels`, from: 'adjudicated', perDocument: false });
}
