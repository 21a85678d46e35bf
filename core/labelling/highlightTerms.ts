// What the Label view highlights in a document: the query's words (`queryTerms`) and the entities an instruction
// excludes (`excludedEntities`, FollowTable's C2 "exclusive topic" instructions — the trap tables of its §5.6
// contain exactly those entities, so the annotator must see them). Pure text in, words out; no DOM.
//
// Exclusion cues (case-insensitive, whole words), each followed by the excluded entities:
//   exclude · excludes · excluding · except · except for · other than · without · but not
//   not related to · not relating to · unrelated to · not about · not concerning · not involving · not from
//   do not / does not / don't / must not / should not / never + include · mention · show · return · list
// After a cue the entity list runs to the end of the sentence (`.;:!?` before a space or the end, a newline, a
// parenthesis), to the next cue, or to a clause word (but, while, whereas, because, since, unless, that, which,
// who, whose, where, when, if; a verb such as is, are, should, must, will; or "and"/"or"/a comma followed by an
// instruction verb such as focus, include, only, show, list, return, prefer, keep, rank). The list is split on
// commas, "and", "or", "nor", "as well as", "&"; each item loses a lead-in ("any tables about", "results from",
// "those related to", "mention of"), a leading article, surrounding quotes, trailing punctuation and a trailing
// "as well" / "too" / "instead" / "altogether". Items are kept as written (matching ignores case).
// Known limits: a name with "and" in it ("Trinidad and Tobago") is split in two; "without X" also fires on
// "tables without missing values" — the highlight is a reading aid, not a judgment.
//
// Overlaps (termsNotExcluded): a query term that is part of an excluded entity must read as excluded, not as a
// term. The view passes all query terms and all excluded entities to highlightDom, which resolves this per
// occurrence: at each position the longest match wins and an excluded phrase beats a term of the same length, so
// "Olympics" inside "2008 Olympics" is marked excluded while "Olympics" in "2012 Olympics" stays a term.
// `termsNotExcluded` is for places that list terms without context, where only a whole-list answer is possible.

/** English function words: never worth a highlight. */
const stopWords = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below between
  both but by can cannot could couldn did didn do does doesn doing don down during each few for from further had
  hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself
  just me more most mustn my myself no nor not now of off on once only or other our ours ourselves out over own
  same shan she should shouldn so some such than that the their theirs them themselves then there these they this
  those through to too under until up very was wasn we were weren what when where which while who whom why will
  with won would wouldn you your yours yourself yourselves ll ve re`.split(/\s+/),
);

/** Numbers with decimal or thousands separators stay one token; otherwise runs of letters, marks and digits. */
const tokenPattern = /\p{N}+(?:[.,]\p{N}+)+(?![\p{L}\p{M}\p{N}])|[\p{L}\p{M}\p{N}]+/gu;
const numberPattern = /^\p{N}+(?:[.,]\p{N}+)*$/u;

/** The words of a query worth highlighting: lower-cased, first occurrence order, no stop words, no 1-char words. */
export function queryTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const [token] of text.matchAll(tokenPattern)) {
    const word = token.toLowerCase();
    if (numberPattern.test(word)) terms.add(word);
    else if ([...word].length > 1 && !stopWords.has(word)) terms.add(word);
  }
  return [...terms];
}

const cues = [
  'exclude',
  'excludes',
  'excluding',
  String.raw`except(?:\s+for)?`,
  String.raw`other\s+than`,
  'without',
  String.raw`but\s+not`,
  String.raw`not\s+(?:related|relating)\s+to`,
  String.raw`unrelated\s+to`,
  String.raw`not\s+(?:about|concerning|involving|from)`,
  String.raw`(?:(?:do|does|must|should)\s+not|don['’]t|never)\s+(?:include|mention|show|return|list)`,
];
const cuePattern = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${cues.join('|')})(?![\p{L}\p{N}])`, 'giu');

const instructionVerbs =
  'focus|focusing|include|including|only|show|list|return|prefer|keep|consider|rank|retrieve|find|ensure|make|' +
  'give|provide|use|also|then|emphasi[sz]e|prioriti[sz]e';
const clauseEnd = new RegExp(
  [
    String.raw`[.;:!?](?=\s|$)`,
    String.raw`[\n()]`,
    String.raw`\s+(?:but|while|whereas|because|since|unless|that|which|who|whose|where|when|if)(?![\p{L}\p{N}])`,
    String.raw`\s+(?:is|are|was|were|should|must|can|could|may|might|will|would|shall)(?![\p{L}\p{N}])`,
    String.raw`(?:,\s*|\s+)(?:(?:and|or)\s+)?(?:${instructionVerbs})(?![\p{L}\p{N}])`,
  ].join('|'),
  'iu',
);

const itemSeparator = /\s*,\s*|\s+(?:and|or|nor|as\s+well\s+as)\s+|\s*&\s*/iu;

/** "any tables about", "results from", "those related to", "mention of", "data on" … before the entity itself. */
const leadIn = new RegExp(
  String.raw`^(?:(?:and|or|either|neither|also)\s+)?` +
    String.raw`(?:(?:any|all|the|those|these|such)\s+)?` +
    '(?:(?:tables?|results?|rows?|records?|entries|entry|documents?|ones|items?|data|information|' +
    String.raw`passages?|mentions?|references?|content|cases?|examples?|columns?|those|anything)\s+)?` +
    String.raw`(?:(?:that\s+(?:are|is|were|was)\s+)?(?:about|from|on|of|in|for|with|regarding|concerning|covering|` +
    String.raw`involving|mentioning|featuring|to|(?:related|relating)\s+to)\s+)?`,
  'iu',
);
const leadingArticle = /^(?:the|a|an)\s+/iu;
const quotes = /^["'“”‘’«»]+|["'“”‘’«»]+$/gu;
const trailingPunctuation = /[\s.,;:!?'"“”‘’»)\]]+$/u;
const trailingFiller = /\s+(?:as\s+well|too|also|instead|entirely|altogether|completely)$/iu;

function cleanEntity(item: string): string {
  let entity = item.trim();
  // A lead-in can repeat ("any of the tables about"): strip until nothing changes.
  for (let previous = ''; previous !== entity; ) {
    previous = entity;
    entity = entity.replace(leadIn, '').replace(leadingArticle, '').trim();
  }
  return entity.replace(trailingPunctuation, '').replace(trailingFiller, '').replace(quotes, '').trim();
}

/** The entities an instruction excludes (see the cue list above), as written, deduplicated ignoring case. */
export function excludedEntities(instruction: string): string[] {
  const cueMatches = [...instruction.matchAll(cuePattern)];
  const entities = new Map<string, string>();
  cueMatches.forEach((cue, i) => {
    const start = cue.index + cue[0].length;
    const nextCue = cueMatches[i + 1]?.index ?? instruction.length;
    let span = instruction.slice(start, nextCue);
    const end = clauseEnd.exec(span);
    if (end) span = span.slice(0, end.index);
    for (const item of span.split(itemSeparator)) {
      const entity = cleanEntity(item);
      if (entity === '' || stopWords.has(entity.toLowerCase())) continue;
      if (!entities.has(entity.toLowerCase())) entities.set(entity.toLowerCase(), entity);
    }
  });
  return [...entities.values()];
}

/** The terms that are not a word of any excluded entity (the view itself resolves overlaps per occurrence). */
export function termsNotExcluded(terms: string[], excluded: string[]): string[] {
  const excludedWords = new Set(excluded.flatMap((entity) => queryTerms(entity)));
  return terms.filter((term) => !excludedWords.has(term.toLowerCase()));
}
