// Format and kind detection, as the record linter's public API: the format from the first lines (core/data), the
// kind from field names.
export { detectRecordFormat } from '../../data/recordFormat.ts';
export { detectRecordKind } from './recordKinds.ts';
