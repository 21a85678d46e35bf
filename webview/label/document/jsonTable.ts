// The Label view's JSON tables are read by core (the judge's prompts render them as Markdown too).
export {
  type JsonTable,
  type JsonTableResult,
  jsonErrorOffset,
  parseJsonTable,
} from '../../../core/labelling/jsonTable.ts';
