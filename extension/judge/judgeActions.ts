// What "Run LLM judge" offers when a judge may go through the Batch API: judge online, judge with the Batch API,
// show the batches' status (recording what finished), cancel the open ones. No `vscode` here (the command shows
// these as a QuickPick), so the choice is tested in Node.
import type { JudgeModel } from '../../core/dsl/model.ts';

export type JudgeAction = 'online' | 'batch' | 'batch-status' | 'cancel-batches' | 'retry-batch' | 'retry-online';

export interface JudgeActionItem {
  action: JudgeAction;
  label: string;
  description?: string;
  detail?: string;
}

/** The QuickPick's titles, as issue 22 names them. */
export const judgeActionLabels: Record<JudgeAction, string> = {
  online: 'Judge online',
  batch: 'Judge with the Batch API (half price, within 24 h)',
  'batch-status': 'Batch status',
  'cancel-batches': 'Cancel open batches',
  'retry-batch': 'Retry what batches left unanswered, in a new batch',
  'retry-online': 'Retry what batches left unanswered, online',
};

/** What the record holds of the judge's batches when the command asks. */
export interface BatchesOnRecord {
  /** Batches not yet finished (validating, in progress, finalizing, cancelling). */
  open: number;
  /** Batches finished at the endpoint whose results are not yet recorded. */
  toCollect: number;
  /** Votes of closed batches that got no answer (failed or expired) and none since: what a retry asks again. */
  unanswered?: number;
}

/**
 * Whether the command asks how to judge instead of judging online at once: when the judge block says `mode batch`,
 * when the study has batches on record (their status is what the user most likely wants), or when asked to.
 */
export function asksForAction(judge: JudgeModel, batches: BatchesOnRecord, always = false): boolean {
  return always || judge.mode === 'batch' || batches.open > 0 || batches.toCollect > 0 || (batches.unanswered ?? 0) > 0;
}

/** The items in order: the judge's declared mode first, then the other, status and cancel, then the retries if any. */
export function judgeActionItems(judge: JudgeModel, batches: BatchesOnRecord): JudgeActionItem[] {
  const declared = judge.mode === 'batch' ? 'batch' : 'online';
  const modes: JudgeAction[] = declared === 'batch' ? ['batch', 'online'] : ['online', 'batch'];
  const item = (action: JudgeAction): JudgeActionItem => {
    const base = { action, label: judgeActionLabels[action] };
    switch (action) {
      case 'online':
        return {
          ...base,
          ...(declared === 'online' && judge.mode === 'online' && { description: 'the judge block says mode online' }),
          detail: 'One chat request per pair and vote, now; progress and cost as it goes.',
        };
      case 'batch':
        return {
          ...base,
          ...(declared === 'batch' && { description: 'the judge block says mode batch' }),
          detail:
            'Writes the requests as one or more batch files, uploads them and creates the batches; results within 24 h ("Batch status" records them).',
        };
      case 'batch-status':
        return {
          ...base,
          description:
            batches.open + batches.toCollect === 0
              ? 'no batch open'
              : `${batches.open} open${batches.toCollect > 0 ? `, ${batches.toCollect} finished to record` : ''}`,
          detail: 'Each batch with its status and counts; records the results of those that finished.',
        };
      case 'retry-batch':
      case 'retry-online':
        return {
          ...base,
          description: `${batches.unanswered ?? 0} vote${batches.unanswered === 1 ? '' : 's'} failed or expired`,
          detail:
            action === 'retry-batch'
              ? 'Sends them again in a new batch (at batch prices).'
              : 'Asks them now, one chat request each (at online prices).',
        };
      case 'cancel-batches':
        return {
          ...base,
          description: batches.open === 0 ? 'no batch open' : `${batches.open} open`,
          detail:
            'Asks the endpoint to cancel every open batch; what they answered so far is recorded on the next status.',
        };
    }
  };
  const retries: JudgeAction[] = (batches.unanswered ?? 0) > 0 ? ['retry-batch', 'retry-online'] : [];
  return [...modes, 'batch-status' as const, 'cancel-batches' as const, ...retries].map(item);
}
