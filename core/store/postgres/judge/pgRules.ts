// Kept for the modules that import these names from here: the one annotator rule (annotators.ts) and a study's id
// by name (postgresStudies.ts studyIdIn), under their first names. New code imports them from where they live.
export { ensureAnnotatorId as ensureAnnotatorIdPg } from '../annotators.ts';
export { studyIdIn as studyIdPg } from '../postgresStudies.ts';
