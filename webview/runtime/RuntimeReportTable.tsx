// The runtime report as a two-column table (what, value); each row carries the report field it shows.

import type { ReactNode } from 'react';
import type { RuntimeReport } from '../../core/runtime/runtimeTypes.ts';
import {
  VscodeTable,
  VscodeTableBody,
  VscodeTableCell,
  VscodeTableHeader,
  VscodeTableHeaderCell,
  VscodeTableRow,
} from '../common/elements.ts';

interface Row {
  field: keyof RuntimeReport;
  label: string;
  value: ReactNode;
}

function rows(report: RuntimeReport): Row[] {
  return [
    { field: 'productVersion', label: 'Qrels Studio', value: report.productVersion },
    { field: 'host', label: 'Host', value: report.host },
    { field: 'node', label: 'Node.js', value: report.node },
    { field: 'napi', label: 'N-API', value: report.napi },
    { field: 'abi', label: 'ABI', value: report.abi },
    { field: 'platform', label: 'Platform', value: `${report.platform}-${report.arch}` },
    { field: 'sqliteVersion', label: 'SQLite', value: report.sqliteVersion },
    { field: 'journalMode', label: 'Journal mode', value: report.journalMode },
    {
      field: 'walReadBack',
      label: 'WAL read-back',
      value: report.walReadBack ? (
        <span className="ok wrap">ok: a second connection read the committed row</span>
      ) : (
        <span className="failed wrap">FAILED: a second connection did not see the committed row</span>
      ),
    },
    {
      field: 'nativeBinding',
      label: 'SQLite binary',
      value: <span className="mono wrap">{report.nativeBinding}</span>,
    },
  ];
}

/** Label column fixed, value column the rest (vscode-table takes px, % or 'auto'; a stable array, set once). */
const columns = ['160px', 'auto'];

export function RuntimeReportTable({ report }: { report: RuntimeReport }) {
  return (
    <VscodeTable zebra borderedRows columns={columns} aria-label="Runtime report">
      <VscodeTableHeader slot="header">
        <VscodeTableHeaderCell>What</VscodeTableHeaderCell>
        <VscodeTableHeaderCell>Value</VscodeTableHeaderCell>
      </VscodeTableHeader>
      <VscodeTableBody slot="body">
        {rows(report).map((row) => (
          <VscodeTableRow key={row.field} data-field={row.field}>
            <VscodeTableCell>{row.label}</VscodeTableCell>
            <VscodeTableCell>{row.value}</VscodeTableCell>
          </VscodeTableRow>
        ))}
      </VscodeTableBody>
    </VscodeTable>
  );
}
