// What the LLM judge asks of the record: the calls it made (raw output, parsed label or failure, tokens, cost), the
// suggestions they became, and the cache rule (a pair already answered is never sent again).
export interface JudgePort {}
