// The runtime panel: the report the host sends once the view is ready, and "Run check again", which asks the host
// to build it anew and shows the reply — the report, or the error the host sent back as a value.

import { useEffect, useState } from 'react';
import type { RuntimeReport } from '../../core/runtime/runtimeTypes.ts';
import { VscodeButton } from '../common/elements.ts';
import type { HostMessenger } from '../common/hostMessenger.ts';
import type { Result } from '../protocol.ts';
import { RuntimeReportTable } from './RuntimeReportTable.tsx';

export function RuntimePanel({ messenger }: { messenger: HostMessenger }) {
  const [result, setResult] = useState<Result<RuntimeReport> | undefined>();
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    // Subscribe first, then say ready: the host holds its events until `ready`, so none can be missed.
    const unsubscribe = messenger.on('runtime/report', ({ result }) => setResult(result));
    messenger.ready();
    return unsubscribe;
  }, [messenger]);

  const checkAgain = async (): Promise<void> => {
    setChecking(true);
    setResult(await messenger.request('runtime/check', {}));
    setChecking(false);
  };

  return (
    <main>
      <h1>Qrels Studio runtime</h1>
      <p className="description">
        The runtime this extension host gives Qrels Studio, and whether the bundled SQLite loads and keeps a WAL
        database.
      </p>
      <div className="toolbar">
        <VscodeButton onClick={checkAgain} disabled={checking}>
          Run check again
        </VscodeButton>
        <span aria-live="polite" className="description">
          {checking ? 'Checking…' : result === undefined ? 'Waiting for the extension host…' : ''}
        </span>
      </div>
      {result?.ok === false && (
        <div role="alert" className="error-message">
          Runtime check failed: {result.error.message}
        </div>
      )}
      {result?.ok === true && <RuntimeReportTable report={result.value} />}
    </main>
  );
}
