// An LLM judge's labels where it has no judgment of the pair, as SQL other queries of the adapter select from: its
// latest parsed suggestion of each pair (what the Label view shows; a judge run again replaces what it said before).
// The rows of `suggestion`, as `sg`.
export const judgeSuggestionsWithoutJudgment = `
  SELECT sg.* FROM suggestion AS sg
  WHERE sg.label IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM suggestion AS later
      WHERE later.pair_id = sg.pair_id AND later.annotator_id = sg.annotator_id
        AND (later.created_at > sg.created_at OR (later.created_at = sg.created_at AND later.id > sg.id)))
    AND NOT EXISTS (
      SELECT 1 FROM current_judgment AS cj WHERE cj.pair_id = sg.pair_id AND cj.annotator_id = sg.annotator_id)`;
