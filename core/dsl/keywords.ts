// The one table of the study language's words: every keyword, clause word, enumerated value and mapping role,
// with the syntax it takes, what it means and an example. Hover shows these entries, completion offers them,
// the parser's word sets (what a study takes, what a judge block takes, …) are read from here, and the
// unknown-keyword error lists them. Adding a word to the language starts with a line here.
import type { BlockKind, JudgeOptionName, SourceKind } from './ast.ts';

export type KeywordContext =
  | 'block'
  | 'file-statement'
  | 'store-kind'
  | 'statement'
  | 'judge-option'
  | 'judge-mode'
  | 'currency'
  | 'gate-metric'
  | 'gate-operator'
  | 'clause'
  | 'scale-kind'
  | 'agreement-metric'
  | 'agreement-level'
  | 'export-kind'
  | 'import-kind'
  | 'label-kind'
  | 'label-source'
  | 'chunk-rollup'
  | 'format'
  | 'file-format'
  | 'function'
  | 'expression-name'
  | 'queries-role'
  | 'corpus-role'
  | 'items-role';

export interface KeywordDoc {
  /** Unique: the same word can mean different things in different places (`judge`, `all`, `ordinal`). */
  id: string;
  word: string;
  context: KeywordContext;
  /** The blocks the word is valid in. */
  blocks: readonly BlockKind[];
  syntax: string;
  doc: string;
  /** A statement (or, for `block` words, a file) that uses the word. */
  example: string;
}

const both: readonly BlockKind[] = ['study', 'review'];
const study: readonly BlockKind[] = ['study'];
const review: readonly BlockKind[] = ['review'];

function entry(
  context: KeywordContext,
  word: string,
  blocks: readonly BlockKind[],
  syntax: string,
  doc: string,
  example: string,
  id = `${context}:${word}`,
): KeywordDoc {
  return { id, word, context, blocks, syntax, doc, example };
}

const judgeExample = (option: string) => `judge "gpt-4.1-mini" { ${option} }`;

export const keywordDocs: readonly KeywordDoc[] = [
  entry(
    'block',
    'study',
    both,
    'study "name" { … }',
    'A relevance-labelling study: queries × documents from a pool, labelled on a scale by annotators (and ' +
      'optionally an LLM judge). Each study gets its own task database next to the study file.',
    'study "dev" {\n  queries "q.jsonl" { id: qid text: query }\n}',
  ),
  entry(
    'block',
    'review',
    both,
    'review "name" { … }',
    'A review of generated text (instructions, query rewrites): each item gets a verdict, a taxonomy type and ' +
      'rubric ratings.',
    'review "instructions" {\n  items "gen.jsonl" { id: iid text: instruction }\n}',
  ),

  entry(
    'file-statement',
    'store',
    both,
    'store (sqlite | postgres "name")',
    'Where every study and review of this file keeps its record. `store sqlite` (the default, also without a ' +
      '`store` statement): a task database next to the study file. `store postgres "name"`: a study on a shared ' +
      "PostgreSQL server; `name` is looked up on each user's side — the `qrelsStudio.stores` setting (host, port, " +
      "database, user, or `urlEnv`: an environment variable holding a `postgres://` URL), else libpq's " +
      "environment (`PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER`). The password comes only from the editor's secret " +
      'storage ("Set Store Password"), `PGPASSWORD` or `~/.pgpass` — never from this file.',
    'store postgres "team-wqt"\n\nstudy "dev" {\n  title "Dev"\n}',
  ),
  entry(
    'store-kind',
    'sqlite',
    both,
    'store sqlite',
    "The embedded default: each study's task database is a SQLite file next to the study file. Nothing to set up; " +
      'one machine.',
    'store sqlite',
  ),
  entry(
    'store-kind',
    'postgres',
    both,
    'store postgres "name"',
    'A PostgreSQL server the whole team shares: many annotators label the same study at once from their own ' +
      'machines. The quoted name is a connection each user configures (setting `qrelsStudio.stores`, libpq ' +
      'environment variables or `~/.pgpass`); the study file holds no host and no password.',
    'store postgres "team-wqt"',
  ),
  entry(
    'statement',
    'title',
    both,
    'title "text"',
    'The title shown in the labelling and review views.',
    'title "WQT dev"',
  ),
  entry(
    'statement',
    'guidelines',
    both,
    'guidelines "path"',
    'The annotation guidelines (Markdown), shown next to every item. Relative paths start at the study file.',
    'guidelines "guidelines.md"',
  ),
  entry(
    'statement',
    'queries',
    both,
    'queries "path" { role: field … }',
    'The queries file (JSONL, CSV or TSV) and which of its fields plays which role. Roles: `id` and `text` ' +
      '(required), `instruction`, `parent` (the query a rewrite or variant comes from), `type`. In a review: the ' +
      "queries the items' `parent` names, shown with each item and given to the critic as `{{query}}`.",
    'queries "data/queries.jsonl" { id: qid  text: query }',
  ),
  entry(
    'statement',
    'corpus',
    both,
    'corpus "path" { role: field … }',
    'The documents (JSONL, CSV or TSV) and the fields that hold them. Roles: `id` and `body` (required), ' +
      '`title`, `format` (`markdown`, `html`, `text` or `json`), `parent` (the document a chunk was cut from). In a ' +
      'review: the tables `tables` names, whose titles (captions) and text the instruction checks read.',
    'corpus "data/tables.jsonl" { id: table_id  body: table  format: markdown }',
  ),
  entry(
    'statement',
    'pool',
    study,
    'pool "run path" depth N',
    'Adds the top `N` documents per query of a TREC run to the pool of pairs to label. Repeat it for every run; ' +
      'pairs found by several runs are labelled once.',
    'pool "runs/bm25.trec" depth 20',
  ),
  entry(
    'statement',
    'scale',
    study,
    'scale ordinal|nominal|binary { VALUE "label" key "k" ["description"] [gain G] … }',
    'The labels annotators choose from: an integer value (negative allowed: `-2` junk), a label, the one-key ' +
      'shortcut in the labelling view, an optional description and an optional `gain` in nDCG. `j k u n ?` are ' +
      'the view’s navigation keys.',
    'scale ordinal {\n    0 "Off-topic" key "0"\n    1 "On topic" key "1"\n  }',
  ),
  entry(
    'statement',
    'aspect',
    study,
    'aspect NAME "question" [levels N N …]',
    'A question asked for every pair, next to the label: yes/no, or graded with `levels` (its own small ' +
      'scale). `derive` can turn aspects into the label: a yes/no aspect counts 1 or 0, a graded one its level.',
    'aspect topical "Is the table on the query\'s topic?"',
  ),
  entry(
    'statement',
    'conditions',
    study,
    'conditions from FIELD',
    'Per-condition checkboxes: the conditions of each query are read from a query field (a list, or a role ' +
      'name such as `instruction`). In `derive`, `all(conditions)`, `any(conditions)` and `count(conditions)` ' +
      'test or count them, and `conditions[2]` is the second one.',
    'conditions from instruction',
  ),
  entry(
    'statement',
    'derive',
    study,
    'derive label = EXPRESSION',
    'Computes the label from the aspects and conditions instead of asking for it. The expression uses ' +
      '`a ? b : c`, `all(…)`, `any(…)`, `count(…)`, `conditions[i]`, `+`, `-`, `*`, `!`, `&&`, `||`, comparisons, ' +
      'integers and declared names only; every value it can produce must be a scale value.',
    'derive label = topical ? 1 : 0',
  ),
  entry(
    'statement',
    'measures',
    study,
    'measures NAME …',
    'The measures the Evaluate view shows for this study, in this order: trec_eval measures as `eval -m` names ' +
      'them (`map`, `recip_rank`, `"ndcg_cut.10"`, `"P.5,10"`) and the measures of gdeval and rbp_eval by name ' +
      '(`"err@20"`, `"ndcg_gd@20"`, `"rbp@0.8"`, which also shows its residual). A name with `.` or `@` is quoted. ' +
      'Without it the view shows map, ndcg_cut.10, P.10, recall.100 and recip_rank.',
    'measures map "ndcg_cut.10" "err@20" "rbp@0.8"',
  ),
  entry(
    'statement',
    'annotators',
    both,
    'annotators NAME …',
    'The people who label. Names are ids; quote a name that is also a keyword (`"blind"`).',
    'annotators alice bob carol',
  ),
  entry(
    'statement',
    'adjudicator',
    both,
    'adjudicator NAME',
    'Who resolves disagreements (`export … from adjudicated` uses their decisions).',
    'adjudicator dana',
  ),
  entry(
    'statement',
    'overlap',
    both,
    'overlap N',
    'How many annotators label each item (at least 1, at most the number of annotators).',
    'overlap 2',
  ),
  entry(
    'statement',
    'blind',
    both,
    'blind',
    'Hide LLM suggestions and other annotators’ labels from annotators while they label.',
    'blind',
  ),
  entry(
    'statement',
    'judge',
    both,
    'judge "model" { endpoint "url" prompt "path" temperature T votes N max_tokens N seed N mode online|batch ' +
      'budget AMOUNT USD accept when METRIC OP VALUE [and …] }',
    'An LLM judge on an OpenAI-compatible endpoint that pre-labels items. The API key never comes from the ' +
      'workspace (SecretStorage or `OPENAI_API_KEY`).',
    'judge "gpt-4.1-mini" { votes 3 }',
  ),
  entry(
    'statement',
    'agreement',
    both,
    'agreement krippendorff|cohen|fleiss|percent [LEVEL] [target T]',
    'The agreement statistic reported for this study, its level of measurement or weighting, and the value ' +
      'the team aims for (in (0, 1]).',
    'agreement krippendorff ordinal target 0.67',
  ),
  entry(
    'statement',
    'export',
    both,
    'export qrels|labels|verdicts "path" [from adjudicated|majority|all|judge|mean > T|human-else-llm] ' +
      '[per document [by max|any] | per chunk]',
    'Writes results to a file: `qrels` (TREC qrels), `labels` (every judgment with its provenance) or ' +
      '`verdicts` (review decisions).',
    'export qrels "qrels/dev.qrels" from adjudicated',
  ),
  entry(
    'statement',
    'import',
    study,
    'import qrels "path" [as NAME] [kind person|crowd|gold|llm]',
    'Loads existing judgments (a TREC qrels file) into the study, recorded under the annotator id after `as` ' +
      '(default `imported`): crowd labels, an earlier round, another team’s qrels. `kind` says who made them.',
    'import qrels "qrels/crowd.qrels" as crowd',
  ),
  entry(
    'statement',
    'items',
    review,
    'items "path" { role: field … }',
    'The items to review (JSONL, CSV or TSV). Roles: `id` and `text` (required), `parent` (the query the item ' +
      'was generated for), `type` (its taxonomy code), `model` (the generator), `source` (the text it rewrites, ' +
      'for the word diff).',
    'items "gen/instructions.jsonl" { id: iid  text: instruction }',
  ),
  entry(
    'statement',
    'tables',
    review,
    'tables "path"',
    "Each item's table set: a TREC qrels file keyed by item id — 2 compliant, 1 violating, 0 off-topic — as " +
      'FollowTable labels its instructions. The Review view checks each instruction against it: label words in a ' +
      "table's title or caption, a compliant table naming an entity the instruction excludes, fewer than 3 " +
      'compliant or 3 violating tables. Titles and text come from `corpus`.',
    'tables "qrels/instructions.qrels"',
  ),
  entry(
    'statement',
    'taxonomy',
    review,
    'taxonomy { CODE "label" … }',
    'The types an item can have, as short codes with labels.',
    'taxonomy { C1 "Semantic boundary"  C2 "Exclusive topic" }',
  ),
  entry(
    'statement',
    'rubric',
    review,
    'rubric levels LEVEL … { DIMENSION ["description"] … }',
    'Rating dimensions, each rated on the levels listed after `levels` (best first).',
    'rubric levels excellent acceptable poor { clarity  faithfulness }',
  ),
  entry(
    'statement',
    'verdicts',
    review,
    'verdicts NAME …',
    'The decisions a reviewer can take on an item.',
    'verdicts accept edit reject',
  ),

  entry(
    'judge-option',
    'endpoint',
    both,
    'endpoint "url"',
    'Base URL of the OpenAI-compatible API (OpenAI, Azure, vLLM, Ollama). Defaults to the settings.',
    judgeExample('endpoint "https://api.openai.com/v1"'),
  ),
  entry(
    'judge-option',
    'prompt',
    both,
    'prompt "path"',
    'The prompt template. `{{name}}` inserts a mapped role (`{{text}}`, `{{body}}`, …) or `{{scale}}`, ' +
      '`{{aspects}}`, `{{conditions}}`. Without it the built-in prompt for the study kind is used.',
    judgeExample('prompt "prompts/judge.md"'),
  ),
  entry(
    'judge-option',
    'temperature',
    both,
    'temperature T',
    'Sampling temperature, 0 to 2.',
    judgeExample('temperature 0'),
  ),
  entry(
    'judge-option',
    'votes',
    both,
    'votes N',
    'Samples per item (at least 1): the label is the majority, the spread is kept.',
    judgeExample('votes 3'),
  ),
  entry(
    'judge-option',
    'max_tokens',
    both,
    'max_tokens N',
    'Upper bound on the tokens of each answer.',
    judgeExample('max_tokens 512'),
  ),
  entry(
    'judge-option',
    'seed',
    both,
    'seed N',
    'Sampling seed sent to endpoints that honour it.',
    judgeExample('seed 42'),
  ),
  entry(
    'judge-option',
    'mode',
    both,
    'mode online|batch',
    'How the judge’s calls are sent: `online` (the default) sends one chat request per item and vote; `batch` ' +
      'sends them through the Batch API (half the price, results within 24 hours) and records the batch ids in ' +
      'the study, so another run or machine can pick them up.',
    judgeExample('mode batch'),
  ),
  entry(
    'judge-option',
    'budget',
    both,
    'budget AMOUNT USD',
    'The most a judge run may cost (a positive amount; only `USD` is known). Before any call or batch the run ' +
      'estimates its cost from the rendered prompts’ token counts and the price table, prints the estimate, and ' +
      'refuses to start beyond the budget; an online run stops before spent plus in-flight cost would pass it. ' +
      'The estimate is an estimate: the answers’ lengths are bounded by `max_tokens`, not known in advance.',
    judgeExample('budget 25 USD'),
  ),
  entry(
    'judge-option',
    'accept',
    both,
    'accept when METRIC >=|>|<=|< VALUE [and …]',
    'The quality gate the judge must pass against the people’s labels (adjudicated, else majority) before it may ' +
      'fill unjudged pairs in an export (`from human-else-llm`). Every condition must hold. Metrics: `tau` and ' +
      '`tau_ap` (system rankings, -1 to 1), `kappa`, `accuracy` and `ece` (0 to 1).',
    judgeExample('accept when tau >= 0.9 and kappa >= 0.6'),
  ),

  entry(
    'judge-mode',
    'online',
    both,
    'mode online',
    'One chat request per item and vote, as the run goes (the default).',
    judgeExample('mode online'),
  ),
  entry(
    'judge-mode',
    'batch',
    both,
    'mode batch',
    'Requests go through the Batch API: written as JSONL, uploaded, run within 24 hours at half the price; the ' +
      'batch and file ids are recorded in the study at once, so a closed terminal loses nothing.',
    judgeExample('mode batch'),
  ),
  entry(
    'currency',
    'USD',
    both,
    'budget AMOUNT USD',
    'US dollars, the currency of the price table (the only one known).',
    judgeExample('budget 25 USD'),
  ),
  entry(
    'clause',
    'when',
    both,
    'accept when CONDITION [and CONDITION …]',
    'Starts the judge’s quality gate: the conditions that follow must all hold.',
    judgeExample('accept when kappa >= 0.6'),
    'clause:accept-when',
  ),
  entry(
    'clause',
    'and',
    both,
    'accept when CONDITION and CONDITION',
    'Joins two conditions of the gate: both must hold.',
    judgeExample('accept when tau >= 0.9 and kappa >= 0.6'),
    'clause:gate-and',
  ),
  entry(
    'gate-metric',
    'tau',
    both,
    'accept when tau >= V',
    'Kendall’s τ between the system rankings evaluated with the judge’s qrels and with the people’s (-1 to 1).',
    judgeExample('accept when tau >= 0.9'),
  ),
  entry(
    'gate-metric',
    'tau_ap',
    both,
    'accept when tau_ap >= V',
    'AP-correlation τ_ap between the two system rankings: like τ, but swaps near the top count more (-1 to 1).',
    judgeExample('accept when tau_ap >= 0.85'),
  ),
  entry(
    'gate-metric',
    'kappa',
    both,
    'accept when kappa >= V',
    'Cohen’s κ between the judge’s labels and the people’s (0 to 1 in a gate).',
    judgeExample('accept when kappa >= 0.6'),
  ),
  entry(
    'gate-metric',
    'accuracy',
    both,
    'accept when accuracy >= V',
    'The share of pairs where the judge’s label equals the people’s (0 to 1).',
    judgeExample('accept when accuracy >= 0.8'),
  ),
  entry(
    'gate-metric',
    'ece',
    both,
    'accept when ece <= V',
    'Expected calibration error of the judge’s vote confidence (0 to 1; lower is better).',
    judgeExample('accept when ece <= 0.1'),
  ),
  ...(['>=', '>', '<=', '<'] as const).map((operator) =>
    entry(
      'gate-operator',
      operator,
      both,
      `accept when METRIC ${operator} VALUE`,
      `The metric must be ${{ '>=': 'at least', '>': 'more than', '<=': 'at most', '<': 'less than' }[operator]} the value.`,
      judgeExample(`accept when kappa ${operator} 0.6`),
    ),
  ),

  entry(
    'clause',
    'depth',
    study,
    'pool "run" depth N',
    'How many documents per query the run adds to the pool (at least 1).',
    'pool "runs/bm25.trec" depth 20',
  ),
  entry(
    'clause',
    'key',
    study,
    'VALUE "label" key "k"',
    'The one-character key that picks this value in the labelling view.',
    'scale binary {\n    0 "No" key "0"\n    1 "Yes" key "1"\n  }',
  ),
  entry(
    'clause',
    'gain',
    study,
    'VALUE "label" key "k" ["description"] gain G',
    "The value's gain in nDCG (a number ≥ 0), when its order is not its worth: a table that violates the " +
      'instruction gains 0, not 1. `eval --study` and the Evaluate view use these gains; a value without one gains ' +
      'itself, as in trec_eval.',
    'scale ordinal {\n    0 "Off-topic" key "0"\n    1 "Violates" key "1" gain 0\n    2 "Follows" key "2" gain 1\n  }',
  ),
  entry(
    'clause',
    'from',
    study,
    'conditions from FIELD',
    'The query field (or mapped role) the conditions are read from.',
    'conditions from instruction',
    'clause:conditions-from',
  ),
  entry(
    'clause',
    'from',
    both,
    'queries|corpus|items "path" from FORMAT',
    'The file format, when the content does not tell it: `hf-viewer`, `parquet`, `jsonl`, `csv`, `tsv`, `beir`, ' +
      '`trec-topics`. Without it the format is told from the file (a viewer copy by its name/type lines).',
    'corpus "chunks.txt" from hf-viewer { body: text }',
    'clause:source-from',
  ),
  entry(
    'clause',
    'from',
    both,
    'export … from SOURCE',
    'Which labels to export: `adjudicated`, `majority`, `all` or `judge`.',
    'export qrels "out.qrels" from majority',
    'clause:export-from',
  ),
  entry(
    'clause',
    'target',
    both,
    'agreement … target T',
    'The agreement the team aims for, in (0, 1]; the agreement view marks values below it.',
    'agreement cohen target 0.7',
  ),
  entry(
    'clause',
    'levels',
    review,
    'rubric levels LEVEL … { … }',
    'The rating levels of the rubric, best first.',
    'rubric levels good bad { clarity }',
  ),
  entry(
    'clause',
    'per',
    study,
    'export qrels "path" … per document [by max|any] | per chunk',
    'Labels passages but exports documents: each document gets the best label of its chunks (MaxP; `by any`: 1 ' +
      'when any chunk is relevant), through the corpus `parent` role. `per chunk` gives document labels to chunks.',
    'export qrels "doc.qrels" from adjudicated per document',
  ),
  entry(
    'clause',
    'document',
    study,
    'per document',
    'See `per`: aggregate chunk labels to their parent document, by their maximum unless `by any` says otherwise.',
    'export qrels "doc.qrels" per document',
  ),
  entry(
    'clause',
    'chunk',
    study,
    'per chunk',
    'See `per`: give each document’s label to every chunk of it (a chunk with a label of its own keeps it), ' +
      'through the corpus `parent` role.',
    'export qrels "chunks.qrels" from adjudicated per chunk',
  ),
  entry(
    'clause',
    'by',
    study,
    'per document by max|any',
    'How chunk labels make a document label: `max` (the default) or `any`. Only after `per document`.',
    'export qrels "doc.qrels" per document by any',
  ),
  entry(
    'chunk-rollup',
    'max',
    study,
    'per document by max',
    'A document gets the best label of its chunks (MaxP), the default.',
    'export qrels "doc.qrels" per document by max',
  ),
  entry(
    'chunk-rollup',
    'any',
    study,
    'per document by any',
    'A document is relevant (1) when any of its chunks is labelled at least 1, else 0.',
    'export qrels "doc.qrels" per document by any',
  ),
  entry(
    'clause',
    'as',
    study,
    'import qrels "path" as NAME',
    'The annotator id the imported judgments are recorded under.',
    'import qrels "old.qrels" as crowd',
  ),
  entry(
    'clause',
    'kind',
    study,
    'import qrels "path" as NAME kind person|crowd|gold|llm',
    'Who made the imported labels. Agreement counts people (`person`, `crowd`); `llm` labels join it only with ' +
      '`agree --include-llm`; `gold` labels never do, nor do they vote in `majority`. Default: `person`.',
    'import qrels "gpt52.qrels" as gpt52 kind llm',
  ),
  entry(
    'clause',
    'levels',
    study,
    'aspect NAME "question" levels N N …',
    'Makes the aspect graded: it is answered with one of these integers (ascending, at least two) instead of ' +
      'yes/no, and counts its level in `derive`. In the Label view its Shift+digit cycles through the levels.',
    'aspect coverage "How much of the aspect does the abstract meet?" levels 0 1 2',
    'clause:aspect-levels',
  ),
  entry(
    'clause',
    'label',
    study,
    'derive label = …',
    'The study label, the one thing `derive` computes.',
    'derive label = topical ? 1 : 0',
    'clause:derive-label',
  ),

  entry(
    'scale-kind',
    'ordinal',
    study,
    'scale ordinal { … }',
    'Values are ordered (graded relevance).',
    'scale ordinal { 0 "No" key "0" }',
  ),
  entry(
    'scale-kind',
    'nominal',
    study,
    'scale nominal { … }',
    'Values are unordered categories.',
    'scale nominal { 0 "A" key "a" }',
  ),
  entry(
    'scale-kind',
    'binary',
    study,
    'scale binary { … }',
    'Exactly two values (relevant or not).',
    'scale binary { 0 "No" key "0"  1 "Yes" key "1" }',
  ),

  entry(
    'agreement-metric',
    'krippendorff',
    both,
    'agreement krippendorff [nominal|ordinal|interval|ratio]',
    "Krippendorff's α: any number of annotators, missing labels allowed.",
    'agreement krippendorff ordinal',
  ),
  entry(
    'agreement-metric',
    'cohen',
    both,
    'agreement cohen [nominal|linear|quadratic]',
    "Cohen's κ between each pair of annotators, unweighted (`nominal`) or weighted.",
    'agreement cohen quadratic',
  ),
  entry(
    'agreement-metric',
    'fleiss',
    both,
    'agreement fleiss',
    "Fleiss' κ: a fixed number of raters per item.",
    'agreement fleiss',
  ),
  entry(
    'agreement-metric',
    'percent',
    both,
    'agreement percent',
    'Share of items on which annotators agree.',
    'agreement percent',
  ),

  entry(
    'agreement-level',
    'nominal',
    both,
    'agreement krippendorff nominal',
    'Labels compared as categories (any difference is a full disagreement).',
    'agreement krippendorff nominal',
  ),
  entry(
    'agreement-level',
    'ordinal',
    both,
    'agreement krippendorff ordinal',
    'Labels compared by rank (Krippendorff only).',
    'agreement krippendorff ordinal',
  ),
  entry(
    'agreement-level',
    'interval',
    both,
    'agreement krippendorff interval',
    'Labels compared by squared difference (Krippendorff only).',
    'agreement krippendorff interval',
  ),
  entry(
    'agreement-level',
    'ratio',
    both,
    'agreement krippendorff ratio',
    'Labels compared as ratios (Krippendorff only).',
    'agreement krippendorff ratio',
  ),
  entry(
    'agreement-level',
    'linear',
    both,
    'agreement cohen linear',
    "Linearly weighted Cohen's κ.",
    'agreement cohen linear',
  ),
  entry(
    'agreement-level',
    'quadratic',
    both,
    'agreement cohen quadratic',
    "Quadratically weighted Cohen's κ.",
    'agreement cohen quadratic',
  ),

  entry(
    'export-kind',
    'qrels',
    study,
    'export qrels "path"',
    'TREC qrels: `qid 0 docid label`.',
    'export qrels "out.qrels"',
  ),
  entry(
    'export-kind',
    'labels',
    study,
    'export labels "path"',
    'Every judgment in long format with its provenance (annotator, time, source), for merging team files.',
    'export labels "labels/alice.tsv" from all',
  ),
  entry(
    'export-kind',
    'verdicts',
    review,
    'export verdicts "path"',
    'The accepted items (the accepted text, every version, the verdict history with rubric ratings and reasons), ' +
      'one JSON object per line, written by `qrels-studio export REVIEW.assess` (as `--review PATH` does).',
    'export verdicts "review/verdicts.jsonl"',
  ),
  entry(
    'label-kind',
    'person',
    study,
    'kind person',
    'A person annotator (the default): counts in agreement and votes in `majority`.',
    'import qrels "alice.qrels" as alice kind person',
    'label-kind:person',
  ),
  entry(
    'label-kind',
    'crowd',
    study,
    'kind crowd',
    'Crowd workers: people, so they count in agreement and vote in `majority` as persons do.',
    'import qrels "mturk.qrels" as crowd kind crowd',
    'label-kind:crowd',
  ),
  entry(
    'label-kind',
    'gold',
    study,
    'kind gold',
    'Expert or gold labels: the reference, never in agreement statistics and no vote in `majority` ' +
      '(export them with `--from annotator:NAME`).',
    'import qrels "gold.qrels" as gold kind gold',
    'label-kind:gold',
  ),
  entry(
    'label-kind',
    'llm',
    study,
    'kind llm',
    "An LLM's labels imported from a file: in agreement only with `agree --include-llm`, no vote in `majority`.",
    'import qrels "gpt52.qrels" as gpt52 kind llm',
    'label-kind:llm',
  ),
  entry(
    'import-kind',
    'qrels',
    study,
    'import qrels "path"',
    'A TREC qrels file.',
    'import qrels "old.qrels"',
    'import-kind:qrels',
  ),

  entry(
    'label-source',
    'adjudicated',
    both,
    'from adjudicated',
    'The adjudicator’s decision where annotators disagree, the agreed label elsewhere.',
    'export qrels "out.qrels" from adjudicated',
  ),
  entry(
    'label-source',
    'majority',
    both,
    'from majority',
    'The most frequent human label (ties: the lower value).',
    'export qrels "out.qrels" from majority',
  ),
  entry('label-source', 'all', both, 'from all', 'Every judgment, one line each.', 'export labels "all.tsv" from all'),
  entry(
    'label-source',
    'judge',
    both,
    'from judge',
    'The LLM judge’s labels (majority of its votes).',
    'export qrels "llm.qrels" from judge',
  ),
  entry(
    'label-source',
    'mean',
    both,
    'from mean > T',
    "Binary qrels (QUEST's rule): 1 where the mean of the people's labels is above T, else 0. People only (not " +
      'LLM or gold labels); a pair no person labelled is left out.',
    'export qrels "out.qrels" from mean > 1.5',
  ),
  entry(
    'label-source',
    'human-else-llm',
    both,
    'from human-else-llm',
    "The people's label (adjudicated, else majority) where a person labelled the pair, else the LLM's — " +
      "FollowTable's final qrels. The study must have one LLM label source (a judge or `kind llm` labels).",
    'export qrels "final.qrels" from human-else-llm',
  ),

  entry(
    'file-format',
    'hf-viewer',
    both,
    'from hf-viewer',
    'A Hugging Face dataset-viewer copy: `name`/`type` line pairs, then one line per column per record. Ids are ' +
      '`<source>#<n>` (the n-th record of that source), so `id:` may be left out.',
    'corpus "chunks.txt" from hf-viewer { body: text }',
  ),
  entry(
    'file-format',
    'parquet',
    both,
    'from parquet',
    'Apache Parquet: columns through the mapping.',
    'corpus "tables.parquet" from parquet { id: tid  body: table }',
  ),
  entry(
    'file-format',
    'jsonl',
    both,
    'from jsonl',
    'One JSON object per line.',
    'queries "q.txt" from jsonl { id: qid  text: q }',
  ),
  entry(
    'file-format',
    'csv',
    both,
    'from csv',
    'Comma-separated, with a header.',
    'queries "q.txt" from csv { id: qid  text: q }',
  ),
  entry(
    'file-format',
    'tsv',
    both,
    'from tsv',
    'Tab-separated, with a header.',
    'queries "q.txt" from tsv { id: qid  text: q }',
  ),
  entry(
    'file-format',
    'beir',
    study,
    'from beir',
    'BEIR `corpus.jsonl` / `queries.jsonl`.',
    'corpus "c.jsonl" from beir { id: _id  body: text }',
  ),
  entry(
    'file-format',
    'trec-topics',
    study,
    'from trec-topics',
    '`qid<TAB>text` lines, no header.',
    'queries "topics.txt" from trec-topics { id: qid  text: text }',
  ),
  entry(
    'format',
    'markdown',
    study,
    'format: markdown',
    'Document bodies are Markdown (tables rendered).',
    'corpus "c.jsonl" { id: id body: b format: markdown }',
  ),
  entry(
    'format',
    'html',
    study,
    'format: html',
    'Document bodies are HTML, sanitised so only table markup survives.',
    'corpus "c.jsonl" { id: id body: b format: html }',
  ),
  entry(
    'format',
    'text',
    study,
    'format: text',
    'Document bodies are plain text.',
    'corpus "c.jsonl" { id: id body: b format: text }',
  ),
  entry(
    'format',
    'json',
    study,
    'format: json',
    'Document bodies are JSON (nested arrays: first row header).',
    'corpus "c.jsonl" { id: id body: b format: json }',
  ),

  entry(
    'function',
    'all',
    study,
    'all(NAME, …)',
    'True when every argument holds; `all(conditions)`: every condition is satisfied.',
    'derive label = all(conditions) ? 1 : 0',
  ),
  entry(
    'function',
    'any',
    study,
    'any(NAME, …)',
    'True when at least one argument holds.',
    'derive label = any(conditions) ? 1 : 0',
  ),
  entry(
    'function',
    'count',
    study,
    'count(NAME, …)',
    'How many arguments hold; `count(conditions)`: how many conditions are satisfied (0 to the number of the ' +
      "query's conditions).",
    'derive label = count(conditions)',
  ),
  entry(
    'expression-name',
    'conditions',
    study,
    'all(conditions) | count(conditions) | conditions[N]',
    'The per-condition checkboxes of the pair (needs `conditions from FIELD`). `conditions[1]` is the first ' +
      'condition, numbered as the Label view numbers them; a query with fewer conditions counts it as no.',
    'derive label = all(conditions) ? 1 : 0',
  ),

  entry(
    'queries-role',
    'id',
    study,
    'id: FIELD',
    'The query id used in runs and qrels (required).',
    'queries "q.jsonl" { id: qid text: query }',
  ),
  entry(
    'queries-role',
    'text',
    study,
    'text: FIELD',
    'The query text shown to annotators (required).',
    'queries "q.jsonl" { id: qid text: query }',
  ),
  entry(
    'queries-role',
    'instruction',
    study,
    'instruction: FIELD',
    'The instruction or narrative that says what counts as relevant.',
    'queries "q.jsonl" { id: qid text: q instruction: ins }',
  ),
  entry(
    'queries-role',
    'parent',
    study,
    'parent: FIELD',
    'The id of the query this one rewrites or varies.',
    'queries "q.jsonl" { id: qid text: q parent: pid }',
  ),
  entry(
    'queries-role',
    'type',
    study,
    'type: FIELD',
    'A category for per-type breakdowns (instruction type, task).',
    'queries "q.jsonl" { id: qid text: q type: kind }',
  ),
  entry(
    'queries-role',
    'split',
    study,
    'split: FIELD',
    'The split the query belongs to (test, dev, validation), kept with the query.',
    'queries "q.jsonl" { id: qid text: q split: split }',
  ),
  entry(
    'queries-role',
    'gold',
    study,
    'gold: FIELD',
    "The ids of the query's relevant documents, listed in the queries file (TARGET's tables): imported as " +
      'judgments by `gold` at the highest scale value.',
    'queries "q.jsonl" { id: qid text: q gold: table_ids }',
  ),
  entry(
    'corpus-role',
    'id',
    study,
    'id: FIELD',
    'The document id used in runs and qrels (required).',
    'corpus "c.jsonl" { id: did body: text }',
  ),
  entry(
    'corpus-role',
    'body',
    study,
    'body: FIELD',
    'The document content shown to annotators (required).',
    'corpus "c.jsonl" { id: did body: text }',
  ),
  entry(
    'corpus-role',
    'title',
    study,
    'title: FIELD',
    'The document title or table caption.',
    'corpus "c.jsonl" { id: did body: text title: caption }',
  ),
  entry(
    'corpus-role',
    'format',
    study,
    'format: markdown|html|text|json|FIELD',
    'How bodies are rendered: one format for every body, or the field that holds each record’s own format ' +
      '(`plain|text`, `markdown|md`, `html`, `json|table-json`, `code`) for a corpus that mixes them.',
    'corpus "c.jsonl" { id: did body: text format: html }',
  ),
  entry(
    'corpus-role',
    'parent',
    study,
    'parent: FIELD',
    'For chunks: the id of the document the chunk was cut from (`per document` exports use it).',
    'corpus "c.jsonl" { id: did body: text parent: doc }',
  ),
  entry(
    'corpus-role',
    'database',
    study,
    'database: FIELD',
    "A table's database (TARGET's text-to-SQL corpora): shown to the judge before the table.",
    'corpus "c.jsonl" { id: tid body: table database: db_id format: json }',
  ),
  entry(
    'corpus-role',
    'keys',
    study,
    'keys: FIELD',
    "A table's keys or schema context (primary and foreign keys): shown to the judge before the table.",
    'corpus "c.jsonl" { id: tid body: table keys: context format: json }',
  ),
  entry('items-role', 'id', review, 'id: FIELD', 'The item id (required).', 'items "i.jsonl" { id: iid text: t }'),
  entry(
    'items-role',
    'text',
    review,
    'text: FIELD',
    'The generated text under review (required).',
    'items "i.jsonl" { id: iid text: t }',
  ),
  entry(
    'items-role',
    'parent',
    review,
    'parent: FIELD',
    'The query the item was generated for.',
    'items "i.jsonl" { id: iid text: t parent: qid }',
  ),
  entry(
    'items-role',
    'type',
    review,
    'type: FIELD',
    'The item’s taxonomy code.',
    'items "i.jsonl" { id: iid text: t type: kind }',
  ),
  entry(
    'items-role',
    'model',
    review,
    'model: FIELD',
    'The model that generated the item.',
    'items "i.jsonl" { id: iid text: t model: generator }',
  ),
  entry(
    'items-role',
    'source',
    review,
    'source: FIELD',
    'The text the item rewrites, for the word diff.',
    'items "i.jsonl" { id: iid text: t source: original }',
  ),
];

const byId = new Map(keywordDocs.map((d) => [d.id, d]));

export function keywordDoc(id: string): KeywordDoc | undefined {
  return byId.get(id);
}

function words(context: KeywordContext, block?: BlockKind): string[] {
  return keywordDocs
    .filter((d) => d.context === context && (block === undefined || d.blocks.includes(block)))
    .map((d) => d.word);
}

export const blockKeywords: readonly BlockKind[] = ['study', 'review'];
/** What may start a top-level entry of a study file: a block, or a file statement (`store`). */
export const topLevelWords: readonly string[] = [...blockKeywords, ...words('file-statement')];
export const storeKinds = words('store-kind');
export const statementKeywords: Readonly<Record<BlockKind, readonly string[]>> = {
  study: words('statement', 'study'),
  review: words('statement', 'review'),
};
export const judgeOptions = words('judge-option') as JudgeOptionName[];
export const judgeModes = words('judge-mode');
export const currencies = words('currency');
export const gateMetrics = words('gate-metric');
export const gateOperators = words('gate-operator');
/** The values a gate metric can take: correlations from -1, the rest from 0; all up to 1. */
export const gateMetricRanges: Readonly<Record<string, { min: number; max: number }>> = {
  tau: { min: -1, max: 1 },
  tau_ap: { min: -1, max: 1 },
  kappa: { min: 0, max: 1 },
  accuracy: { min: 0, max: 1 },
  ece: { min: 0, max: 1 },
};
export const scaleKinds = words('scale-kind');
export const agreementMetrics = words('agreement-metric');
export const agreementLevels = words('agreement-level');
export const exportKinds: Readonly<Record<BlockKind, readonly string[]>> = {
  study: words('export-kind', 'study'),
  review: words('export-kind', 'review'),
};
export const importKinds = words('import-kind');
export const labelKinds = words('label-kind');
export const labelSources = words('label-source');
export const chunkRollups = words('chunk-rollup');
export const documentFormats = words('format');
/** The file formats a source statement may name with `from` (importer ids, core/importers/registry.ts). */
export const fileFormats = words('file-format');
export const expressionFunctions = words('function');
export const sourceRoles: Readonly<Record<SourceKind, readonly string[]>> = {
  queries: words('queries-role'),
  corpus: words('corpus-role'),
  items: words('items-role'),
};
export const requiredRoles: Readonly<Record<SourceKind, readonly string[]>> = {
  queries: ['id', 'text'],
  corpus: ['id', 'body'],
  items: ['id', 'text'],
};
/** The levels each agreement metric accepts after its name. */
export const levelsOfMetric: Readonly<Record<string, readonly string[]>> = {
  krippendorff: ['nominal', 'ordinal', 'interval', 'ratio'],
  cohen: ['nominal', 'linear', 'quadratic'],
  fleiss: ['nominal'],
  percent: ['nominal'],
};
/** The labelling view's own keys: a scale key equal to one would never reach the scale. */
export const navigationKeys: readonly string[] = ['j', 'k', 'u', 'n', '?'];

/** Statements that may appear more than once in a block; every other one is single. */
export const repeatableStatements: ReadonlySet<string> = new Set([
  'pool',
  'aspect',
  'judge',
  'agreement',
  'export',
  'import',
]);
/** Statements a block must have. */
export const requiredStatements: Readonly<Record<BlockKind, readonly string[]>> = {
  study: ['queries', 'corpus', 'scale'],
  review: ['items'],
};

/** Hover text for a keyword entry. */
export function keywordMarkdown(doc: KeywordDoc): string {
  const where =
    doc.context === 'statement'
      ? `${doc.blocks.map((b) => `\`${b}\``).join(' and ')} statement`
      : describe(doc.context);
  return `**${doc.word}** — ${where}\n\n\`\`\`assess\n${doc.syntax}\n\`\`\`\n\n${doc.doc}`;
}

function describe(context: KeywordContext): string {
  switch (context) {
    case 'block':
      return 'block';
    case 'file-statement':
      return 'file statement (top level, for every block of the file)';
    case 'store-kind':
      return 'store kind';
    case 'statement':
      return 'statement';
    case 'judge-option':
      return '`judge` option';
    case 'judge-mode':
      return 'judge mode';
    case 'currency':
      return 'currency';
    case 'gate-metric':
      return 'judge gate metric';
    case 'gate-operator':
      return 'judge gate comparison';
    case 'clause':
      return 'clause';
    case 'scale-kind':
      return 'scale kind';
    case 'agreement-metric':
      return 'agreement statistic';
    case 'agreement-level':
      return 'agreement level';
    case 'export-kind':
      return 'export kind';
    case 'import-kind':
      return 'import kind';
    case 'label-kind':
      return 'label source kind';
    case 'label-source':
      return 'label source';
    case 'chunk-rollup':
      return 'chunk rollup rule';
    case 'format':
      return 'document format';
    case 'file-format':
      return 'file format';
    case 'function':
      return '`derive` function';
    case 'expression-name':
      return '`derive` name';
    case 'queries-role':
      return '`queries` role';
    case 'corpus-role':
      return '`corpus` role';
    case 'items-role':
      return '`items` role';
  }
}
