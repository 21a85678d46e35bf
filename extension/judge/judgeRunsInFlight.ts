// One sending run per judge at a time in this VS Code window. A vote is safe from being asked twice only once it is
// on record (answered) or held by a recorded batch; a vote an online run has in flight is neither, so a batch
// submitted meanwhile (or a second online run) could ask it again and it would be paid twice. Within one window
// "Run LLM judge" therefore refuses to start an online run, a retry online, a batch submit or a batch retry while
// another of these is running for the same judge of the same study — before anything else is asked. Other processes
// (the CLI, another window) are refused by the run's marker (core/judge/batch/sendingRun.ts). No `vscode` here, so it
// is tested in Node.
import type { JudgeAction } from './judgeActions.ts';

/** The actions that send votes (status and cancel send none, so they may run beside one). */
const sendingActions: ReadonlySet<JudgeAction> = new Set(['online', 'retry-online', 'batch', 'retry-batch']);

const what: Record<string, string> = {
  online: 'an online run',
  'retry-online': 'an online retry',
  batch: 'a batch submit',
  'retry-batch': 'a batch retry',
};

export class JudgeRunsInFlight {
  private readonly running = new Map<string, JudgeAction>();

  /**
   * Takes the judge for `action` and returns what gives it back; or, when another sending run of the same judge is
   * under way, returns why `action` may not start (a sentence) — nothing is taken. Non-sending actions always start.
   */
  start(judgeKey: string, action: JudgeAction): { release: () => void } | { refusal: string } {
    if (!sendingActions.has(action)) return { release: () => {} };
    const current = this.running.get(judgeKey);
    if (current !== undefined) {
      return {
        refusal:
          `${what[current]} of this judge is under way: wait for it to finish (or cancel it) before ${what[action]} — ` +
          'the votes it has in flight are not on record yet, so they would be asked, and paid for, twice',
      };
    }
    this.running.set(judgeKey, action);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running.delete(judgeKey);
      },
    };
  }
}

/** The judge a run is for: the study file, the study, the judge's model and place (two may share a model). */
export function judgeRunKey(studyFile: string, study: string, model: string, place: number): string {
  return JSON.stringify([studyFile, study, model, place]);
}
