// The Review view: one generated item at a time — its type, generator and parent, where the verdicts stand, the word
// diff of the version under review against its source (or the generated text once edited, or any version picked)
// with the automatic findings beside it, the rubric (↑ ↓ pick a dimension, 1 … 9 a level), and the verdict (its
// first letter; edit opens the text; a verdict other than the first needs a reason, Ctrl+Enter stores the one
// held). Others' verdicts and edits show once the review is not blind or after one's own; with several current
// versions (an edit, or two), the verdict judges the one picked. The queue: every item, one's items still to review,
// or the disputed ones (where the adjudicator decides).
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { targetVerdictText } from '../../core/agreement/agreementTarget.ts';
import type { ReviewItemView, ReviewQueue, ReviewState, ReviewSummary } from '../../core/review/reviewTypes.ts';
import { type DiffPart, wordDiff } from '../../core/review/textDiff.ts';
import { fixed } from '../agreement/agreementFormat.ts';
import { judgedVersion, type ReviewController, type ReviewSnapshot } from './reviewController.ts';

/** Diff parts keyed by where they start in the diff's text (stable for one diff). */
function keyedParts(diff: readonly DiffPart[]): (DiffPart & { key: string })[] {
  let offset = 0;
  const keyed: (DiffPart & { key: string })[] = [];
  for (const part of diff) {
    keyed.push({ ...part, key: `${part.kind}@${offset}` });
    offset += part.text.length;
  }
  return keyed;
}

const isField = (element: Element | null): boolean =>
  element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement || element instanceof HTMLSelectElement;

export function ReviewApp({ controller }: { controller: ReviewController }) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.snapshot);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const editRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => controller.start(), [controller]);
  // A new item: the caret leaves the previous item's reason or edit box, so the keys rate and decide again.
  const shownPosition = snapshot.item?.position;
  useEffect(() => {
    if (shownPosition !== undefined && isField(document.activeElement)) (document.activeElement as HTMLElement).blur();
  }, [shownPosition]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { state, draft } = controller.snapshot();
      if (!state || event.repeat) return;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        const verdict = draft.pending ?? (draft.editing !== undefined ? 'edit' : undefined);
        if (verdict && controller.choose(verdict)) reasonRef.current?.focus();
        return;
      }
      if (event.key === 'Escape') {
        if (isField(document.activeElement)) (document.activeElement as HTMLElement).blur();
        return;
      }
      if (isField(document.activeElement) || event.ctrlKey || event.altKey || event.metaKey) return;
      const levels = state.review.rubric?.levels ?? [];
      const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : 0;
      if (digit > 0 && digit <= levels.length) {
        controller.rate(levels[digit - 1]!);
      } else if (event.key === 'ArrowDown') controller.selectDimension(1);
      else if (event.key === 'ArrowUp') controller.selectDimension(-1);
      else if (event.key === 'j' || event.key === 'ArrowRight') controller.move(1);
      else if (event.key === 'k' || event.key === 'ArrowLeft') controller.move(-1);
      else {
        const verdict = state.review.verdicts.find((v) => v[0]?.toLowerCase() === event.key.toLowerCase());
        if (!verdict) return;
        if (verdict === 'edit') {
          controller.startEdit();
          setTimeout(() => editRef.current?.focus());
        } else if (controller.choose(verdict)) reasonRef.current?.focus();
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller]);

  const { state, item, error } = snapshot;
  if (!state) {
    return (
      <main className="review-view">
        {error ? (
          <div role="alert" className="error-message" data-testid="error">
            {error}
          </div>
        ) : (
          <p className="description">Opening the review…</p>
        )}
      </main>
    );
  }
  return (
    <main className="review-view" data-testid="review-view">
      <header className="review-header">
        <h1>{state.review.title ?? state.review.review}</h1>
        <span className="annotator">{state.review.annotator}</span>
        {state.review.blind && <span className="badge">blind</span>}
        <span data-testid="progress">
          {state.reviewed} / {state.items} reviewed
        </span>
        <label className="control">
          Queue{' '}
          <select
            data-testid="queue"
            value={state.queue}
            onChange={(e) => void controller.setQueue(e.target.value as ReviewQueue)}
          >
            <option value="all">every item</option>
            <option value="todo">still to review</option>
            <option value="disputed">disputed</option>
          </select>
        </label>
        <span className="description" data-testid="position">
          {state.length === 0
            ? queueEmpty[state.queue]
            : `item ${Math.min(snapshot.position + 1, state.length)} of ${state.length}`}
        </span>
      </header>
      {error && (
        <div role="alert" className="error-message" data-testid="error">
          {error}
        </div>
      )}
      {item ? (
        <ItemPane
          state={state}
          item={item}
          snapshot={snapshot}
          controller={controller}
          reasonRef={reasonRef}
          editRef={editRef}
        />
      ) : (
        <section data-testid="queue-end">
          <p className="description">End of the items. Press k to go back.</p>
          {snapshot.summary && <SummaryTable summary={snapshot.summary} />}
        </section>
      )}
      <p className="status" aria-live="polite" data-testid="status">
        {snapshot.busy ? 'Saving…' : (snapshot.status ?? '')}
      </p>
    </main>
  );
}

const queueEmpty: Record<ReviewQueue, string> = {
  all: 'no items',
  todo: 'nothing left to review',
  disputed: 'no disputed item',
};

function SummaryTable({ summary }: { summary: ReviewSummary }) {
  const verdicts = summary.outcomes;
  const a = summary.agreement;
  return (
    <div data-testid="summary">
      <h2>Summary</h2>
      {summary.scope !== undefined && (
        <p className="description" data-testid="summary-scope">
          Over {summary.scope} only: a blind review shows no outcome of an item before your own verdict.
        </p>
      )}
      <table className="rubric">
        <thead>
          <tr>
            <th scope="col">type</th>
            {verdicts.map((v) => (
              <th key={v} scope="col">
                {v}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.types.map((t) => (
            <tr key={t.type} data-testid="summary-row" data-type={t.type}>
              <th scope="row">{t.type}</th>
              {verdicts.map((v) => (
                <td key={v}>{t.counts[v] ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="description" data-testid="summary-agreement" title={a.notes.join('\n')}>
        Reviewer agreement on verdicts: {a.n_units} items, {a.n_annotators} reviewers, percent{' '}
        {fixed(a.percent_agreement)}, Krippendorff's α {fixed(a.krippendorff.nominal)}. An item is decided by{' '}
        {summary.required} reviewer{summary.required === 1 ? '' : 's'} agreeing, or by the adjudicator.
      </p>
      {a.target && (
        <p
          className={`description target-${a.target.verdict.state}`}
          data-testid="summary-target"
          data-state={a.target.verdict.state}
          title={a.target.note}
        >
          {a.target.statistic} {fixed(a.target.value)}, {targetVerdictText(a.target.verdict, (value) => fixed(value))}
        </p>
      )}
    </div>
  );
}

function ItemPane({
  state,
  item,
  snapshot,
  controller,
  reasonRef,
  editRef,
}: {
  state: ReviewState;
  item: ReviewItemView;
  snapshot: ReviewSnapshot;
  controller: ReviewController;
  reasonRef: React.RefObject<HTMLTextAreaElement | null>;
  editRef: React.RefObject<HTMLTextAreaElement | null>;
}) {
  const { draft } = snapshot;
  const reviewing = judgedVersion(item, snapshot.judging);
  const rubric = state.review.rubric;
  const judgeable = item.versions.filter((v) => v.current);
  // The diff is against the version the user picks, else — the host's rule for its version under review, whichever
  // version is judged — the source of a rewrite, or the generated text an edit was made from.
  const generated = judgeable.find((v) => v.basedOn === undefined);
  const picked = item.versions.find((v) => v.id === snapshot.compareWith);
  const defaultAgainst: 'source' | 'original' | undefined =
    item.source !== undefined ? 'source' : generated && generated.id !== reviewing.id ? 'original' : undefined;
  const against =
    picked?.text ?? (defaultAgainst === 'source' ? item.source : defaultAgainst ? generated?.text : undefined);
  const diff =
    !picked && reviewing.id === item.reviewing
      ? item.diff
      : against === undefined
        ? []
        : wordDiff(against, reviewing.text);
  const diffLabel = picked
    ? `version ${picked.number} (${picked.author})`
    : defaultAgainst === 'source'
      ? 'source text'
      : 'generated text';
  const comparable = item.versions.filter((v) => v.id !== reviewing.id);
  const findings = reviewing.findings ?? [];
  return (
    <div className="review-item" data-testid="item" data-item-id={item.itemId}>
      <p className="meta">
        <strong>{item.itemId}</strong>
        {item.type && (
          <span className="badge" title={item.type}>
            {item.type} · {item.typeLabel}
          </span>
        )}
        {item.model && <span className="description">by {item.model}</span>}
        {item.parent && item.parentText === undefined && <span className="description">for {item.parent}</span>}
        {judgeable.length > 1 ? (
          <label className="control description">
            Judging{' '}
            <select
              data-testid="judging"
              value={String(reviewing.id)}
              onChange={(e) => controller.judge(Number(e.target.value))}
            >
              {judgeable.map((v) => (
                <option key={v.id} value={String(v.id)}>
                  version {v.number} ({v.author})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="description">
            version {reviewing.number} ({reviewing.author})
          </span>
        )}
        {item.status && (
          <span
            className={`badge status-${item.status.final}`}
            data-testid="item-status"
            title={`${item.status.reviewers} of ${item.status.required} reviewers have a verdict on this text`}
          >
            {item.status.final === 'pending'
              ? `pending ${item.status.reviewers}/${item.status.required}`
              : item.status.final}
          </span>
        )}
      </p>
      {item.parentText !== undefined && (
        <p className="parent" data-testid="parent">
          <span className="description">Query {item.parent}:</span> {item.parentText}
        </p>
      )}
      {item.tables && (
        <p className="description" data-testid="tables">
          Tables: {item.tables.compliant} compliant · {item.tables.violating} violating · {item.tables.offTopic}{' '}
          off-topic
        </p>
      )}
      {item.earlier && (
        <p className="description" data-testid="earlier">
          Your verdict '{item.earlier.verdict}' judged an earlier text: the items file has changed this item since.
        </p>
      )}
      <section className="text" data-testid="text">
        {diff.length > 0 ? (
          <p className="diff" data-testid="diff" title={`against the ${diffLabel}`}>
            {keyedParts(diff).map((part) =>
              part.kind === 'same' ? (
                <span key={part.key}>{part.text}</span>
              ) : part.kind === 'added' ? (
                <ins key={part.key}>{part.text}</ins>
              ) : (
                <del key={part.key}>{part.text}</del>
              ),
            )}
          </p>
        ) : (
          <p>{reviewing.text}</p>
        )}
        {comparable.length > 0 && (
          <label className="control description">
            Word diff against{' '}
            <select
              data-testid="compare-with"
              value={picked === undefined ? '' : String(picked.id)}
              onChange={(e) => controller.compareWith(e.target.value === '' ? undefined : Number(e.target.value))}
            >
              <option value="">
                the {defaultAgainst === 'source' ? 'source text' : defaultAgainst ? 'generated text' : 'nothing'}
              </option>
              {comparable.map((v) => (
                <option key={v.id} value={String(v.id)}>
                  version {v.number} ({v.author}){v.current ? '' : ', an earlier generated text'}
                </option>
              ))}
            </select>
          </label>
        )}
      </section>
      {findings.length > 0 && (
        <ul className="findings" data-testid="findings">
          {findings.map((f) => (
            <li key={`${f.check}:${f.message}`} data-testid="finding" data-check={f.check}>
              <strong>{f.check}</strong>: {f.message}
            </li>
          ))}
        </ul>
      )}
      {rubric && !item.mine && item.others.some((o) => o.annotator.startsWith('llm:')) && (
        <p className="description" data-testid="prefilled">
          Rubric pre-filled by {item.others.find((o) => o.annotator.startsWith('llm:'))!.annotator}: confirm or change
          it.
        </p>
      )}
      {rubric && (
        <table className="rubric" data-testid="rubric">
          <thead>
            <tr>
              <th scope="col">dimension ↑↓</th>
              {rubric.levels.map((level, i) => (
                <th key={level} scope="col">
                  {i + 1} {level}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rubric.dimensions.map((d, di) => (
              <tr key={d.name} className={di === draft.dimension ? 'selected' : ''} data-dimension={d.name}>
                <th scope="row" title={d.description}>
                  {d.name}
                </th>
                {rubric.levels.map((level) => (
                  <td key={level}>
                    <input
                      type="radio"
                      name={`rubric-${d.name}`}
                      aria-label={`${d.name}: ${level}`}
                      checked={draft.rubric[d.name] === level}
                      onChange={() => controller.rate(level, di)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {draft.editing !== undefined && (
        <label className="edit">
          <span>Edited text (Ctrl+Enter stores it as a new version, with the reason)</span>
          <textarea
            ref={editRef}
            data-testid="edit-text"
            rows={3}
            value={draft.editing}
            onChange={(e) => controller.setEdited(e.target.value)}
          />
        </label>
      )}
      <label className="reason">
        <span>Reason{draft.pending ? ` (needed for '${draft.pending}'; Ctrl+Enter stores it)` : ''}</span>
        <textarea
          ref={reasonRef}
          data-testid="reason"
          rows={2}
          value={draft.reason}
          onChange={(e) => controller.setReason(e.target.value)}
        />
      </label>
      <div className="verdicts">
        {state.review.verdicts.map((verdict) => (
          <button
            key={verdict}
            type="button"
            data-testid={`verdict-${verdict}`}
            onClick={() => {
              if (controller.choose(verdict)) reasonRef.current?.focus();
            }}
          >
            {verdict} <kbd>{verdict[0]}</kbd>
          </button>
        ))}
        {item.mine && (
          <span className="description" data-testid="mine">
            Your verdict: {item.mine.verdict}
          </span>
        )}
      </div>
      {!item.hidden && item.others.length > 0 && (
        <ul className="others" data-testid="others">
          {item.others.map((o) => (
            <li key={o.annotator}>
              {o.annotator}: <strong>{o.verdict}</strong>
              {o.reason ? ` — ${o.reason}` : ''}
            </li>
          ))}
        </ul>
      )}
      {item.hidden && <p className="description">Blind review: others' verdicts show after yours.</p>}
    </div>
  );
}
