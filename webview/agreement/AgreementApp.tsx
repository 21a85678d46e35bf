// The Agreement view: the study's headline statistics against their targets, the pairwise heat map of every two
// annotators (people, then LLM judges), a confusion matrix for any two, the queries by disagreement and the trend as
// labels came in. A heat-map cell, a query row or "Adjudicate all" opens those disagreements as an adjudication queue
// in the Label view. Everything shown comes from the host through AgreementController; a statistic that is
// undefined is "—" with the reason, never a number.
import { type CSSProperties, type KeyboardEvent, useEffect, useState, useSyncExternalStore } from 'react';
import { targetVerdictText } from '../../core/agreement/agreementTarget.ts';
import type {
  AgreementDashboard,
  AgreementHeadline,
  AnnotatorPairAgreement,
  QueryAgreement,
} from '../../core/agreement/agreementTypes.ts';
import { VscodeButton } from '../common/elements.ts';
import type { AgreementController, AgreementSnapshot } from './agreementController.ts';
import {
  count,
  fixed,
  heat,
  orderedAnnotators,
  type PairMetric,
  pairLookup,
  pairMetrics,
  pairMetricTitle,
  pairReason,
  pairValueText,
  percent,
  plural,
} from './agreementFormat.ts';
import { JudgesSection } from './JudgesSection.tsx';
import { TrendChart } from './TrendChart.tsx';

/** Queries listed before "Show all". */
const queriesShown = 50;

/** A CSS custom property set through the CSSOM (element.style), which the CSP's style-src does not govern. */
const heatStyle = (strength: number): CSSProperties => ({ '--heat': `${strength}%` }) as CSSProperties;

export function AgreementApp({ controller }: { controller: AgreementController }) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.snapshot);
  useEffect(() => controller.start(), [controller]);
  const { report, error } = snapshot;
  if (!report) {
    return (
      <main className="agreement-view">
        {error ? (
          <>
            <div role="alert" className="error-message" data-testid="error">
              {error}
            </div>
            <VscodeButton secondary data-testid="retry" onClick={() => controller.refresh()}>
              Try again
            </VscodeButton>
          </>
        ) : (
          <p className="description">Computing agreement…</p>
        )}
      </main>
    );
  }
  return (
    <main className="agreement-view" data-testid="agreement-view" aria-busy={snapshot.loading}>
      <Header report={report} snapshot={snapshot} controller={controller} />
      {error && (
        <div role="alert" className="error-message" data-testid="error">
          {error}
        </div>
      )}
      {report.annotators.length === 0 ? (
        <section className="empty-state" data-testid="empty">
          <h2>No labels yet</h2>
          <p>
            Nobody has labelled a pair of study '{report.study}'. Agreement appears here once two annotators (people or
            LLM judges) have labelled the same pairs.
          </p>
        </section>
      ) : (
        <>
          <Headlines report={report} />
          <div className="agreement-grid">
            <HeatMap report={report} snapshot={snapshot} controller={controller} />
            <ConfusionPanel report={report} snapshot={snapshot} controller={controller} />
          </div>
          <div className="agreement-grid">
            <QueryTable report={report} controller={controller} />
            <section className="card" aria-labelledby="trend-heading">
              <h2 id="trend-heading">Trend</h2>
              <p className="description">
                {report.headlines[0]?.title ?? 'Agreement'} over the people's labels given so far.
              </p>
              <TrendChart trend={report.trend} target={report.headlines[0]?.target} />
            </section>
          </div>
        </>
      )}
      <JudgesSection judges={snapshot.judges} scale={snapshot.scale} controller={controller} />
    </main>
  );
}

function Header({
  report,
  snapshot,
  controller,
}: {
  report: AgreementDashboard;
  snapshot: AgreementSnapshot;
  controller: AgreementController;
}) {
  const { adjudication } = snapshot;
  const humans = report.annotators.filter((a) => a.kind === 'human').length;
  const judges = report.annotators.length - humans;
  return (
    <header className="agreement-header">
      <div className="title-line">
        <h1>Agreement: {report.study}</h1>
        <span className="description" data-testid="annotator-count">
          {plural(humans, 'annotator')}
          {judges > 0 ? `, ${plural(judges, 'LLM judge')}` : ''}
        </span>
        <label className="control">
          Labels{' '}
          <select
            data-testid="threshold"
            value={snapshot.threshold === undefined ? '' : String(snapshot.threshold)}
            onChange={(e) => controller.setThreshold(e.target.value === '' ? undefined : Number(e.target.value))}
          >
            <option value="">as given</option>
            {snapshot.scale.slice(1).map((entry) => (
              <option key={entry.value} value={String(entry.value)}>
                binarised at label ≥ {entry.value} ({entry.name})
              </option>
            ))}
            {snapshot.threshold !== undefined && !snapshot.scale.some((e) => e.value === snapshot.threshold) && (
              <option value={String(snapshot.threshold)}>binarised at label ≥ {snapshot.threshold}</option>
            )}
          </select>
        </label>
        <span className="description" aria-live="polite" data-testid="loading">
          {snapshot.loading ? 'Computing…' : ''}
        </span>
      </div>
      <div className="adjudication-line">
        <VscodeButton
          data-testid="adjudicate-all"
          disabled={report.disagreements === 0 || adjudication.busy}
          title="Open every pair the people disagree on as an adjudication queue in the Label view"
          onClick={() => void controller.adjudicate({ kind: 'all' })}
        >
          Adjudicate all {plural(report.disagreements, 'disagreement')}
        </VscodeButton>
        <span data-testid="adjudicated">
          {report.adjudicator === undefined ? (
            <>
              This study declares no adjudicator: add <code>adjudicator NAME</code> to its block to adjudicate.
            </>
          ) : (
            <>
              Adjudicator {report.adjudicator}: {count(report.adjudicated)} pair{report.adjudicated === 1 ? '' : 's'}{' '}
              adjudicated.
            </>
          )}
        </span>
      </div>
      <p
        className={adjudication.error ? 'status error-message' : 'status'}
        role={adjudication.error ? 'alert' : undefined}
        aria-live="polite"
        data-testid="adjudication-status"
      >
        {adjudication.busy ? 'Opening the adjudication queue…' : (adjudication.error ?? adjudication.message ?? '')}
      </p>
    </header>
  );
}

function Headlines({ report }: { report: AgreementDashboard }) {
  return (
    <section className="headlines" aria-label="Headline statistics">
      {report.headlines.map((headline) => (
        <HeadlineCard key={`${headline.metric}:${headline.level}`} headline={headline} />
      ))}
      <KindMeans report={report} />
    </section>
  );
}

function HeadlineCard({ headline }: { headline: AgreementHeadline }) {
  // met: the interval's lower bound reaches the target; not-yet: it does not (however good the point estimate).
  const state = headline.value === null ? 'undefined' : (headline.verdict?.state ?? 'none');
  return (
    <article
      className={`card headline headline-${state}`}
      data-testid="headline"
      data-metric={headline.metric}
      data-state={state}
    >
      <h2>{headline.title}</h2>
      <div
        className="headline-value"
        data-testid="headline-value"
        title={headline.value === null ? `undefined because ${headline.reason}` : undefined}
      >
        {fixed(headline.value)}
      </div>
      {headline.value === null ? (
        <p className="reason" data-testid="headline-reason">
          undefined because {headline.reason ?? 'there are not enough labels'}
        </p>
      ) : (
        <p className="description" data-testid="headline-interval">
          {headline.interval
            ? `95 % CI [${fixed(headline.interval[0])}, ${fixed(headline.interval[1])}]`
            : 'no confidence interval (the statistic is undefined on most resamples)'}
        </p>
      )}
      {headline.verdict && (
        <p className={`target target-${headline.verdict.state}`} data-testid="headline-target">
          <span className="target-mark" aria-hidden="true">
            {headline.verdict.state === 'met' ? '✓' : headline.verdict.state === 'not-yet' ? '…' : '?'}
          </span>{' '}
          {targetVerdictText(headline.verdict, (value) => fixed(value))}
        </p>
      )}
    </article>
  );
}

/** The mean κ of the people's pairs and of the people–LLM pairs. */
function KindMeans({ report }: { report: AgreementDashboard }) {
  const kinds = (['human-human', 'human-llm', 'llm-llm'] as const).filter((k) => report.summary.cohen_mean[k]);
  if (kinds.length === 0) return null;
  const names = { 'human-human': 'person ↔ person', 'human-llm': 'person ↔ LLM', 'llm-llm': 'LLM ↔ LLM' };
  return (
    <article className="card kind-means" data-testid="kind-means">
      <h2>Mean Cohen's κ by kind of pair</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">pairs</th>
            <th scope="col">κ</th>
            <th scope="col">κ ({report.weighting})</th>
          </tr>
        </thead>
        <tbody>
          {kinds.map((kind) => {
            const mean = report.summary.cohen_mean[kind]!;
            const why = 'undefined because no pair of this kind has a defined κ';
            return (
              <tr key={kind} data-testid="kind-mean" data-kind={kind}>
                <th scope="row">
                  {names[kind]} <span className="description">({mean.pairs})</span>
                </th>
                <td className="number" title={mean.unweighted === null ? why : undefined}>
                  {fixed(mean.unweighted)}
                </td>
                <td className="number" title={mean[report.weighting] === null ? why : undefined}>
                  {fixed(mean[report.weighting])}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </article>
  );
}

function HeatMap({
  report,
  snapshot,
  controller,
}: {
  report: AgreementDashboard;
  snapshot: AgreementSnapshot;
  controller: AgreementController;
}) {
  const annotators = orderedAnnotators(report);
  const lookup = pairLookup(report.pairs);
  const metric = snapshot.metric;
  const lastHuman = annotators.findLastIndex((a) => a.kind === 'human');
  /** The first LLM judge starts a new block, after the people. */
  const boundary = (i: number): string => (i === lastHuman + 1 && lastHuman >= 0 ? ' kind-boundary' : '');
  return (
    <section className="card heat-map-card" aria-labelledby="heat-heading">
      <div className="card-title">
        <h2 id="heat-heading">Every two annotators</h2>
        <label className="control">
          <span className="visually-hidden">Statistic</span>
          <select
            data-testid="heat-metric"
            value={metric}
            onChange={(e) => controller.setMetric(e.target.value as PairMetric)}
          >
            {pairMetrics.map((m) => (
              <option key={m} value={m}>
                {pairMetricTitle(m, report)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {annotators.length < 2 && (
        <p className="reason" data-testid="single-annotator">
          Only {annotators[0]?.name} has labelled: agreement needs at least two annotators.
        </p>
      )}
      <div className="table-scroll">
        <table className="heat-map" data-testid="heat-map">
          <thead>
            <tr>
              <td className="corner-cell" />
              {annotators.map((col, j) => (
                <th key={col.name} scope="col" className={`column-name${boundary(j)}`} title={col.name}>
                  <span>{col.name}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {annotators.map((row, i) => (
              <tr key={row.name} className={boundary(i) ? 'kind-boundary-row' : undefined}>
                <th scope="row" className="row-name" title={`${row.name}: ${plural(row.labels, 'label')}`}>
                  {row.name}
                  {row.kind === 'llm' && (
                    <>
                      {' '}
                      <span className="badge">LLM</span>
                    </>
                  )}
                </th>
                {annotators.map((col, j) =>
                  i === j ? (
                    <td
                      key={col.name}
                      className={`heat-cell diagonal${boundary(j)}`}
                      title={`${row.name}: ${plural(row.labels, 'label')}`}
                    >
                      <span className="visually-hidden">{plural(row.labels, 'label')}</span>
                    </td>
                  ) : (
                    <HeatCell
                      key={col.name}
                      pair={lookup(row.name, col.name)}
                      a={row.name}
                      b={col.name}
                      metric={metric}
                      report={report}
                      className={boundary(j)}
                      onAdjudicate={() => void controller.adjudicate({ kind: 'pair', a: row.name, b: col.name })}
                    />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="description legend">
        <span className="swatch heat-good" aria-hidden="true" /> agreement above chance{' '}
        <span className="swatch heat-bad" aria-hidden="true" /> below chance · people first, then LLM judges · click a
        cell with disagreements to adjudicate them
      </p>
    </section>
  );
}

function HeatCell({
  pair,
  a,
  b,
  metric,
  report,
  className,
  onAdjudicate,
}: {
  pair: AnnotatorPairAgreement | undefined;
  a: string;
  b: string;
  metric: PairMetric;
  report: AgreementDashboard;
  className: string;
  onAdjudicate(): void;
}) {
  if (!pair) {
    return (
      <td className={`heat-cell${className}`} title={`${a} ↔ ${b}: no labels in common`}>
        —
      </td>
    );
  }
  const value = pair[metric];
  const { tone, strength } = heat(metric, value);
  const text = pairValueText(metric, value);
  const title =
    `${a} ↔ ${b}: ${pairMetricTitle(metric, report)} ` +
    `${value === null ? `undefined because ${pairReason(pair, metric)}` : text} · ` +
    `${plural(pair.shared, 'shared unit')} · ${plural(pair.disagreements, 'disagreement')}` +
    (pair.disagreements > 0 ? ' — click to adjudicate them' : '');
  return (
    <td
      className={`heat-cell heat-${tone}${className}`}
      style={heatStyle(strength)}
      title={title}
      data-testid="heat-cell"
      data-a={a}
      data-b={b}
      data-shared={pair.shared}
      data-disagreements={pair.disagreements}
    >
      {pair.disagreements > 0 ? (
        <button type="button" className="cell-button" aria-label={title} onClick={onAdjudicate}>
          {text}
        </button>
      ) : (
        text
      )}
    </td>
  );
}

function ConfusionPanel({
  report,
  snapshot,
  controller,
}: {
  report: AgreementDashboard;
  snapshot: AgreementSnapshot;
  controller: AgreementController;
}) {
  const annotators = orderedAnnotators(report);
  const { a, b, view, error, loading } = snapshot.confusion;
  const name = (value: number): string => {
    const i = report.values.indexOf(value);
    return i < 0 ? String(value) : (report.valueNames[i] ?? String(value));
  };
  const options = annotators.map((x) => (
    <option key={x.name} value={x.name}>
      {x.name}
      {x.kind === 'llm' ? ' (LLM)' : ''}
    </option>
  ));
  const max = view ? Math.max(1, ...view.counts.flat()) : 1;
  const total = view ? view.counts.flat().reduce((s, c) => s + c, 0) : 0;
  return (
    <section className="card" aria-labelledby="confusion-heading">
      <h2 id="confusion-heading">Confusion matrix</h2>
      <div className="confusion-pickers">
        <label className="control">
          Rows{' '}
          <select
            data-testid="confusion-a"
            value={a ?? ''}
            onChange={(e) => controller.setConfusionPair(e.target.value, b ?? '')}
          >
            {options}
          </select>
        </label>
        <label className="control">
          Columns{' '}
          <select
            data-testid="confusion-b"
            value={b ?? ''}
            onChange={(e) => controller.setConfusionPair(a ?? '', e.target.value)}
          >
            {options}
          </select>
        </label>
        <span className="description" aria-live="polite">
          {loading ? 'Counting…' : ''}
        </span>
      </div>
      {a !== undefined && a === b && <p className="description">Pick two different annotators.</p>}
      {error && (
        <p role="alert" className="error-message" data-testid="confusion-error">
          {error}
        </p>
      )}
      {view && view.a === a && view.b === b && (
        <>
          <p className="description">
            Rows: {view.a}'s labels; columns: {view.b}'s.
          </p>
          <div className="table-scroll">
            <table className="confusion" data-testid="confusion" data-a={view.a} data-b={view.b}>
              <thead>
                <tr>
                  <th scope="col" className="corner" title={`rows: ${view.a}; columns: ${view.b}`}>
                    ↓ rows · columns →
                  </th>
                  {/* A column is headed by its value alone, named in its title: the rows name every value, and
                      the matrix fits beside the heat map instead of scrolling. */}
                  {view.values.map((v) => (
                    <th key={v} scope="col" className="value-column" title={name(v)} data-testid="confusion-column">
                      {v}
                      <span className="visually-hidden"> {name(v)}</span>
                    </th>
                  ))}
                  <th scope="col">total</th>
                </tr>
              </thead>
              <tbody>
                {view.counts.map((row, i) => (
                  <tr key={view.values[i]}>
                    <th scope="row" data-testid="confusion-row">
                      {view.values[i]} {name(view.values[i]!)}
                    </th>
                    {row.map((c, j) => (
                      <td
                        key={view.values[j]}
                        className={`number count-cell${i === j ? ' agree' : ''}`}
                        style={heatStyle(Math.round((c / max) * 60))}
                        data-testid="confusion-cell"
                        data-row={view.values[i]}
                        data-column={view.values[j]}
                      >
                        {count(c)}
                      </td>
                    ))}
                    <td className="number total">{count(row.reduce((s, c) => s + c, 0))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="description">
            {total === 0
              ? `${view.a} and ${view.b} labelled no pair in common.`
              : `${plural(total, 'pair')} both labelled; the diagonal is where they agree.`}
          </p>
        </>
      )}
    </section>
  );
}

function QueryTable({ report, controller }: { report: AgreementDashboard; controller: AgreementController }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? report.queries : report.queries.slice(0, queriesShown);
  const open = (query: QueryAgreement): void => {
    if (query.disagreements > 0) void controller.adjudicate({ kind: 'query', qid: query.qid });
  };
  const onKey = (event: KeyboardEvent<HTMLTableRowElement>, query: QueryAgreement): void => {
    // The row's button gets Enter and Space itself (a click, which bubbles to the row).
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open(query);
    }
  };
  return (
    <section className="card" aria-labelledby="queries-heading">
      <h2 id="queries-heading">Queries by disagreement</h2>
      <p className="description">Among the people's labels; click a query with disagreements to adjudicate them.</p>
      <div className="table-scroll">
        <table className="queries" data-testid="queries">
          <thead>
            <tr>
              <th scope="col">query</th>
              <th scope="col" className="number" title="pairs labelled by two people or more">
                pairs
              </th>
              <th scope="col" className="number">
                disagreements
              </th>
              <th scope="col" className="number">
                agreement
              </th>
              <th scope="col" className="number">
                α ({report.alphaLevel})
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((query) => (
              <tr
                key={query.qid}
                className={query.disagreements > 0 ? 'actionable' : undefined}
                data-testid="query-row"
                data-qid={query.qid}
                onClick={() => open(query)}
                onKeyDown={(e) => onKey(e, query)}
              >
                <th scope="row">
                  {query.disagreements > 0 ? (
                    <button
                      type="button"
                      className="link-button"
                      title={`Adjudicate the ${plural(query.disagreements, 'disagreement')} of query ${query.qid}`}
                    >
                      {query.qid}
                    </button>
                  ) : (
                    query.qid
                  )}
                </th>
                <td className="number">{count(query.units)}</td>
                <td className="number">{count(query.disagreements)}</td>
                <td
                  className="number"
                  title={
                    query.percent === null
                      ? `undefined because ${query.reasons?.percent ?? 'there are too few labels'}`
                      : undefined
                  }
                >
                  {percent(query.percent)}
                </td>
                <td
                  className="number"
                  title={
                    query.alpha === null
                      ? `undefined because ${query.reasons?.alpha ?? 'there are too few labels'}`
                      : undefined
                  }
                >
                  {fixed(query.alpha)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.queries.length > queriesShown && (
        <VscodeButton secondary onClick={() => setShowAll(!showAll)} data-testid="queries-all">
          {showAll ? `Show the first ${queriesShown}` : `Show all ${count(report.queries.length)} queries`}
        </VscodeButton>
      )}
    </section>
  );
}
