// The @vscode-elements React components our webviews use, one import each. Importing the package's barrel
// ('@vscode-elements/react-elements') registers all ~40 custom elements, which esbuild cannot drop (each
// registration is a side effect): ~165 KB more per bundle. Add the ones a panel needs here and import from this file.
export { default as VscodeButton } from '@vscode-elements/react-elements/dist/components/VscodeButton.js';
export { default as VscodeCheckbox } from '@vscode-elements/react-elements/dist/components/VscodeCheckbox.js';
export { default as VscodeTable } from '@vscode-elements/react-elements/dist/components/VscodeTable.js';
export { default as VscodeTableBody } from '@vscode-elements/react-elements/dist/components/VscodeTableBody.js';
export { default as VscodeTableCell } from '@vscode-elements/react-elements/dist/components/VscodeTableCell.js';
export { default as VscodeTableHeader } from '@vscode-elements/react-elements/dist/components/VscodeTableHeader.js';
export { default as VscodeTableHeaderCell } from '@vscode-elements/react-elements/dist/components/VscodeTableHeaderCell.js';
export { default as VscodeTableRow } from '@vscode-elements/react-elements/dist/components/VscodeTableRow.js';
