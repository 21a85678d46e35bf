// The trend of the first headline statistic as labels came in: an inline SVG line chart (labels given → value), the
// study's target as a dashed line. Points where the statistic is undefined leave a gap and say why in their tooltip.
import type { TrendPoint } from '../../core/agreement/agreementTypes.ts';
import { count, fixed } from './agreementFormat.ts';

const width = 460;
const height = 180;
const margin = { top: 12, right: 16, bottom: 28, left: 44 };

export function TrendChart({ trend, target }: { trend: TrendPoint[]; target?: number | undefined }) {
  if (trend.length === 0) {
    return (
      <p className="description" data-testid="trend-empty">
        No labels from people yet.
      </p>
    );
  }
  const defined = trend.filter((p): p is TrendPoint & { value: number } => p.value !== null);
  if (defined.length === 0) {
    return (
      <p className="reason" data-testid="trend-undefined">
        — undefined at every point because {trend.at(-1)?.reason ?? 'there are not enough labels'}.
      </p>
    );
  }
  const values = defined.map((p) => p.value);
  const low = Math.min(0, ...values, ...(target === undefined ? [] : [target]));
  const high = Math.max(1, ...values);
  const maxLabels = Math.max(1, ...trend.map((p) => p.labels));
  const x = (labels: number): number => margin.left + (labels / maxLabels) * (width - margin.left - margin.right);
  const y = (value: number): number =>
    margin.top + ((high - value) / (high - low)) * (height - margin.top - margin.bottom);
  // One path segment per run of defined points.
  let path = '';
  let pen = false;
  for (const point of trend) {
    if (point.value === null) {
      pen = false;
      continue;
    }
    path += `${pen ? 'L' : 'M'}${x(point.labels).toFixed(1)},${y(point.value).toFixed(1)}`;
    pen = true;
  }
  const ticks = [...new Set([low, 0, 0.5, 1].filter((t) => t >= low && t <= high))];
  const last = trend.at(-1)!;
  const gaps = trend.length - defined.length;
  return (
    <>
      <svg
        className="trend"
        data-testid="trend"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Trend: ${fixed(last.value)} after ${count(last.labels)} labels${target === undefined ? '' : `, target ${fixed(target)}`}`}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line className="grid" x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} />
            <text className="axis-label" x={margin.left - 6} y={y(t) + 4} textAnchor="end">
              {fixed(t, t === Math.round(t * 2) / 2 ? 1 : 2)}
            </text>
          </g>
        ))}
        <line
          className="axis"
          x1={margin.left}
          x2={width - margin.right}
          y1={height - margin.bottom}
          y2={height - margin.bottom}
        />
        <text className="axis-label" x={margin.left} y={height - 8} textAnchor="start">
          0
        </text>
        <text className="axis-label" x={width - margin.right} y={height - 8} textAnchor="end">
          {count(maxLabels)} labels
        </text>
        {target !== undefined && (
          <g data-testid="trend-target">
            <line
              className="target-line"
              x1={margin.left}
              x2={width - margin.right}
              y1={y(target)}
              y2={y(target)}
              strokeDasharray="6 4"
            />
            <text className="axis-label target-label" x={width - margin.right} y={y(target) - 4} textAnchor="end">
              target {fixed(target)}
            </text>
          </g>
        )}
        <path className="trend-line" d={path} />
        {trend.map((point) =>
          point.value === null ? null : (
            <circle
              key={point.labels}
              className="trend-point"
              data-testid="trend-point"
              cx={x(point.labels)}
              cy={y(point.value)}
              r={3}
            >
              <title>
                {fixed(point.value)} after {count(point.labels)} labels ({point.at})
              </title>
            </circle>
          ),
        )}
        {trend.map((point) =>
          point.value === null ? (
            <g key={point.labels} data-testid="trend-gap">
              <line
                className="gap-mark"
                x1={x(point.labels)}
                x2={x(point.labels)}
                y1={height - margin.bottom - 4}
                y2={height - margin.bottom + 4}
              />
              <title>
                undefined after {count(point.labels)} labels because {point.reason ?? 'there are not enough labels'}
              </title>
            </g>
          ) : null,
        )}
      </svg>
      {gaps > 0 && (
        <p className="description" data-testid="trend-gaps">
          Marks on the axis: {gaps} point{gaps === 1 ? '' : 's'} where the statistic is undefined because{' '}
          {trend.find((p) => p.value === null)?.reason ?? 'there are too few labels'}.
        </p>
      )}
    </>
  );
}
