// The Agreement view's Judges section: for each LLM judge (llm:<model>@<prompt hash>), how it does against the
// people's labels — the gate first (may it fill unjudged pairs?), then κ with its interval, accuracy, calibration,
// cost per 1,000 pairs, the correlation of the system rankings its qrels give with the people's, its confusion
// matrix and the systems as each qrels ranks them. Everything is the host's JudgeQualityReport, shown as text.
import { useEffect, useState } from 'react';
import type { JudgeQuality, JudgeQualityReport } from '../../core/judge/quality/judgeQualityTypes.ts';
import { VscodeButton } from '../common/elements.ts';
import type { AgreementController, JudgesState } from './agreementController.ts';
import { count, fixed, percent, plural, undefinedText } from './agreementFormat.ts';
import { costPer1000Text, gateCheckText, gateText, qualityText } from './judgeQualityFormat.ts';

type ScaleNames = { value: number; name: string }[];

export function JudgesSection({
  judges,
  scale,
  controller,
}: {
  judges: JudgesState;
  scale: ScaleNames;
  controller: AgreementController;
}) {
  const { report, error, loading } = judges;
  return (
    <section className="card judges" aria-labelledby="judges-heading" data-testid="judges" aria-busy={loading}>
      <div className="card-title">
        <h2 id="judges-heading">Judges</h2>
        {report && <MeasurePicker shown={report.options.measure} controller={controller} />}
        <span className="description" aria-live="polite" data-testid="judges-loading">
          {loading ? 'Evaluating the judges…' : ''}
        </span>
      </div>
      {error && (
        <>
          <p role="alert" className="error-message" data-testid="judges-error">
            {error}
          </p>
          <VscodeButton secondary data-testid="judges-retry" onClick={() => controller.refresh()}>
            Try again
          </VscodeButton>
        </>
      )}
      {report && <JudgesReport report={report} scale={scale} />}
    </section>
  );
}

/** "Rank systems by [map]": any measure name `qrels-studio eval -m` takes; Enter or Rank asks again. */
function MeasurePicker({ shown, controller }: { shown: string; controller: AgreementController }) {
  const [text, setText] = useState(shown);
  // A new report (another measure, or the study's default after a refresh) shows its measure.
  useEffect(() => setText(shown), [shown]);
  return (
    <form
      className="control judges-measure"
      onSubmit={(event) => {
        event.preventDefault();
        controller.setJudgesMeasure(text);
      }}
    >
      <label>
        Rank systems by{' '}
        <input
          data-testid="judges-measure"
          value={text}
          size={12}
          spellCheck={false}
          onChange={(event) => setText(event.target.value)}
        />
      </label>{' '}
      <VscodeButton secondary data-testid="judges-rank" onClick={() => controller.setJudgesMeasure(text)}>
        Rank
      </VscodeButton>
    </form>
  );
}

function JudgesReport({ report, scale }: { report: JudgeQualityReport; scale: ScaleNames }) {
  if (report.judges.length === 0) {
    return (
      <p className="description" data-testid="no-judges">
        No LLM judge has labelled a pair of study '{report.study}' yet. Run one ("Qrels Studio: Run LLM judge") to see
        how it does against the people's labels.
      </p>
    );
  }
  return (
    <>
      <p className="description" data-testid="judges-basis">
        Each judge against the people's labels ({report.peopleSource}, {plural(report.peoplePairs, 'pair')}); systems
        ranked by {report.options.measure}.
      </p>
      {report.judges.map((judge) => (
        <JudgeCard key={judge.judge} judge={judge} scale={scale} />
      ))}
    </>
  );
}

function JudgeCard({ judge, scale }: { judge: JudgeQuality; scale: ScaleNames }) {
  const gateState = !judge.gate.declared ? 'none' : judge.gate.passed ? 'passed' : 'failed';
  const { kappa, rankings } = judge;
  return (
    <article className="judge-card" data-testid="judge" data-judge={judge.judge} data-gate={gateState}>
      <h3>
        {judge.judge} <span className="badge">LLM</span>{' '}
        <span className="description">{plural(judge.sharedPairs, 'pair')} shared with the people</span>
      </h3>
      <div className={`gate gate-${gateState}`} data-testid="judge-gate">
        <span className="target-mark" aria-hidden="true">
          {gateState === 'passed' ? '✓' : gateState === 'failed' ? '✗' : '·'}
        </span>{' '}
        {gateText(judge.gate)}
        {judge.gate.declared && (
          <ul className="gate-checks">
            {judge.gate.checks.map((check) => (
              <li
                key={`${check.condition.metric}${check.condition.operator}${check.condition.value}`}
                data-testid="gate-check"
                data-passed={String(check.passed)}
              >
                {check.passed ? '✓' : '✗'} {gateCheckText(check)}
              </li>
            ))}
          </ul>
        )}
        {gateState === 'none' && (
          <p className="description">
            Without <code>accept when …</code> in the judge block, exports <code>from human-else-llm</code> use this
            judge unchecked.
          </p>
        )}
      </div>
      <table className="judge-stats">
        <tbody>
          <tr data-testid="judge-stat" data-stat="kappa">
            <th scope="row">Cohen's κ</th>
            <td>
              <span className="number">{qualityText(kappa)}</span>
              {kappa.value !== null && (
                <span className="description">
                  {' '}
                  {kappa.interval
                    ? `${Math.round(kappa.level * 100)} % CI [${fixed(kappa.interval[0])}, ${fixed(kappa.interval[1])}]`
                    : 'no confidence interval (κ is undefined on most resamples)'}{' '}
                  ({count(kappa.samples)} resamples)
                </span>
              )}
            </td>
          </tr>
          <tr data-testid="judge-stat" data-stat="accuracy">
            <th scope="row">Accuracy</th>
            <td>
              {judge.accuracy.value === null
                ? qualityText(judge.accuracy)
                : `${percent(judge.accuracy.value)} of ${plural(judge.sharedPairs, 'pair')}`}
            </td>
          </tr>
          <tr data-testid="judge-stat" data-stat="ece">
            <th scope="row" title="expected calibration error of the judge's vote confidence (share of votes agreeing)">
              Calibration (ECE)
            </th>
            <td>
              {qualityText(judge.calibration)}
              {judge.calibration.value !== null && (
                <span className="description">
                  {' '}
                  over {plural(judge.calibration.pairs, 'pair')}, {judge.calibration.bins.length} bins
                </span>
              )}
            </td>
          </tr>
          <tr data-testid="judge-stat" data-stat="cost">
            <th scope="row">Cost</th>
            <td>
              {costPer1000Text(judge.cost.costPer1000Pairs)}
              <span className="description">
                {' '}
                ({plural(judge.cost.calls, 'call')}, {plural(judge.cost.failed, 'failure')},{' '}
                {count(judge.cost.inputTokens + judge.cost.outputTokens)} tokens
                {judge.cost.pricedCalls > 0 && judge.cost.pricedCalls < judge.cost.calls
                  ? `; ${plural(judge.cost.calls - judge.cost.pricedCalls, 'call')} without a price not counted`
                  : ''}
                )
              </span>
            </td>
          </tr>
          <tr data-testid="judge-stat" data-stat="tau">
            <th scope="row">Kendall's τ of system rankings</th>
            <td>
              {rankings ? qualityText(rankings.tau) : `${undefinedText}: ${judge.rankingsReason ?? 'not computed'}`}
            </td>
          </tr>
          <tr data-testid="judge-stat" data-stat="tau_ap">
            <th scope="row">τ_ap {rankings ? `(${rankings.tauApMode})` : ''}</th>
            <td>
              {rankings ? qualityText(rankings.tauAp) : `${undefinedText}: ${judge.rankingsReason ?? 'not computed'}`}
            </td>
          </tr>
          {rankings && (
            <tr data-testid="judge-stat" data-stat="rankings-basis">
              <th scope="row">Rankings by</th>
              <td>
                {rankings.measure} over {plural(rankings.systems.length, 'run')} (people's qrels{' '}
                {plural(rankings.peopleQrels, 'pair')}, the judge's {plural(rankings.judgeQrels, 'pair')}; pairs rule{' '}
                <code>{rankings.pairs}</code>)
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <div className="judge-details">
        <JudgeConfusionTable judge={judge} scale={scale} />
        {rankings && rankings.systems.length > 0 && (
          <div className="table-scroll">
            <table className="judge-systems" data-testid="judge-systems">
              <caption className="description">Systems by {rankings.measure}</caption>
              <thead>
                <tr>
                  <th scope="col">run</th>
                  <th scope="col" className="number">
                    people
                  </th>
                  <th scope="col" className="number">
                    rank
                  </th>
                  <th scope="col" className="number">
                    judge
                  </th>
                  <th scope="col" className="number">
                    rank
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...rankings.systems]
                  .sort((x, y) => x.peopleRank - y.peopleRank)
                  .map((system) => (
                    <tr key={system.run} data-testid="judge-system" data-run={system.runid}>
                      <th scope="row" title={system.run}>
                        {system.runid}
                      </th>
                      <td className="number">{fixed(system.people, 4)}</td>
                      <td className="number">{system.peopleRank}</td>
                      <td className="number">{fixed(system.judge, 4)}</td>
                      <td className="number">{system.judgeRank}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </article>
  );
}

function JudgeConfusionTable({ judge, scale }: { judge: JudgeQuality; scale: ScaleNames }) {
  const { labels, counts, pairs } = judge.confusion;
  const name = (value: number): string => scale.find((s) => s.value === value)?.name ?? String(value);
  if (pairs === 0) {
    return (
      <p className="description" data-testid="judge-confusion-empty">
        The judge and the people labelled no pair in common.
      </p>
    );
  }
  return (
    <div className="table-scroll">
      <table className="confusion" data-testid="judge-confusion" data-judge={judge.judge}>
        <caption className="description">Rows: the people's labels; columns: the judge's.</caption>
        <thead>
          <tr>
            <th scope="col" className="corner">
              people ↓ · judge →
            </th>
            {labels.map((v) => (
              <th key={v} scope="col" className="value-column" title={name(v)}>
                {v}
                <span className="visually-hidden"> {name(v)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {counts.map((row, i) => (
            <tr key={labels[i]}>
              <th scope="row" data-testid="judge-confusion-row">
                {labels[i]} {name(labels[i]!)}
              </th>
              {row.map((c, j) => (
                <td
                  key={labels[j]}
                  className={`number count-cell${i === j ? ' agree' : ''}`}
                  data-testid="judge-confusion-cell"
                >
                  {count(c)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
