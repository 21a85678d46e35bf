// The studies and reviews of a study file as plain data (no ranges, no tokens): what the task database, the
// judge and the exporters read. Built from whatever parsed; callers that need a sound study check the
// diagnostics first (lintStudyText) and refuse a file with errors.
import type {
  BinaryOperator,
  BlockNode,
  Expression,
  JudgeOptionName,
  SourceStatement,
  StringNode,
  StudyFileAst,
} from './ast.ts';
import { statementOf, statementsOf } from './ast.ts';
import { resolveStudyPath } from './fileChecks/fileCheck.ts';
import { documentFormats } from './keywords.ts';
import type { ParsedStudyFile } from './types.ts';

/** Who made a label source's labels (`import qrels … kind gold`): core/store/labelKind.ts says what each counts in. */
export type LabelKind = 'person' | 'crowd' | 'gold' | 'llm';

export interface FileRef {
  /** As written in the study file. */
  path: string;
  /** Resolved against the study file's directory, when resolveStudies was given its path. */
  absolutePath?: string;
}

export interface DataSourceModel extends FileRef {
  /** role → field name (`{ id: 'qid', text: 'query' }`); `format` only when it names a field (`format: kind`). */
  fields: Record<string, string>;
  /** The importer `from` names (`hf-viewer`); told from the file when absent. */
  fileFormat?: string;
}

export interface CorpusModel extends DataSourceModel {
  format?: 'markdown' | 'html' | 'text' | 'json';
}

export interface PoolModel extends FileRef {
  depth: number;
}

export interface ScaleEntryModel {
  value: number;
  label: string;
  key: string;
  description?: string;
  /** `gain G`: the value's gain in nDCG (absent: the value itself, as trec_eval). */
  gain?: number;
}

export interface ScaleModel {
  kind: 'ordinal' | 'nominal' | 'binary';
  entries: ScaleEntryModel[];
}

export type DeriveExpression =
  | { kind: 'number'; value: number }
  | { kind: 'name'; name: string }
  | { kind: 'call'; fn: string; args: DeriveExpression[] }
  /** `conditions[position]`, 1-based. */
  | { kind: 'index'; name: string; position: number }
  | { kind: 'not'; operand: DeriveExpression }
  | { kind: 'binary'; operator: BinaryOperator; left: DeriveExpression; right: DeriveExpression }
  | { kind: 'conditional'; test: DeriveExpression; whenTrue: DeriveExpression; whenFalse: DeriveExpression };

/** How a judge's calls are sent: one chat request per vote (`online`), or through the Batch API (`batch`). */
export type JudgeMode = 'online' | 'batch';

/** `budget 25 USD`: the most a judge run may cost, checked against an estimate before anything is sent. */
export interface JudgeBudget {
  amount: number;
  currency: 'USD';
}

/** What a judge's quality gate measures against the people's labels (core/judge/quality/). */
export type JudgeGateMetric = 'tau' | 'tau_ap' | 'kappa' | 'accuracy' | 'ece';

/** One condition of `accept when tau >= 0.9 and kappa >= 0.6`. */
export interface JudgeGateCondition {
  metric: JudgeGateMetric;
  operator: '>=' | '>' | '<=' | '<';
  value: number;
}

export interface JudgeModel {
  model: string;
  endpoint?: string;
  prompt?: FileRef;
  temperature?: number;
  votes?: number;
  maxTokens?: number;
  seed?: number;
  /** Absent: online. */
  mode?: JudgeMode;
  budget?: JudgeBudget;
  /** The gate a judge must pass before it may fill unjudged pairs (`from human-else-llm`); all conditions hold. */
  accept?: JudgeGateCondition[];
}

export interface AgreementModel {
  metric: 'krippendorff' | 'cohen' | 'fleiss' | 'percent';
  level?: string;
  target?: number;
}

export interface ExportModel extends FileRef {
  what: 'qrels' | 'labels' | 'verdicts';
  /** `adjudicated` unless the study says otherwise. */
  from: 'adjudicated' | 'majority' | 'all' | 'judge' | 'mean' | 'human-else-llm';
  /** `from mean > T`: T. */
  threshold?: number;
  perDocument: boolean;
  /** `per document by any`: a document is relevant (1) when any chunk is; absent or `by max`: its best chunk label. */
  rollup?: 'max' | 'any';
  /** `per chunk`: each document's label given to every chunk of it. */
  perChunk?: boolean;
}

export interface ImportModel extends FileRef {
  what: 'qrels';
  /** The annotator id the judgments are recorded under (`imported` by default). */
  as: string;
  /** Who made them, when declared (`kind gold`); the store's default is a person. */
  kind?: LabelKind;
}

interface BlockModelBase {
  name: string;
  title?: string;
  guidelines?: FileRef;
  annotators: string[];
  adjudicator?: string;
  overlap?: number;
  blind: boolean;
  judges: JudgeModel[];
  agreement: AgreementModel[];
  exports: ExportModel[];
}

export interface AspectModel {
  name: string;
  question: string;
  /** A graded aspect's values (`levels 0 1 2`), ascending; absent for a yes/no aspect. */
  levels?: number[];
}

export interface StudyModel extends BlockModelBase {
  kind: 'study';
  queries?: DataSourceModel;
  corpus?: CorpusModel;
  pools: PoolModel[];
  scale?: ScaleModel;
  aspects: AspectModel[];
  /** The query field (or role) the per-query conditions are read from. */
  conditionsFrom?: string;
  derive?: DeriveExpression;
  imports: ImportModel[];
  /** The measures the Evaluate view shows (`measures`, as eval -m names them); absent: the view's default ones. */
  measures?: string[];
}

export interface ReviewModel extends BlockModelBase {
  kind: 'review';
  items?: DataSourceModel;
  /** The queries the items' parents name (their text is shown and given to the critic). */
  queries?: DataSourceModel;
  /** The tables of `tables` (titles and text for the instruction checks). */
  corpus?: CorpusModel;
  /** Each item's labelled table set (a qrels keyed by item id). */
  tables?: FileRef;
  taxonomy: { code: string; label: string }[];
  rubric?: { levels: string[]; dimensions: { name: string; description?: string }[] };
  verdicts: string[];
}

/**
 * Where the file's studies keep their record: the SQLite file next to the study (the default, without a `store`
 * statement) or a PostgreSQL store the user's side names (`store postgres "team-wqt"`).
 */
export type StoreModel = { kind: 'sqlite' } | { kind: 'postgres'; name: string };

export interface StudyFileModel {
  studies: StudyModel[];
  reviews: ReviewModel[];
  store: StoreModel;
}

/** `store`'s identity: 'sqlite', or 'postgres:<name>' (a study file whose store changed needs another store). */
export function storeKey(store: StoreModel): string {
  return store.kind === 'sqlite' ? 'sqlite' : `postgres:${store.name}`;
}

/** The file's `store` statement as data: the first one (a second is an error of its own); none is SQLite. */
export function storeOfFile(ast: StudyFileAst): StoreModel {
  const statement = ast.stores[0];
  if (statement?.storeKind?.text === 'postgres' && statement.name)
    return { kind: 'postgres', name: statement.name.value };
  return { kind: 'sqlite' };
}

/** The file's blocks as plain data; with `studyPath`, file references also carry their absolute path. */
export function resolveStudies(parsed: ParsedStudyFile, studyPath?: string): StudyFileModel {
  const fileRef = (path: StringNode): FileRef => ({
    path: path.value,
    ...(studyPath !== undefined && { absolutePath: resolveStudyPath(studyPath, path.value) }),
  });
  const source = (statement: SourceStatement | undefined): DataSourceModel | undefined => {
    if (!statement?.path) return undefined;
    const fields: Record<string, string> = {};
    // `format: html` is the corpus's format (CorpusModel.format); `format: kind` names a field like any role.
    for (const m of statement.mappings) {
      if (m.value && !(m.role.text === 'format' && documentFormats.includes(m.value.text))) {
        fields[m.role.text] = m.value.text;
      }
    }
    return { ...fileRef(statement.path), fields, ...(statement.from && { fileFormat: statement.from.text }) };
  };
  const common = (block: BlockNode): BlockModelBase => {
    const title = statementOf(block, 'title')?.value?.value;
    const guidelines = statementOf(block, 'guidelines')?.path;
    const adjudicator = statementOf(block, 'adjudicator')?.name?.text;
    const overlap = statementOf(block, 'overlap')?.count?.value;
    return {
      name: block.name?.value ?? '',
      ...(title !== undefined && { title }),
      ...(guidelines && { guidelines: fileRef(guidelines) }),
      annotators: [...new Set(statementsOf(block, 'annotators').flatMap((s) => s.names.map((n) => n.text)))],
      ...(adjudicator !== undefined && { adjudicator }),
      ...(overlap !== undefined && Number.isFinite(overlap) && { overlap }),
      blind: statementOf(block, 'blind') !== undefined,
      judges: statementsOf(block, 'judge').flatMap((judge) => {
        if (!judge.model) return [];
        const model: JudgeModel = { model: judge.model.value };
        const numbers: Partial<Record<JudgeOptionName, 'temperature' | 'votes' | 'maxTokens' | 'seed'>> = {
          temperature: 'temperature',
          votes: 'votes',
          max_tokens: 'maxTokens',
          seed: 'seed',
        };
        for (const option of judge.options) {
          const value = option.value?.value;
          if (value === undefined) continue;
          if (option.name === 'endpoint' && typeof value === 'string') model.endpoint = value;
          else if (option.name === 'prompt' && typeof value === 'string')
            model.prompt = fileRef(option.value as StringNode);
          else if (typeof value === 'number' && Number.isFinite(value) && numbers[option.name])
            model[numbers[option.name]!] = value;
        }
        for (const option of judge.options) {
          if (option.name === 'mode' && option.mode) model.mode = option.mode.text as JudgeMode;
          const amount = option.value?.value;
          if (option.name === 'budget' && typeof amount === 'number' && Number.isFinite(amount) && option.currency)
            model.budget = { amount, currency: option.currency.text as JudgeBudget['currency'] };
          if (option.name === 'accept' && option.conditions) {
            // Only whole conditions: a malformed one is a reported error, and commands refuse a study with errors.
            const gate = option.conditions.flatMap((c) =>
              c.metric && c.operator && c.value && Number.isFinite(c.value.value)
                ? [
                    {
                      metric: c.metric.text as JudgeGateMetric,
                      operator: c.operator.text as JudgeGateCondition['operator'],
                      value: c.value.value,
                    },
                  ]
                : [],
            );
            if (gate.length > 0) model.accept = gate;
          }
        }
        return [model];
      }),
      agreement: statementsOf(block, 'agreement').flatMap((a) =>
        a.metric
          ? [
              {
                metric: a.metric.text as AgreementModel['metric'],
                ...(a.level && { level: a.level.text }),
                ...(a.target && Number.isFinite(a.target.value) && { target: a.target.value }),
              },
            ]
          : [],
      ),
      exports: statementsOf(block, 'export').flatMap((e) =>
        e.what && e.path
          ? [
              {
                ...fileRef(e.path),
                what: e.what.text as ExportModel['what'],
                from: (e.source?.text ?? 'adjudicated') as ExportModel['from'],
                ...(e.threshold && Number.isFinite(e.threshold.value) && { threshold: e.threshold.value }),
                perDocument: e.perDocument !== undefined,
                ...(e.perDocument && e.rollup && { rollup: e.rollup.text as 'max' | 'any' }),
                ...(e.perChunk && { perChunk: true }),
              },
            ]
          : [],
      ),
    };
  };

  const studies: StudyModel[] = [];
  const reviews: ReviewModel[] = [];
  for (const block of parsed.ast.blocks) {
    const corpusStatement = statementOf(block, 'corpus');
    const corpusSource = source(corpusStatement);
    const format = corpusStatement?.mappings
      .map((m) => (m.role.text === 'format' ? m.value?.text : undefined))
      .find((text) => text !== undefined && documentFormats.includes(text));
    const corpus = corpusSource && { ...corpusSource, ...(format && { format: format as CorpusModel['format'] }) };
    const queries = source(statementOf(block, 'queries'));
    if (block.kind === 'review') {
      const rubric = statementOf(block, 'rubric');
      const items = source(statementOf(block, 'items'));
      const tables = statementOf(block, 'tables')?.path;
      reviews.push({
        kind: 'review',
        ...common(block),
        ...(items && { items }),
        ...(queries && { queries }),
        ...(corpus && { corpus }),
        ...(tables && { tables: fileRef(tables) }),
        taxonomy: statementsOf(block, 'taxonomy').flatMap((t) =>
          t.entries.map((e) => ({ code: e.code.text, label: e.label?.value ?? '' })),
        ),
        ...(rubric && {
          rubric: {
            levels: rubric.levels.map((l) => l.text),
            dimensions: rubric.dimensions.map((d) => ({
              name: d.name.text,
              ...(d.description && { description: d.description.value }),
            })),
          },
        }),
        verdicts: statementsOf(block, 'verdicts').flatMap((v) => v.names.map((n) => n.text)),
      });
      continue;
    }
    const scale = statementOf(block, 'scale');
    const conditionsFrom = statementOf(block, 'conditions')?.field?.text;
    const derive = statementOf(block, 'derive')?.expression;
    studies.push({
      kind: 'study',
      ...common(block),
      ...(queries && { queries }),
      ...(corpus && { corpus }),
      pools: statementsOf(block, 'pool').flatMap((p) =>
        p.path && p.depth && Number.isFinite(p.depth.value) ? [{ ...fileRef(p.path), depth: p.depth.value }] : [],
      ),
      ...(scale?.scaleKind && {
        scale: {
          kind: scale.scaleKind.text as ScaleModel['kind'],
          entries: scale.entries.flatMap((e) =>
            e.label && e.key && Number.isFinite(e.value.value)
              ? [
                  {
                    value: e.value.value,
                    label: e.label.value,
                    key: e.key.value,
                    ...(e.description && { description: e.description.value }),
                    ...(e.gain && Number.isFinite(e.gain.value) && e.gain.value >= 0 && { gain: e.gain.value }),
                  },
                ]
              : [],
          ),
        },
      }),
      aspects: statementsOf(block, 'aspect').flatMap((a) =>
        a.name && a.question
          ? [
              {
                name: a.name.text,
                question: a.question.value,
                ...(a.levels && { levels: a.levels.map((l) => l.value).filter(Number.isFinite) }),
              },
            ]
          : [],
      ),
      ...(conditionsFrom !== undefined && { conditionsFrom }),
      ...(derive && { derive: plainExpression(derive) }),
      ...(statementOf(block, 'measures') && {
        measures: [...new Set(statementsOf(block, 'measures').flatMap((m) => m.names.map((n) => n.text)))],
      }),
      imports: statementsOf(block, 'import').flatMap((i) =>
        i.what && i.path
          ? [
              {
                ...fileRef(i.path),
                what: 'qrels' as const,
                as: i.as?.text ?? 'imported',
                ...(i.labelKind && { kind: i.labelKind.text as LabelKind }),
              },
            ]
          : [],
      ),
    });
  }
  return { studies, reviews, store: storeOfFile(parsed.ast) };
}

function plainExpression(node: Expression): DeriveExpression {
  switch (node.kind) {
    case 'number':
      return { kind: 'number', value: node.value };
    case 'name':
      return { kind: 'name', name: node.name };
    case 'call':
      return { kind: 'call', fn: node.callee.text, args: node.args.map(plainExpression) };
    case 'index':
      return { kind: 'index', name: node.target.text, position: node.index.value };
    case 'not':
      return { kind: 'not', operand: plainExpression(node.operand) };
    case 'binary':
      return {
        kind: 'binary',
        operator: node.operator,
        left: plainExpression(node.left),
        right: plainExpression(node.right),
      };
    case 'conditional':
      return {
        kind: 'conditional',
        test: plainExpression(node.test),
        whenTrue: plainExpression(node.whenTrue),
        whenFalse: plainExpression(node.whenFalse),
      };
  }
}

// The evaluation lives in its own module so the Label webview can bundle it without the parser.
export { evaluateDerive } from './evaluateDerive.ts';
