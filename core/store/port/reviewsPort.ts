// What the review of generated text asks of the record: review items, verdicts, critic calls and outcomes.
export interface ReviewsPort {}
