// trec_eval's 11pt_avg (m_11pt_avg.c): the mean of iprec_at_recall at the 11 standard recall levels. Obsolete
// (map estimates the same area better), kept for comparing old runs.
import type { TrecMeasure } from '../trecMeasure.ts';
import { elevenRecallLevels, interpolatedPrecisions } from './interpolatedPrecisionAtRecall.ts';

export const elevenPointAverage: TrecMeasure = {
  name: '11pt_avg',
  help:
    'Interpolated precision averaged over the 11 recall levels 0.0, 0.1, …, 1.0 (see iprec_at_recall). ' +
    'Obsolete: only for comparing with old runs; map measures the same area.',
  kind: 'float',
  // Other levels (-m 11pt_avg.0.2,0.5,0.8, version 8's 3-point average) rename the line 11pt_avg_0.2,0.5,0.8.
  defaultNumbers: elevenRecallLevels,
  anyCountOfNumbers: true,
  compute(query, options, levels) {
    // Levels as given, unsorted as trec_eval keeps them: its walk then reads the levels it reads, and so does ours.
    const values = interpolatedPrecisions(query, options.relevanceLevel, levels);
    // Summed from the highest level down, as trec_eval adds them, so that the mean rounds the same way.
    let sum = 0;
    for (let i = values.length - 1; i >= 0; i--) sum += values[i]!;
    return sum / levels.length;
  },
};
