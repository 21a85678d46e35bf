// Expected calibration error (Naeini et al. 2015; Guo et al. 2017) of a judge's vote confidence — the share of its
// votes that gave the label it settled on — against whether that label is the people's: the pairs fall into
// `bins` equal-width bins of [0, 1] by confidence (the last bin closed at 1), and ECE = Σ (pairs in bin / pairs) ·
// |accuracy in bin − mean confidence in bin|. 0 is perfectly calibrated. A judge that votes once has no confidence
// to calibrate (every label would be "sure"): undefined, not 0.
import type { CalibrationBin, JudgeCalibration } from './judgeQualityTypes.ts';

export const defaultCalibrationBins = 10;

/** One pair both labelled: the judge's confidence (null: it voted once, or nothing parsed) and whether it agreed. */
export interface ConfidentLabel {
  confidence: number | null;
  correct: boolean;
}

export function calibrationError(labels: readonly ConfidentLabel[], bins = defaultCalibrationBins): JudgeCalibration {
  if (!Number.isInteger(bins) || bins < 1)
    throw new RangeError(`calibration bins must be a whole number ≥ 1, not ${bins}`);
  const sums = Array.from({ length: bins }, () => ({ pairs: 0, confidence: 0, correct: 0 }));
  let pairs = 0;
  for (const l of labels) {
    if (l.confidence === null) continue;
    const bin = sums[Math.min(bins - 1, Math.max(0, Math.floor(l.confidence * bins)))]!;
    bin.pairs++;
    bin.confidence += l.confidence;
    bin.correct += l.correct ? 1 : 0;
    pairs++;
  }
  const shown: CalibrationBin[] = sums.map((s, i) => ({
    from: i / bins,
    to: (i + 1) / bins,
    pairs: s.pairs,
    meanConfidence: s.pairs === 0 ? null : s.confidence / s.pairs,
    accuracy: s.pairs === 0 ? null : s.correct / s.pairs,
  }));
  if (pairs === 0) {
    const reason =
      labels.length === 0
        ? 'no pair both the judge and the people labelled'
        : 'the judge has no vote confidence on the shared pairs (it votes once per pair: `votes 1`)';
    return { value: null, reason, bins: shown, pairs: 0 };
  }
  let ece = 0;
  for (const b of shown) {
    if (b.pairs > 0) ece += (b.pairs / pairs) * Math.abs(b.accuracy! - b.meanConfidence!);
  }
  return { value: ece, bins: shown, pairs };
}
