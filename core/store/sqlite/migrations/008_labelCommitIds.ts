// A label commit's own id (a UUID the labelling session draws once per label and sends again when it retries): a
// commit whose reply was lost (the connection dropped after COMMIT reached the server) is sent again with the same
// id, and the store answers with the judgment already stored instead of storing it twice. NULL for judgments stored
// before, imported ones and any written without an id; UNIQUE among the others (NULLs are distinct).
export const labelCommitIds = `
ALTER TABLE judgment ADD COLUMN client_id TEXT;
CREATE UNIQUE INDEX judgment_by_client_id ON judgment (client_id);
`;
