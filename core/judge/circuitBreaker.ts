// The circuit breaker of one chat endpoint. When an endpoint fails call after call (each already retried), going on
// only hammers it and fills the log with the same error, so the breaker opens: calls fail at once, without a request,
// until a pause has passed; then a single trial call is let through (half-open). Its success closes the breaker, its
// failure opens it for another pause. The breaker only counts; which outcomes are failures is the client's decision.

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the breaker. */
  failures: number;
  /** How long the breaker stays open before a trial call. */
  pauseMs: number;
  /** The clock; default Date.now. */
  now?: () => number;
}

/** A call that may go ahead; `trial` when it is the half-open probe. */
export type Admission = { admitted: true; trial: boolean } | { admitted: false; reason: string };

export interface CircuitBreaker {
  /** Whether a new call may make requests. A refused call must not be reported back. */
  admit(): Admission;
  /** Whether a call already under way should stop before its next attempt: the breaker opened meanwhile. */
  isOpenFor(trial: boolean): boolean;
  /** Why calls are refused now ("paused after 5 failures in a row: …; the next try is in 30 s"). */
  pausedReason(): string;
  /** The endpoint answered sensibly. */
  succeeded(trial: boolean): void;
  /** The call failed after its retries; `message` is the sentence the breaker's refusals will quote. */
  failed(trial: boolean, message: string): void;
  /** The call ended without telling anything about the endpoint (cancelled): a trial slot is given back. */
  released(trial: boolean): void;
  readonly state: 'closed' | 'open' | 'half-open';
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const now = options.now ?? Date.now;
  const threshold = Math.max(1, Math.floor(options.failures));
  let consecutiveFailures = 0;
  let openedAt: number | undefined;
  let trialUnderWay = false;
  let lastError = '';

  const seconds = (ms: number) => {
    const s = ms / 1000;
    return s >= 10 ? `${Math.round(s)} s` : `${Number(s.toFixed(2))} s`;
  };

  function pausedReason(): string {
    const paused = `paused after ${consecutiveFailures} failures in a row: ${lastError}`;
    if (openedAt === undefined) return paused;
    if (trialUnderWay) return `${paused}; a trial call is under way`;
    const left = Math.max(0, options.pauseMs - (now() - openedAt));
    return `${paused}; the next try is in ${seconds(left)}`;
  }

  return {
    get state() {
      if (openedAt === undefined) return 'closed';
      return trialUnderWay ? 'half-open' : 'open';
    },
    admit() {
      if (openedAt === undefined) return { admitted: true, trial: false };
      if (now() - openedAt < options.pauseMs || trialUnderWay) return { admitted: false, reason: pausedReason() };
      trialUnderWay = true;
      return { admitted: true, trial: true };
    },
    pausedReason,
    isOpenFor(trial) {
      return openedAt !== undefined && !trial;
    },
    succeeded(trial) {
      consecutiveFailures = 0;
      openedAt = undefined;
      if (trial) trialUnderWay = false;
    },
    failed(trial, message) {
      lastError = message;
      consecutiveFailures++;
      if (trial) {
        trialUnderWay = false;
        openedAt = now();
      } else if (openedAt === undefined && consecutiveFailures >= threshold) {
        openedAt = now();
      }
    },
    released(trial) {
      if (trial) trialUnderWay = false;
    },
  };
}
