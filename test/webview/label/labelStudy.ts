// A real study for the Label view's Chromium tests: a study file, its queries, corpus and run written to a scratch
// folder, imported into its store (SQLite) by the same code the extension runs (importDeclaredSources), and a
// LabelSession over it — the host end the tests connect to the built view. `db` is a second connection to the file,
// for tests that look at the rows themselves.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { StudyModel } from '../../../core/dsl/model.ts';
import { LabelSession } from '../../../core/labelling/labelSession.ts';
import { importDeclaredSources } from '../../../core/store/declaredImport.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase, type SqliteDatabase } from '../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { nativeDir, scratchDir } from '../../helpers.ts';

export interface StudyDocument {
  docid: string;
  title?: string;
  text: string;
  parent?: string;
}

export interface StudyQuery {
  qid: string;
  text: string;
  instruction?: string;
  /** The instruction's checkable parts (`conditions from constraints`). */
  constraints?: string[];
  /** The instruction type (FollowTable's C1 … S3). */
  type?: string;
}

export interface LabelStudyOptions {
  queries: StudyQuery[];
  documents: StudyDocument[];
  /** qid → docids in rank order (a run file pooled at depth = the longest list). */
  ranking: Record<string, string[]>;
  format?: 'markdown' | 'html' | 'text' | 'json';
  /** Extra statements inside the study block (annotators, blind, aspects, …). */
  extra?: string;
  guidelines?: string;
  /** More files written into the study's folder before it is imported (another run to pool, say). */
  files?: Record<string, string>;
  /** The levels of the ordinal scale, one statement a line (default: 0 Not relevant, 1 Relevant, 2 Highly relevant). */
  scaleLevels?: string[];
}

const defaultScaleLevels = [
  '0 "Not relevant"     key "0"',
  '1 "Relevant"         key "1"  "On topic, answers part of the query"',
  '2 "Highly relevant"  key "2"  "Answers the query fully"',
];

export interface LabelStudy {
  folder: string;
  studyFile: string;
  study: StudyModel;
  store: SqliteStudyStore;
  /** A second connection to the study's database file: what tests read (and plant) as rows. */
  db: SqliteDatabase;
  studyId: number;
  session(annotator: string): Promise<LabelSession>;
  close(): Promise<void>;
}

const jsonl = (records: object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');

export async function createLabelStudy(options: LabelStudyOptions): Promise<LabelStudy> {
  const folder = scratchDir('qrels-studio-label-');
  const depth = Math.max(1, ...Object.values(options.ranking).map((docs) => docs.length));
  writeFileSync(join(folder, 'queries.jsonl'), jsonl(options.queries));
  // A parent field only when the corpus is chunked (then every document names its parent).
  writeFileSync(
    join(folder, 'corpus.jsonl'),
    jsonl(
      options.documents.map((d) => ({
        docid: d.docid,
        title: d.title ?? '',
        text: d.text,
        ...(d.parent !== undefined && { parent: d.parent }),
      })),
    ),
  );
  let run = '';
  for (const [qid, docs] of Object.entries(options.ranking)) {
    docs.forEach((docid, i) => {
      run += `${qid} Q0 ${docid} ${i + 1} ${(100 - i).toFixed(1)} bm25\n`;
    });
  }
  writeFileSync(join(folder, 'bm25.run'), run);
  if (options.guidelines !== undefined) writeFileSync(join(folder, 'guidelines.md'), options.guidelines);
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(folder, name), text);
  const hasParents = options.documents.some((d) => d.parent);
  const text = `study "dev" {
  title "Dev relevance study"
${options.guidelines !== undefined ? '  guidelines "guidelines.md"\n' : ''}  queries "queries.jsonl" { id: qid  text: text${options.queries.some((q) => q.instruction) ? '  instruction: instruction' : ''}${options.queries.some((q) => q.type) ? '  type: type' : ''} }
  corpus  "corpus.jsonl"  { id: docid  body: text  title: title${hasParents ? '  parent: parent' : ''}  format: ${options.format ?? 'markdown'} }
  pool    "bm25.run" depth ${depth}
  scale ordinal {
${(options.scaleLevels ?? defaultScaleLevels).map((level) => `    ${level}\n`).join('')}  }
${options.extra ?? ''}
}
`;
  const studyFile = join(folder, 'dev.assess');
  writeFileSync(studyFile, text);
  const model = resolveStudies(parseStudyFile(text), studyFile);
  const study = model.studies[0]!;
  const nativeBinding = locateNativeBinding(nativeDir);
  const store = await SqliteStudyStore.open(studyDatabasePath(studyFile), { nativeBinding });
  await store.studies.sync(model);
  await importDeclaredSources(store, study, folder, {});
  const db = openDatabase(studyDatabasePath(studyFile), { nativeBinding });
  return {
    folder,
    studyFile,
    study,
    store,
    db,
    studyId: await store.studies.studyId(study.name),
    session: (annotator) => LabelSession.open(store, { studyFile, study, annotator }),
    close: async () => {
      db.close();
      await store.close();
    },
  };
}

/** `count` plain queries with `perQuery` documents each, ranked in docid order. */
export function simpleStudy(
  count: number,
  perQuery: number,
): Pick<LabelStudyOptions, 'queries' | 'documents' | 'ranking'> {
  const queries: StudyQuery[] = [];
  const documents: StudyDocument[] = [];
  const ranking: Record<string, string[]> = {};
  for (let q = 1; q <= count; q++) {
    const qid = `q${q}`;
    queries.push({ qid, text: `solar panel efficiency ${q}` });
    ranking[qid] = [];
    for (let d = 1; d <= perQuery; d++) {
      const docid = `d${q}-${d}`;
      documents.push({
        docid,
        title: `Document ${docid}`,
        text: `Solar panels convert sunlight. Efficiency of panel ${d} for query ${q} is measured in **percent**.`,
      });
      ranking[qid].push(docid);
    }
  }
  return { queries, documents, ranking };
}
