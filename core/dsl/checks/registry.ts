// Every semantic check, one line each. Adding a check: one module in this folder plus one line here.
import { adjudicatorAnnotator } from './adjudicatorAnnotator.ts';
import { agreementLevel } from './agreementLevel.ts';
import { agreementTarget } from './agreementTarget.ts';
import { aspectLevels } from './aspectLevels.ts';
import type { StudyCheck } from './check.ts';
import { deriveFunction } from './deriveFunction.ts';
import { deriveIndex } from './deriveIndex.ts';
import { deriveNames } from './deriveNames.ts';
import { deriveUnbounded } from './deriveUnbounded.ts';
import { deriveValues } from './deriveValues.ts';
import { duplicateAnnotator } from './duplicateAnnotator.ts';
import { duplicateAspect } from './duplicateAspect.ts';
import { duplicateBlockName } from './duplicateBlockName.ts';
import { duplicateJudge } from './duplicateJudge.ts';
import { duplicateRole } from './duplicateRole.ts';
import { duplicateRubricName } from './duplicateRubricName.ts';
import { duplicateScaleKey } from './duplicateScaleKey.ts';
import { duplicateScaleValue } from './duplicateScaleValue.ts';
import { duplicateTaxonomyCode } from './duplicateTaxonomyCode.ts';
import { duplicateVerdict } from './duplicateVerdict.ts';
import { exportRequirements } from './exportRequirements.ts';
import { judgeEndpoint } from './judgeEndpoint.ts';
import { judgeGateRange } from './judgeGateRange.ts';
import { judgeNumbers } from './judgeNumbers.ts';
import { keyLength } from './keyLength.ts';
import { missingRole } from './missingRole.ts';
import { missingStatement } from './missingStatement.ts';
import { navigationKey } from './navigationKey.ts';
import { overlapRange } from './overlapRange.ts';
import { poolDepth } from './poolDepth.ts';
import { repeatedGateMetric } from './repeatedGateMetric.ts';
import { repeatedJudgeOption } from './repeatedJudgeOption.ts';
import { repeatedStatement } from './repeatedStatement.ts';
import { repeatedStore } from './repeatedStore.ts';
import { rubricLevels } from './rubricLevels.ts';
import { scaleSize } from './scaleSize.ts';
import { storePassword } from './storePassword.ts';
import { unknownMeasure } from './unknownMeasure.ts';
import { unknownRole } from './unknownRole.ts';
import { verdictKey } from './verdictKey.ts';

export const studyChecks: readonly StudyCheck[] = [
  duplicateBlockName,
  missingStatement,
  repeatedStatement,
  unknownRole,
  unknownMeasure,
  missingRole,
  duplicateRole,
  scaleSize,
  duplicateScaleValue,
  duplicateScaleKey,
  keyLength,
  navigationKey,
  duplicateAspect,
  deriveNames,
  deriveFunction,
  deriveIndex,
  deriveValues,
  deriveUnbounded,
  aspectLevels,
  duplicateAnnotator,
  adjudicatorAnnotator,
  overlapRange,
  duplicateJudge,
  judgeEndpoint,
  judgeNumbers,
  judgeGateRange,
  repeatedJudgeOption,
  repeatedGateMetric,
  agreementLevel,
  agreementTarget,
  poolDepth,
  exportRequirements,
  duplicateTaxonomyCode,
  duplicateRubricName,
  rubricLevels,
  duplicateVerdict,
  verdictKey,
  repeatedStore,
  storePassword,
];

export function findStudyCheck(code: string): StudyCheck | undefined {
  return studyChecks.find((check) => check.code === code);
}
