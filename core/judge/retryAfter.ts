// How long a server asked us to wait before trying again. Rate-limited (429) and overloaded (503) answers may carry
// `retry-after-ms` (OpenAI's, milliseconds) or the standard `retry-after` (seconds, or an HTTP date); the chat client
// waits that long instead of its own backoff, so a server that names its pace is obeyed rather than guessed at.

/** Milliseconds to wait, or undefined when the headers ask for nothing usable. `now` is for the HTTP-date form. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
