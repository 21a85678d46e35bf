// What agreement, adjudication and evaluation read from the record: every current label of a study, the
// adjudicated ones, the counts a dashboard shows.
export interface AgreementPort {}
