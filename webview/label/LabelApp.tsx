// The Label view: the query, its instruction and numbered conditions above; the document below; the scale, the
// answers, the note and (unless blind) the other labels and LLM suggestions beside it. Keyboard first (keyMap.ts),
// mouse too. Everything shown comes from the host through LabelController; every label is stored by the host before
// the next pair appears.
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { evaluateDerive } from '../../core/dsl/evaluateDerive.ts';
import type { DeriveExpression } from '../../core/dsl/model.ts';
import { excludedEntities, queryTerms } from '../../core/labelling/highlightTerms.ts';
import type { PairView, QueueOrder, SessionState } from '../../core/labelling/types.ts';
import { VscodeButton, VscodeCheckbox } from '../common/elements.ts';
import { DocumentBody } from './document/DocumentBody.tsx';
import { type KeyAction, keyAction, keyMapRows, routeKey } from './keyMap.ts';
import type { Draft, LabelController, LabelSnapshot } from './labelController.ts';
import { SafeMarkdown } from './SafeMarkdown.tsx';

const orders: { value: QueueOrder; label: string }[] = [
  { value: 'query', label: 'By query' },
  { value: 'rank', label: 'By pool rank' },
  { value: 'confidence', label: 'Least confident LLM suggestion first' },
  { value: 'disagreement', label: 'Disagreements first' },
];

const number = (n: number): string => n.toLocaleString('en-US');

/** Inputs that take no typing: focus on one (after a click) leaves the keys to the view. */
const untypedInputs = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

function isField(element: Element | null): boolean {
  if (!element) return false;
  const tag = element.tagName;
  if (tag === 'INPUT') return !untypedInputs.has((element as HTMLInputElement).type);
  return tag === 'TEXTAREA' || tag === 'SELECT' || (element as HTMLElement).isContentEditable;
}

/**
 * The page was opened by the extension in VS Code, whose keybindings (package.json, remappable) run the view's
 * commands; elsewhere (the webview tests' page) the view maps every key itself.
 */
const hostKeybindings = document.getElementById('root')?.dataset.hostKeybindings === 'true';

/** Actions a held key must not repeat: each labels or undoes one pair, and the next pair is not seen yet. */
const singleStroke: ReadonlySet<string> = new Set(['label', 'derived', 'undo']);

/** The rule reads the per-condition answers (`all(conditions)`, `any(conditions)`). */
function readsConditions(node: DeriveExpression): boolean {
  switch (node.kind) {
    case 'name':
      return node.name === 'conditions';
    case 'index':
      return true;
    case 'call':
      return node.args.some(readsConditions);
    case 'not':
      return readsConditions(node.operand);
    case 'binary':
      return readsConditions(node.left) || readsConditions(node.right);
    case 'conditional':
      return readsConditions(node.test) || readsConditions(node.whenTrue) || readsConditions(node.whenFalse);
    default:
      return false;
  }
}

/**
 * The label the study's derive rule gives for the ticked answers, when it has one. None for a pair whose query has
 * no conditions when the rule reads them: `all(conditions)` of no conditions is true, and would propose the top
 * label before anything was checked.
 */
function derivedLabel(state: SessionState, draft: Draft, pair: PairView | null | undefined): number | undefined {
  const derive = state.study.derive;
  if (!derive || !pair) return undefined;
  if (pair.query.conditions.length === 0 && readsConditions(derive)) return undefined;
  // An unanswered graded aspect is at its lowest level, as the view shows it and the commit stores it.
  const lowest = state.study.aspects.flatMap((a) => (a.levels ? [[a.name, a.levels[0]!] as const] : []));
  return evaluateDerive(derive, {
    aspects: { ...Object.fromEntries(lowest), ...draft.aspects },
    conditions: draft.conditions,
  });
}

/** A graded aspect (`levels 0 1 2`): its question and one button per level, the current one pressed. */
function GradedAspect({
  name,
  question,
  levels,
  level,
  onLevel,
}: {
  name: string;
  question: string;
  levels: readonly number[];
  level: boolean | number | undefined;
  onLevel: (level: number) => void;
}) {
  // Unanswered reads as the lowest level: that is what the label is derived from and what is stored.
  const current = typeof level === 'number' ? level : levels[0];
  return (
    <span className="graded-aspect" data-testid={`aspect-${name}`} data-level={current}>
      <span className="graded-question">{question}</span>
      <span className="levels">
        {levels.map((value) => (
          <button
            type="button"
            key={value}
            aria-pressed={value === current}
            aria-label={`${question}: ${value}`}
            className={value === current ? 'level current' : 'level'}
            onClick={() => onLevel(value)}
            data-testid={`aspect-${name}-level-${value}`}
          >
            {value}
          </button>
        ))}
      </span>
    </span>
  );
}

export function LabelApp({ controller }: { controller: LabelController }) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.snapshot);
  const noteRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => controller.start(), [controller]);

  useEffect(() => {
    const perform = (action: KeyAction): void => {
      const state = controller.snapshot().state;
      if (!state) return;
      switch (action.kind) {
        case 'label':
          if (controller.choose(action.value)) noteRef.current?.focus();
          break;
        case 'derived': {
          // Ctrl+Enter in the reason box stores the label the adjudicator chose before writing it.
          const { draft, pair } = controller.snapshot();
          const value = draft.pendingLabel ?? derivedLabel(state, draft, pair);
          if (value !== undefined && controller.choose(value)) noteRef.current?.focus();
          break;
        }
        case 'toggle':
          controller.toggle(action.n);
          break;
        case 'move':
          controller.move(action.delta);
          break;
        case 'undo':
          void controller.undo();
          break;
        case 'note':
          noteRef.current?.focus();
          break;
        case 'help':
          void controller.toggleHelp();
          break;
        case 'escape':
          if (isField(document.activeElement)) (document.activeElement as HTMLElement).blur();
          controller.closeHelp();
          break;
      }
    };
    const onKey = (event: KeyboardEvent): void => {
      const state = controller.snapshot().state;
      if (!state) return;
      const press = {
        key: event.key,
        code: event.code,
        shiftKey: event.shiftKey,
        ctrlKey: event.ctrlKey,
        altKey: event.altKey,
        metaKey: event.metaKey,
        inField: isField(document.activeElement),
      };
      const action = keyAction(press, state.study.scale);
      if (hostKeybindings) {
        // In VS Code the workbench's keybindings run the view's commands (they come back as label/keyAction);
        // listening on the document, before VS Code's forwarder on the window, lets the view keep its own keys.
        const route = routeKey({ ...press, repeat: event.repeat }, action);
        if (route === 'workbench') return;
        event.stopPropagation();
        if (route !== 'view' || !action) return;
        event.preventDefault();
        perform(action);
        return;
      }
      if (!action) return;
      event.preventDefault();
      if (event.repeat && singleStroke.has(action.kind)) return;
      perform(action);
    };
    document.addEventListener('keydown', onKey);
    const unsubscribe = controller.onKeyAction(perform);
    return () => {
      document.removeEventListener('keydown', onKey);
      unsubscribe();
    };
  }, [controller]);

  const { state, pair, error } = snapshot;
  if (!state) {
    return (
      <main className="label-view">
        {error ? (
          <div role="alert" className="error-message">
            {error}
          </div>
        ) : (
          <p className="description">Opening the study…</p>
        )}
      </main>
    );
  }
  return (
    <main className="label-view" data-testid="label-view" data-busy={snapshot.busy ? 'true' : undefined}>
      <Header state={state} snapshot={snapshot} controller={controller} />
      {snapshot.unsaved && <CannotSave state={state} snapshot={snapshot} />}
      {snapshot.unloaded && !snapshot.unsaved && (
        <div role="alert" className="error-message cannot-save" data-testid="cannot-load">
          <strong>
            Cannot show the pair — the study's database is{' '}
            {snapshot.unloaded.reason === 'busy' ? 'busy' : 'unreachable'}; retrying…
          </strong>
          <p className="description cannot-save-detail">{snapshot.unloaded.message}</p>
        </div>
      )}
      {error && (
        <div role="alert" className="error-message" data-testid="error">
          {error}
        </div>
      )}
      {pair ? (
        <PairPane state={state} pair={pair} snapshot={snapshot} controller={controller} noteRef={noteRef} />
      ) : (
        <section className="queue-end" data-testid="queue-end">
          <h2>{state.queue.length === 0 ? 'Nothing to label in this queue' : 'End of the queue'}</h2>
          <p className="description">
            {number(state.progress.judged)} of {number(state.progress.assigned)} pairs judged. Press k to go back
            {state.queue.unlabelledOnly ? '' : ', or show unlabelled pairs only'}.
          </p>
        </section>
      )}
      <p className="status" aria-live="polite" data-testid="status">
        {snapshot.unsaved ? 'Not saved yet' : snapshot.busy && !snapshot.unloaded ? 'Saving…' : (snapshot.status ?? '')}
      </p>
      {snapshot.showHelp && <HelpOverlay state={state} snapshot={snapshot} controller={controller} pair={pair} />}
    </main>
  );
}

/**
 * The label chosen for the pair on screen is not stored: the record could not take it (LabelController.commit sends
 * it again until it does). Shown for as long as that lasts, above the pair; all of it is text (the host's message
 * included), never markup.
 */
function CannotSave({ state, snapshot }: { state: SessionState; snapshot: LabelSnapshot }) {
  const unsaved = snapshot.unsaved!;
  const name = state.study.scale.find((e) => e.value === unsaved.label)?.label ?? '';
  const title =
    unsaved.reason === 'no-answer'
      ? "Not saved yet — the study's database has not answered; waiting…"
      : `Cannot save — the study's database is ${unsaved.reason === 'busy' ? 'busy (another process is writing to it)' : 'unreachable'}; retrying…`;
  return (
    <div role="alert" className="error-message cannot-save" data-testid="cannot-save" data-reason={unsaved.reason}>
      <strong data-testid="cannot-save-title">{title}</strong>
      <p className="description">
        Your label {unsaved.label}
        {name ? ` · ${name}` : ''} is not saved yet. It is sent again until the database takes it; this pair stays on
        screen until then.{unsaved.attempts > 0 ? ` Attempts: ${unsaved.attempts}.` : ''}
      </p>
      {unsaved.message !== '' && (
        <p className="description cannot-save-detail" data-testid="cannot-save-detail">
          {unsaved.message}
        </p>
      )}
    </div>
  );
}

function Header({
  state,
  snapshot,
  controller,
}: {
  state: SessionState;
  snapshot: LabelSnapshot;
  controller: LabelController;
}) {
  const { progress, queue } = state;
  const share = progress.assigned === 0 ? 0 : progress.judged / progress.assigned;
  return (
    <header className="label-header">
      <div className="title-line">
        <h1>{state.study.title ?? state.study.study}</h1>
        <span className="annotator" data-testid="annotator" title="Setting qrelsStudio.annotator">
          {state.study.annotator}
        </span>
        {state.study.blind && <span className="badge">blind</span>}
      </div>
      {queue.adjudication && (
        <div className="adjudication-banner" role="status" data-testid="adjudication">
          <span>
            Adjudicating <strong>{queue.adjudication.title}</strong> — {number(queue.length)} pair
            {queue.length === 1 ? '' : 's'}; every label is final and needs a reason.
          </span>
          <VscodeButton
            secondary
            data-testid="leave-adjudication"
            onClick={() => void controller.setQueue({ order: queue.order, unlabelledOnly: queue.unlabelledOnly })}
          >
            Back to my queue
          </VscodeButton>
        </div>
      )}
      <div className="progress-line">
        <span data-testid="progress">
          {number(progress.judged)} / {number(progress.assigned)} judged
        </span>
        <div className="progress-bar" aria-hidden="true">
          {/* Set through the CSSOM (element.style), which the CSP's style-src does not govern. */}
          <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
        <span className="description" data-testid="position">
          {queue.length === 0
            ? 'empty queue'
            : `pair ${number(Math.min(snapshot.position + 1, queue.length))} of ${number(queue.length)}`}
        </span>
        <label className="queue-control">
          Order{' '}
          <select
            data-testid="queue-order"
            value={queue.order}
            onChange={(e) =>
              void controller.setQueue({ order: e.target.value as QueueOrder, unlabelledOnly: queue.unlabelledOnly })
            }
          >
            {orders.map((o) => {
              // What others said orders these two: in a blind study only the adjudicator may use them (the host
              // refuses them too).
              const hidden =
                state.study.blind &&
                state.study.adjudicator !== state.study.annotator &&
                (o.value === 'confidence' || o.value === 'disagreement');
              return (
                <option key={o.value} value={o.value} disabled={hidden}>
                  {o.label}
                  {hidden ? ' (not in a blind study)' : ''}
                </option>
              );
            })}
          </select>
        </label>
        <label className="queue-control">
          <input
            type="checkbox"
            data-testid="unlabelled-only"
            checked={queue.unlabelledOnly}
            onChange={(e) => void controller.setQueue({ order: queue.order, unlabelledOnly: e.target.checked })}
          />{' '}
          Unlabelled only
        </label>
      </div>
    </header>
  );
}

function PairPane({
  state,
  pair,
  snapshot,
  controller,
  noteRef,
}: {
  state: SessionState;
  pair: PairView;
  snapshot: LabelSnapshot;
  controller: LabelController;
  noteRef: React.RefObject<HTMLTextAreaElement | null>;
}) {
  const { draft } = snapshot;
  const terms = useMemo(() => queryTerms(pair.query.text), [pair.query.text]);
  const excluded = useMemo(() => excludedEntities(pair.query.instruction ?? ''), [pair.query.instruction]);
  const derived = derivedLabel(state, draft, pair);
  const adjudicating = state.study.adjudicator === state.study.annotator;
  const aspects = state.study.aspects;
  const shown = snapshot.neighbour ?? pair.document;
  const chunk = pair.document?.chunk;
  return (
    <div className="pair" data-testid="pair" data-pair-id={pair.pairId} data-qid={pair.query.qid}>
      <section className="query-pane">
        <div className="query-line">
          <span className="qid">{pair.query.qid}</span>
          {pair.query.type && <span className="badge">{pair.query.type}</span>}
          <span className="query-text" data-testid="query-text">
            {pair.query.text}
          </span>
        </div>
        {pair.query.instruction && (
          <p className="instruction" data-testid="instruction">
            <HighlightedText text={pair.query.instruction} excluded={excluded} />
          </p>
        )}
        {(aspects.length > 0 || pair.query.conditions.length > 0) && (
          <ol className="answers" data-testid="answers">
            {aspects.map((aspect, i) => (
              <li key={aspect.name} className="answer">
                {aspect.levels ? (
                  <GradedAspect
                    name={aspect.name}
                    question={aspect.question}
                    levels={aspect.levels}
                    level={draft.aspects[aspect.name]}
                    onLevel={(level) => controller.setAspectLevel(aspect.name, level)}
                  />
                ) : (
                  <VscodeCheckbox
                    checked={draft.aspects[aspect.name] === true}
                    onChange={() => controller.toggleAspect(aspect.name)}
                    data-testid={`aspect-${aspect.name}`}
                  >
                    {aspect.question}
                  </VscodeCheckbox>
                )}
                <kbd>⇧{i + 1}</kbd>
              </li>
            ))}
            {pair.query.conditions.map((condition, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a condition is identified by its number (stored 1-based)
              <li key={i} className="answer condition">
                <VscodeCheckbox
                  checked={draft.conditions[i] ?? false}
                  onChange={() => controller.toggleCondition(i)}
                  data-testid={`condition-${i + 1}`}
                >
                  {i + 1}. {condition}
                </VscodeCheckbox>
                {aspects.length + i < 9 && <kbd>⇧{aspects.length + i + 1}</kbd>}
              </li>
            ))}
          </ol>
        )}
      </section>
      <div className="pair-body">
        <section className="document-pane">
          {shown ? (
            <>
              {snapshot.neighbour && (
                <p className="neighbour-note">
                  Showing neighbouring chunk {snapshot.neighbour.docid}, not the pair's document.{' '}
                  <button type="button" onClick={() => void controller.neighbour(pair.document?.docid ?? '')}>
                    Back to {pair.document?.docid}
                  </button>
                </p>
              )}
              <div className="doc-id">{shown.docid}</div>
              <DocumentBody document={shown} terms={terms} excluded={excluded} />
              {chunk && (
                <nav className="chunks" data-testid="chunks">
                  <span className="description">
                    chunk {chunk.index + 1} of {chunk.count} of {pair.document?.parentDocid}
                  </span>
                  {chunk.previousDocid && (
                    <button type="button" onClick={() => void controller.neighbour(chunk.previousDocid!)}>
                      Previous chunk
                    </button>
                  )}
                  {chunk.nextDocid && (
                    <button type="button" onClick={() => void controller.neighbour(chunk.nextDocid!)}>
                      Next chunk
                    </button>
                  )}
                </nav>
              )}
            </>
          ) : (
            <p className="error-message">
              The corpus has no document with the id of this pair; label it from its id or skip it.
            </p>
          )}
        </section>
        <aside className="decision-pane">
          <div className="scale" data-testid="scale">
            {state.study.scale.map((entry) => (
              <VscodeButton
                key={entry.value}
                secondary={
                  (snapshot.unsaved?.pairId === pair.pairId ? snapshot.unsaved.label : pair.mine?.label) !== entry.value
                }
                data-chosen={
                  snapshot.unsaved?.pairId === pair.pairId && snapshot.unsaved.label === entry.value
                    ? 'true'
                    : undefined
                }
                disabled={snapshot.busy}
                title={entry.description ?? entry.label}
                data-testid={`scale-${entry.value}`}
                onClick={() => {
                  if (controller.choose(entry.value)) noteRef.current?.focus();
                }}
              >
                <kbd>{entry.key}</kbd> {entry.label}
              </VscodeButton>
            ))}
          </div>
          {derived !== undefined && (
            <p className="derived" data-testid="derived">
              Derived from your answers: <strong>{derived}</strong>{' '}
              {state.study.scale.find((e) => e.value === derived)?.label ?? ''} — Enter commits it
            </p>
          )}
          {pair.mine && (
            <p className="mine" data-testid="mine">
              Your label: <strong>{pair.mine.label}</strong>{' '}
              {state.study.scale.find((e) => e.value === pair.mine?.label)?.label ?? ''}
            </p>
          )}
          <label className="note">
            <span>
              {adjudicating ? 'Reason (required)' : 'Note'} <kbd>n</kbd>
              {draft.pendingLabel !== undefined && (
                <span className="description" data-testid="pending-label">
                  {' '}
                  · Ctrl+Enter stores {draft.pendingLabel}
                </span>
              )}
            </span>
            <textarea
              ref={noteRef}
              data-testid="note"
              rows={3}
              value={draft.note}
              readOnly={snapshot.unsaved !== undefined}
              placeholder={
                adjudicating ? 'Why this is the final label (stored with it)' : 'Why this label (saved with it)'
              }
              onChange={(e) => controller.setNote(e.target.value)}
            />
          </label>
          <OthersPane pair={pair} state={state} />
          <div className="actions">
            <VscodeButton secondary onClick={() => controller.move(-1)} data-testid="previous">
              Previous <kbd>k</kbd>
            </VscodeButton>
            <VscodeButton secondary onClick={() => controller.move(1)} data-testid="next">
              Next <kbd>j</kbd>
            </VscodeButton>
            <VscodeButton secondary onClick={() => void controller.undo()} data-testid="undo">
              Undo <kbd>u</kbd>
            </VscodeButton>
            <VscodeButton secondary onClick={() => void controller.toggleHelp()} data-testid="help">
              Help <kbd>?</kbd>
            </VscodeButton>
          </div>
        </aside>
      </div>
    </div>
  );
}

function OthersPane({ pair, state }: { pair: PairView; state: SessionState }) {
  const name = (value: number | null): string =>
    value === null ? 'unparsed' : `${value} ${state.study.scale.find((e) => e.value === value)?.label ?? ''}`;
  if (pair.hidden) {
    return (
      <p className="description" data-testid="blind-notice">
        Blind study: other labels and suggestions appear once you have labelled this pair.
      </p>
    );
  }
  if (pair.others.length === 0 && pair.suggestions.length === 0) return null;
  return (
    <section className="others" data-testid="others">
      {pair.suggestions.map((s) => (
        <div key={`s:${s.judge}`} className="suggestion" data-testid="suggestion">
          <span className="who">{s.judge}</span> suggests <strong>{name(s.label)}</strong>
          {s.confidence !== undefined && <span className="description"> ({Math.round(s.confidence * 100)} %)</span>}
          {s.rationale && <p className="rationale">{s.rationale}</p>}
        </div>
      ))}
      {pair.others.map((o) => (
        <div key={`o:${o.annotator}`} className="other" data-testid="other-label">
          <span className="who">{o.annotator}</span>: <strong>{name(o.label)}</strong>
          <span className="description"> ({o.source})</span>
          {o.rationale && <p className="rationale">{o.rationale}</p>}
        </div>
      ))}
    </section>
  );
}

/** Text with the excluded entities marked, through React (no HTML from the data). */
function HighlightedText({ text, excluded }: { text: string; excluded: string[] }) {
  if (excluded.length === 0) return <>{text}</>;
  const escaped = excluded.map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
  const parts = text.split(new RegExp(`(${escaped.join('|')})`, 'giu'));
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string never reorder
          <mark key={i} className="excluded">
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </>
  );
}

function HelpOverlay({
  state,
  snapshot,
  controller,
  pair,
}: {
  state: SessionState;
  snapshot: LabelSnapshot;
  controller: LabelController;
  pair: PairView | null | undefined;
}) {
  const toggles = [
    ...state.study.aspects.map((a) => (a.levels ? `${a.question} (next level: ${a.levels.join(' → ')})` : a.question)),
    ...(pair?.query.conditions ?? []),
  ];
  return (
    <div className="help-overlay" role="dialog" aria-label="Guidelines and keys" data-testid="help-overlay">
      <div className="help-content">
        <VscodeButton secondary className="help-close" onClick={() => controller.closeHelp()}>
          Close <kbd>Esc</kbd>
        </VscodeButton>
        <h2>Keys</h2>
        <table className="key-map" data-testid="key-map">
          <tbody>
            {keyMapRows(state.study.scale, toggles).map(([key, what]) => (
              <tr key={key}>
                <td>
                  <kbd>{key}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Guidelines</h2>
        {state.study.guidelines === undefined ? (
          <p className="description">This study declares no guidelines file.</p>
        ) : snapshot.guidelinesError && !snapshot.guidelines ? (
          <p className="error-message" data-testid="guidelines-error">
            {snapshot.guidelinesError}
          </p>
        ) : snapshot.guidelines ? (
          <div data-testid="guidelines">
            <p className="description">{snapshot.guidelines.path}</p>
            <SafeMarkdown markdown={snapshot.guidelines.markdown} />
          </div>
        ) : (
          <p className="description">Loading {state.study.guidelines}…</p>
        )}
      </div>
    </div>
  );
}
