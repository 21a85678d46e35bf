// Every schema migration, in order: the one list that every backend follows (migration.ts says how an adapter
// supplies its statements for each version). Adding one: an entry here, and its SQL in each adapter's map; a test
// opens a database at every older version and migrates it.
import type { Migration } from './migration.ts';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initialSchema',
    description: 'studies, scales, queries, documents, runs, pairs and their pool origin, annotators, judgments',
  },
  {
    version: 2,
    name: 'labellingDetail',
    description: 'aspect and condition answers, assignments, LLM suggestions and call cache, review items and verdicts',
  },
  {
    version: 3,
    name: 'labellingSession',
    description: 'judgment retraction (undo), label cursors, suggestion confidence, labelling indexes',
  },
  {
    version: 4,
    name: 'judgeCalls',
    description: 'LLM judge calls: every call recorded with its request, answer or failure and cost; judge votes',
  },
  {
    version: 5,
    name: 'reviewLineage',
    description: 'review versions: the version an edit was based on; verdicts indexed by version; item table sets',
  },
  {
    version: 6,
    name: 'gradedAspects',
    description: 'aspect answers: a graded aspect stores its level (no longer only 0 or 1)',
  },
  {
    version: 7,
    name: 'labelKind',
    description: 'annotator: label_kind, who made the labels when declared (person, crowd, gold, llm)',
  },
  {
    version: 8,
    name: 'labelCommitIds',
    description: 'judgment: client_id, the id a label commit is sent with, so that a retried commit is stored once',
  },
  {
    version: 9,
    name: 'annotatorRoles',
    description: 'annotator_role: which database role acts for which annotator (store grant: row-level security)',
  },
  {
    version: 10,
    name: 'judgeBatches',
    description: 'judge_batch, judge_batch_request: Batch API judge runs, recorded before upload, each line once',
  },
  {
    version: 11,
    name: 'chunkParentIndex',
    description: 'document_by_parent: only documents with a parent (chunks), not an entry per corpus document',
  },
];
