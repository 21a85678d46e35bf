// One document of the Label view: title, metadata, then the body rendered by its format, with the query's terms
// and the instruction's excluded entities highlighted. Document content is untrusted (see README.md here).
//
// React and highlightDom never share nodes: the body lives in a `doc-content` element keyed by everything the
// highlight depends on, so each change mounts fresh nodes that highlightDom then marks in a layout effect (before
// paint), and React never diffs into text nodes highlightDom has split. Sanitised markup (Markdown, HTML) is not
// React's at all: it is parsed in an inert document, cut to its preview rows, and moved in by the layout effect.
import { type ReactNode, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { DocumentView } from '../../../core/labelling/types.ts';
import { highlightDom } from './highlightDom.ts';
import { parseJsonTable } from './jsonTable.ts';
import { markdownToSafeHtml, sanitizeTableHtml } from './safeHtml.ts';
import './document.css';

export interface DocumentBodyProps {
  document: DocumentView;
  terms: string[];
  excluded: string[];
  /** Rows a long table shows before "Show all N rows" (default 20). */
  previewRows?: number;
}

const defaultPreviewRows = 20;
/** Metadata values longer than this are cut (the full value is in the title attribute, itself capped). */
const metadataValueLength = 160;
const metadataTitleLength = 4000;

let renders = 0;

export function DocumentBody({ document: doc, terms, excluded, previewRows = defaultPreviewRows }: DocumentBodyProps) {
  // "Show all" belongs to one document (by id: the host may send the same document again as a new object); the
  // next one starts as a preview again.
  const [shownInFull, setShownInFull] = useState<string | null>(null);
  const showAll = shownInFull === doc.docid;
  const contentRef = useRef<HTMLDivElement>(null);

  const sanitized = useMemo(
    () =>
      doc.format === 'html'
        ? sanitizeTableHtml(doc.body)
        : doc.format === 'markdown'
          ? markdownToSafeHtml(doc.body)
          : undefined,
    [doc.format, doc.body],
  );
  const markup = useMemo(
    () => (sanitized === undefined ? undefined : previewMarkup(sanitized, previewRows, showAll)),
    [sanitized, previewRows, showAll],
  );
  const jsonTable = useMemo(
    () => (doc.format === 'table-json' ? parseJsonTable(doc.body) : undefined),
    [doc.format, doc.body],
  );
  // A new key whenever the highlighted content must be rebuilt (see the header). Terms by value: a parent that
  // passes equal arrays anew on each render must not remount a 500 KB body every time.
  const termsKey = terms.join('\u0000');
  const excludedKey = excluded.join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: each input is a reason for fresh nodes
  const contentKey = useMemo(
    () => ++renders,
    [doc.docid, doc.format, doc.body, termsKey, excludedKey, markup, showAll, previewRows],
  );

  // Runs once per fresh content element; terms and excluded are read as of that render (contentKey follows them).
  // biome-ignore lint/correctness/useExhaustiveDependencies: contentKey stands for terms, excluded and the content
  useLayoutEffect(() => {
    const content = contentRef.current;
    if (!content) return;
    if (markup) content.replaceChildren(content.ownerDocument.importNode(markup.fragment, true));
    highlightDom(content, terms, excluded);
  }, [contentKey]);

  let body: ReactNode = null;
  let error: string | undefined;
  let totalRows = 0;
  if (doc.format === 'plain') {
    body = <pre className="doc-plain">{doc.body}</pre>;
  } else if (doc.format === 'code') {
    body = (
      <pre className="doc-code">
        <code>{doc.body}</code>
      </pre>
    );
  } else if (jsonTable && 'error' in jsonTable) {
    error = jsonTable.error;
    body = <pre className="doc-plain">{doc.body}</pre>;
  } else if (jsonTable) {
    totalRows = jsonTable.rows.length > previewRows ? jsonTable.rows.length : 0;
    const rows = showAll ? jsonTable.rows : jsonTable.rows.slice(0, previewRows);
    body = (
      <table className="doc-table">
        <thead>
          <tr>
            {jsonTable.header.map((name, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
              <th key={i} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional and never reorder
            <tr key={r}>
              {row.map((cell, c) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                <td key={c}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  } else if (markup) {
    totalRows = markup.longTableRows;
  }

  return (
    <article className="document-body" data-testid="document-body" data-format={doc.format}>
      {doc.title && (
        <h2 className="doc-title" data-testid="doc-title">
          {doc.title}
        </h2>
      )}
      <MetadataList metadata={doc.metadata} />
      {error !== undefined && (
        <p className="doc-error" role="alert" data-testid="doc-error">
          This table could not be read, so it is shown as text: {error}
        </p>
      )}
      <div key={contentKey} ref={contentRef} className={`doc-content doc-${doc.format}`} data-testid="doc-content">
        {body}
      </div>
      {totalRows > 0 && (
        <p className="doc-preview-note">
          {showAll ? `All ${totalRows} rows shown. ` : `Showing the first ${previewRows} of ${totalRows} rows. `}
          {!showAll && (
            <button type="button" data-testid="show-all-rows" onClick={() => setShownInFull(doc.docid)}>
              Show all {totalRows} rows
            </button>
          )}
        </p>
      )}
    </article>
  );
}

function MetadataList({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return null;
  return (
    <dl className="doc-metadata" data-testid="doc-metadata">
      {entries.map(([key, value]) => {
        const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
        const long = text.length > metadataValueLength;
        return (
          <div key={key} className="doc-metadata-entry">
            <dt>{key}</dt>
            <dd title={long ? text.slice(0, metadataTitleLength) : undefined}>
              {long ? `${text.slice(0, metadataValueLength)}…` : text}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

interface PreviewMarkup {
  /** The sanitised nodes, owned by an inert document (nothing in it loads or runs); imported on display. */
  fragment: DocumentFragment;
  /** Body rows of the tables longer than the preview (0: none is). */
  longTableRows: number;
}

/** Sanitised HTML parsed in an inert document; unless `showAll`, tables longer than `previewRows` are cut to it. */
function previewMarkup(html: string, previewRows: number, showAll: boolean): PreviewMarkup {
  const inert = globalThis.document.implementation.createHTMLDocument('');
  // Same parsing context (a body) as DOMPurify's, so the tree is the one it checked.
  inert.body.innerHTML = html;
  let longTableRows = 0;
  for (const table of inert.body.querySelectorAll('table')) {
    // Header and footer rows always stay; the rows that count are the body's.
    const rows = [...table.rows].filter((row) => row.parentElement?.tagName === 'TBODY' || row.parentElement === table);
    if (rows.length <= previewRows) continue;
    longTableRows += rows.length;
    if (!showAll) for (const row of rows.slice(previewRows)) row.remove();
  }
  const fragment = inert.createDocumentFragment();
  while (inert.body.firstChild) fragment.append(inert.body.firstChild);
  return { fragment, longTableRows };
}
