// The Evaluate view: the study's pooled runs × measures (sortable), one run's per-query values, breakdowns by
// instruction type and subset, and two runs compared — paired randomisation and t-test per measure, the per-query
// differences as a chart and a table. A measure undefined for a query (p-MRR without a violating document) is left
// out of its means, as the CLI leaves it out, and sorts last.
import { useEffect, useSyncExternalStore } from 'react';
import type { EvaluateReport, RunComparison } from '../../core/metrics/evaluationTypes.ts';
import type { EvaluateController, EvaluateSnapshot } from './evaluateController.ts';

const shown = (value: number | null | undefined, digits = 4): string =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
        .toFixed(digits)
        .replace(/^-(0\.0*)$/, '$1')
        .replace(/^-/, '−')
    : '—';
/** `1→0, 2→1`: the scale's declared gains, by value. */
const scaleGainsText = (gains: Record<string, number>): string =>
  Object.entries(gains)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([value, gain]) => `${value}→${gain}`)
    .join(', ');
const signed = (value: number): string => (value > 0 ? `+${shown(value)}` : shown(value));

/** The mean of the defined values (undefined when none is). */
function meanOf(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : defined.reduce((s, v) => s + v, 0) / defined.length;
}

/** Orders values best first (or worst first), undefined ones last either way. */
function byValue(descending: boolean) {
  return (x: number | undefined, y: number | undefined): number =>
    x === undefined ? (y === undefined ? 0 : 1) : y === undefined ? -1 : descending ? y - x : x - y;
}

export function EvaluateApp({ controller }: { controller: EvaluateController }) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.snapshot);
  useEffect(() => controller.start(), [controller]);
  const { report, error, loading } = snapshot;
  if (!report) {
    return (
      <main className="evaluate-view">
        {error ? (
          <div role="alert" className="error-message" data-testid="error">
            {error}
          </div>
        ) : (
          <p className="description">Evaluating…</p>
        )}
      </main>
    );
  }
  return (
    <main className="evaluate-view" data-testid="evaluate-view">
      <header className="evaluate-header">
        <h1>Evaluate: {report.study}</h1>
        <label className="control">
          Labels from{' '}
          <select data-testid="source" value={report.from} onChange={(e) => controller.setFrom(e.target.value)}>
            {report.sources.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {report.runs.length > 1 && (
          <label className="control" title="IRS and p-MRR compare each run with this query-only run">
            Baseline{' '}
            <select
              data-testid="baseline"
              value={report.baseline ?? ''}
              onChange={(e) => controller.setBaseline(e.target.value === '' ? undefined : e.target.value)}
            >
              <option value="">none (no IRS, p-MRR)</option>
              {report.runs.map((r) => (
                <option key={r.run} value={r.run}>
                  {r.run}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="description" data-testid="label-count">
          {report.labels.toLocaleString('en-US')} judgments · trec_eval -c
          {report.gains && ` · nDCG gains from the scale (${scaleGainsText(report.gains)})`} ·{' '}
          {loading ? 'evaluating…' : 'up to date'}
        </span>
      </header>
      {error && (
        <div role="alert" className="error-message" data-testid="error">
          {error}
        </div>
      )}
      {report.instructionError && (
        <div role="alert" className="error-message" data-testid="instruction-error">
          IRS and p-MRR: {report.instructionError}
        </div>
      )}
      {report.runs.length === 0 ? (
        <p className="empty" data-testid="empty">
          {report.labels === 0
            ? `No labels from ${report.from} yet: label some pairs, or pick another source.`
            : 'The study pools no run to evaluate (add a `pool "run.trec" depth k`).'}
        </p>
      ) : (
        <>
          <RunsTable report={report} snapshot={snapshot} controller={controller} />
          {snapshot.drill && <RunQueries report={report} snapshot={snapshot} run={snapshot.drill} />}
          <Breakdown report={report} snapshot={snapshot} />
          <Comparison report={report} snapshot={snapshot} controller={controller} />
        </>
      )}
    </main>
  );
}

function RunsTable({
  report,
  snapshot,
  controller,
}: {
  report: EvaluateReport;
  snapshot: EvaluateSnapshot;
  controller: EvaluateController;
}) {
  const { sortBy, ascending } = snapshot;
  const order = byValue(!ascending);
  const runs = sortBy ? [...report.runs].sort((x, y) => order(x.all[sortBy], y.all[sortBy])) : report.runs;
  return (
    <section className="card">
      <h2>Runs × measures</h2>
      <table className="runs" data-testid="runs-table">
        <thead>
          <tr>
            <th scope="col">run</th>
            {report.measures.map((m) => (
              <th key={m} scope="col" aria-sort={sortBy === m ? (ascending ? 'ascending' : 'descending') : 'none'}>
                <button type="button" className="sort" data-testid={`sort-${m}`} onClick={() => controller.sortBy(m)}>
                  {m}
                  {sortBy === m ? (ascending ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr
              key={run.run}
              data-testid="run-row"
              data-run={run.run}
              className={snapshot.drill === run.run ? 'selected' : ''}
              aria-selected={snapshot.drill === run.run}
            >
              <th scope="row" title={`run tag ${run.runid}`}>
                <button
                  type="button"
                  className="link"
                  data-testid="drill"
                  title="Show this run's value of each query"
                  onClick={() => controller.drillInto(run.run)}
                >
                  {run.run}
                </button>
              </th>
              {report.measures.map((m) => (
                <td key={m} className="number" data-measure={m}>
                  {shown(run.all[m])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="description">
        Over the {report.queries.length} queries with labels; a query a run does not answer counts as 0. Click a measure
        to sort (again to reverse), a run to see its queries.
      </p>
    </section>
  );
}

/** One run's value of the detailed measure for each query, worst first: where a run fails. */
function RunQueries({ report, snapshot, run }: { report: EvaluateReport; snapshot: EvaluateSnapshot; run: string }) {
  const measure = snapshot.measure ?? report.measures[0]!;
  const evaluated = report.runs.find((r) => r.run === run);
  if (!evaluated) return null;
  const worstFirst = byValue(false);
  const rows = report.queries
    .map((q) => ({ ...q, value: evaluated.perQuery[q.qid]?.[measure] }))
    .sort((x, y) => worstFirst(x.value, y.value) || (x.qid < y.qid ? -1 : 1));
  return (
    <section className="card" data-testid="run-queries">
      <h2>
        {run}: {measure} per query <span className="description">(worst first; click a measure to change it)</span>
      </h2>
      <table>
        <thead>
          <tr>
            <th scope="col">query</th>
            <th scope="col">type</th>
            <th scope="col">subset</th>
            <th scope="col">{measure}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.qid} data-testid="run-query-row" data-qid={r.qid}>
              <th scope="row">{r.qid}</th>
              <td>{r.type ?? ''}</td>
              <td>{r.subset ?? ''}</td>
              <td className="number">{shown(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Mean of the measure over the queries of each instruction type and subset, per run. */
function Breakdown({ report, snapshot }: { report: EvaluateReport; snapshot: EvaluateSnapshot }) {
  const measure = snapshot.measure ?? report.measures[0]!;
  const groups = new Map<string, string[]>();
  for (const q of report.queries) {
    for (const key of [q.type && `type ${q.type}`, q.subset && `subset ${q.subset}`]) {
      if (!key) continue;
      groups.set(key, [...(groups.get(key) ?? []), q.qid]);
    }
  }
  if (groups.size === 0) return null;
  return (
    <section className="card">
      <h2>
        {measure} by instruction type and subset <span className="description">(macro means)</span>
      </h2>
      <table data-testid="breakdown">
        <thead>
          <tr>
            <th scope="col">group</th>
            <th scope="col">queries</th>
            {report.runs.map((r) => (
              <th key={r.run} scope="col">
                {r.run}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...groups]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([group, qids]) => (
              <tr key={group} data-testid="breakdown-row" data-group={group}>
                <th scope="row">{group}</th>
                <td className="number">{qids.length}</td>
                {report.runs.map((r) => (
                  <td key={r.run} className="number">
                    {shown(meanOf(qids.map((q) => r.perQuery[q]?.[measure])))}
                  </td>
                ))}
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}

function Comparison({
  report,
  snapshot,
  controller,
}: {
  report: EvaluateReport;
  snapshot: EvaluateSnapshot;
  controller: EvaluateController;
}) {
  const { a, b, comparison, measure } = snapshot;
  const runs = report.runs.map((r) => r.run);
  if (runs.length < 2) {
    return (
      <section className="card">
        <h2>Compare two runs</h2>
        <p className="description">The study pools one run: pool another to compare them.</p>
      </section>
    );
  }
  return (
    <section className="card" data-testid="comparison">
      <h2>Compare two runs</h2>
      <div className="pickers">
        <label className="control">
          A{' '}
          <select data-testid="run-a" value={a} onChange={(e) => controller.setRuns(e.target.value, b ?? runs[1]!)}>
            {runs.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <label className="control">
          B{' '}
          <select data-testid="run-b" value={b} onChange={(e) => controller.setRuns(a ?? runs[0]!, e.target.value)}>
            {runs.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
      </div>
      {snapshot.comparisonError && (
        <div role="alert" className="error-message">
          {snapshot.comparisonError}
        </div>
      )}
      {a === b && <p className="description">Pick two different runs.</p>}
      {a !== b && !comparison && !snapshot.comparisonError && (
        <p className="description" data-testid="comparing">
          Comparing…
        </p>
      )}
      {comparison && <Tests comparison={comparison} measure={measure} controller={controller} />}
      {comparison && measure && <Deltas comparison={comparison} measure={measure} report={report} />}
    </section>
  );
}

function Tests({
  comparison,
  measure,
  controller,
}: {
  comparison: RunComparison;
  measure: string | undefined;
  controller: EvaluateController;
}) {
  return (
    <table data-testid="tests">
      <thead>
        <tr>
          <th scope="col">measure</th>
          <th scope="col">B − A</th>
          <th scope="col">randomisation p</th>
          <th scope="col">t-test p</th>
          <th scope="col">queries</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(comparison.tests).map(([name, test]) => {
          const significant = test.randomisationP !== null && test.randomisationP < 0.05;
          return (
            <tr
              key={name}
              data-testid="test-row"
              data-measure={name}
              className={name === measure ? 'selected' : ''}
              aria-selected={name === measure}
            >
              <th scope="row">
                <button type="button" className="link" onClick={() => controller.setMeasure(name)}>
                  {name}
                </button>
              </th>
              <td className={`number ${test.meanDifference > 0 ? 'better' : test.meanDifference < 0 ? 'worse' : ''}`}>
                {signed(test.meanDifference)}
              </td>
              <td className="number" data-testid="p-rand">
                {shown(test.randomisationP)}
                {significant ? ' *' : ''}
              </td>
              <td className="number">{shown(test.tTestP)}</td>
              <td className="number">{test.n}</td>
            </tr>
          );
        })}
      </tbody>
      <caption className="description">
        Paired over the queries; randomisation test with 10,000 sign flips (seeded), two-sided; * p &lt; 0.05.
      </caption>
    </table>
  );
}

/** The per-query differences of one measure: bars (largest first) and the table to drill into. */
function Deltas({
  comparison,
  measure,
  report,
}: {
  comparison: RunComparison;
  measure: string;
  report: EvaluateReport;
}) {
  const rows = comparison.deltas[measure] ?? [];
  const width = 560;
  const barHeight = 14;
  const height = Math.max(barHeight, rows.length * barHeight);
  const largest = Math.max(1e-9, ...rows.map((r) => Math.abs(r.delta)));
  const middle = width / 2;
  const types = new Map(report.queries.map((q) => [q.qid, q.type]));
  return (
    <div className="deltas">
      <h3>
        {measure}: B − A per query <span className="description">(largest first)</span>
      </h3>
      <svg
        data-testid="delta-chart"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`per-query differences of ${measure}`}
      >
        <line x1={middle} x2={middle} y1={0} y2={height} className="axis" />
        {rows.map((r, i) => {
          const length = (Math.abs(r.delta) / largest) * (middle - 4);
          return (
            <rect
              key={r.qid}
              data-testid="delta-bar"
              data-qid={r.qid}
              x={r.delta >= 0 ? middle : middle - length}
              y={i * barHeight + 2}
              width={Math.max(length, r.delta === 0 ? 0 : 1)}
              height={barHeight - 4}
              className={r.delta >= 0 ? 'bar better' : 'bar worse'}
            >
              <title>{`${r.qid}: A ${shown(r.a)}, B ${shown(r.b)}, B − A ${signed(r.delta)}`}</title>
            </rect>
          );
        })}
      </svg>
      <table data-testid="per-query">
        <thead>
          <tr>
            <th scope="col">query</th>
            <th scope="col">type</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">B − A</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.qid} data-testid="query-row" data-qid={r.qid}>
              <th scope="row">{r.qid}</th>
              <td>{types.get(r.qid) ?? ''}</td>
              <td className="number">{shown(r.a)}</td>
              <td className="number">{shown(r.b)}</td>
              <td className={`number ${r.delta > 0 ? 'better' : r.delta < 0 ? 'worse' : ''}`}>{signed(r.delta)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
