// The importers, one module each (the trec_eval pattern: adding a format is one file and one line here), and how
// a file finds its importer: `--format` (options.format) names it, else the first importer, in this order, that
// reads the target and recognises the file by its name (without `.gz`) and first lines. The order puts the
// specific shapes before the generic ones: a BEIR corpus is also JSONL, MIRACL's tab-separated qrels are also TSV.
import { beirImporter } from './beir.ts';
import { csvImporter } from './csv.ts';
import { shown } from './describe.ts';
import { hfViewerImporter } from './hfViewer.ts';
import { jsonlImporter } from './jsonl.ts';
import { labelsImporter } from './labels.ts';
import { readHead } from './lineSource.ts';
import { parquetImporter } from './parquet.ts';
import { trecQrelsImporter } from './trecQrels.ts';
import { trecTopicsImporter } from './trecTopics.ts';
import { tsvImporter } from './tsv.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions, type ImportTarget } from './types.ts';

export const importers: readonly Importer[] = [
  parquetImporter,
  hfViewerImporter,
  beirImporter,
  trecQrelsImporter,
  trecTopicsImporter,
  labelsImporter,
  jsonlImporter,
  csvImporter,
  tsvImporter,
];

export function findImporter(id: string): Importer | undefined {
  return importers.find((importer) => importer.id === id);
}

function readersOf(target: ImportTarget): Importer[] {
  return importers.filter((importer) => importer.targets.includes(target));
}

/** The importer for a file: options.format, else detection (gz-aware), else an ImportError saying which formats exist. */
export async function importerFor(path: string, options: ImportOptions): Promise<Importer> {
  const file = options.name ?? path;
  const { target } = options;
  if (options.format !== undefined) {
    const importer = findImporter(options.format);
    if (importer === undefined) {
      throw new ImportError(
        { file, line: 1 },
        `a format among ${importers.map((i) => i.id).join(', ')}`,
        `--format ${shown(options.format)}`,
      );
    }
    if (!importer.targets.includes(target)) {
      throw new ImportError(
        { file, line: 1 },
        `a format that reads ${target}: ${readersOf(target)
          .map((i) => i.id)
          .join(', ')}`,
        `--format ${importer.id}, which reads ${importer.targets.join(', ')}`,
      );
    }
    return importer;
  }
  const head = await readHead(path);
  const name = path.replace(/\.gz$/i, '');
  const importer = readersOf(target).find((candidate) => candidate.detects(name, head.lines));
  if (importer !== undefined) return importer;
  const first = head.lines.find((line) => line.trim() !== '');
  throw new ImportError(
    { file, line: 1 },
    `${target} in a format this version reads (${readersOf(target)
      .map((i) => `${i.id}: ${i.description}`)
      .join('; ')}), or --format ID`,
    first === undefined ? 'an empty file' : `a file starting ${shown(first)}`,
  );
}

/** Convenience: importerFor + read. */
export async function* readImport(path: string, options: ImportOptions): AsyncGenerator<ImportedRecord> {
  const importer = await importerFor(path, options);
  yield* importer.read(path, options);
}
