// What "Show version and runtime" reports, as plain data: the runtime view's protocol (webview/protocol.ts) carries
// it, so this module imports no store code (runtimeReport.ts builds it).
export interface RuntimeReport {
  productVersion: string;
  host: string;
  node: string;
  napi: string;
  abi: string;
  platform: string;
  arch: string;
  sqliteVersion: string;
  journalMode: string;
  walReadBack: boolean;
  nativeBinding: string;
}
