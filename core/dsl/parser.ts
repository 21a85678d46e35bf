// Recursive-descent parser of study files with error recovery. It reports every syntax error in one pass: after
// an error it skips to the next statement keyword or `}` of the block it is in (a `{ … }` it meets while skipping
// is skipped whole), so one mistake gives one diagnostic. Blocks are not recursive in this grammar; only derive
// expressions are, and their depth is capped (a 10,000-deep `((((` is one diagnostic, not a stack overflow).
// While parsing it annotates tokens with what they are (highlighting, hover) and where statements and list
// entries start (formatting). In completion mode it parses the text up to the cursor and records what it would
// have accepted at the end: the words, paths and names completion offers.
import type {
  AgreementStatement,
  BinaryOperator,
  BlockKind,
  BlockNode,
  ExportStatement,
  Expression,
  FieldMapping,
  JudgeGateConditionNode,
  JudgeOption,
  JudgeOptionName,
  NameNode,
  NumberNode,
  RubricDimension,
  ScaleEntry,
  SourceKind,
  StatementNode,
  StoreStatement,
  StringNode,
  StudyFileAst,
  TaxonomyEntry,
} from './ast.ts';
import { closestWords } from './editDistance.ts';
import {
  agreementLevels,
  agreementMetrics,
  blockKeywords,
  chunkRollups,
  currencies,
  documentFormats,
  exportKinds,
  expressionFunctions,
  fileFormats,
  gateMetrics,
  gateOperators,
  importKinds,
  judgeModes,
  judgeOptions,
  type KeywordContext,
  labelKinds,
  labelSources,
  scaleKinds,
  sourceRoles,
  statementKeywords,
  storeKinds,
  topLevelWords,
} from './keywords.ts';
import { lex, showCharacters, type Token } from './lexer.ts';
import type { DslDiagnostic, DslFix, ParsedStudyFile, TextRange } from './types.ts';

/** Deeper derive expressions (or `{` nests met while skipping) are reported and skipped, not recursed into. */
export const maxNestingDepth = 100;

/** What the parser would have accepted where the text ended (completion mode). */
export type Expectation =
  | { kind: 'words'; ids: string[] }
  | { kind: 'path'; statement: string }
  | { kind: 'field'; source: SourceKind; role: string }
  | { kind: 'query-field' }
  | { kind: 'measure' }
  | { kind: 'derive-operand' };

class TooDeep extends Error {}

const allStatementWords = new Set([...statementKeywords.study, ...statementKeywords.review]);
const comparisonOperators = new Set(['<', '<=', '>', '>=']);

function docIds(context: KeywordContext, words: readonly string[]): string[] {
  return words.map((w) => `${context}:${w}`);
}

class Parser {
  private readonly text: string;
  private readonly tokens: Token[];
  private readonly eofRange: TextRange;
  private pos = 0;
  private lastConsumed: Token | undefined;
  /** Set after an error: the enclosing loop skips tokens silently until a place it can resume. */
  private recovering = false;
  private deepReported = false;
  readonly diagnostics: DslDiagnostic[] = [];
  readonly expectations: Expectation[] | undefined;
  private collecting: boolean;
  private block: BlockKind = 'study';

  constructor(text: string, allTokens: Token[], collectExpectations: boolean) {
    this.text = text;
    this.tokens = allTokens.filter((t) => t.kind !== 'comment' && t.kind !== 'continuation' && t.kind !== 'invalid');
    const last = this.tokens.at(-1) ?? allTokens.at(-1);
    this.eofRange = last ? { start: last.start, end: last.end } : { start: text.length, end: text.length };
    this.expectations = collectExpectations ? [] : undefined;
    this.collecting = collectExpectations;
  }

  // ---- token access ----

  private peek(ahead = 0): Token | undefined {
    return this.tokens[this.pos + ahead];
  }

  /** `(` … `)` open in the current derive expression: line breaks inside them continue the statement. */
  private parenDepth = 0;

  /** Whether `token` starts a new line that does not continue the statement (no `\`, no open `(`). */
  private startsLine(token: Token | undefined): boolean {
    return token !== undefined && token.newlinesBefore > 0 && !token.continued && this.parenDepth === 0;
  }

  /** The next token when it is on the current statement's line (or continues it); else `undefined`. */
  private current(): Token | undefined {
    const token = this.peek();
    return this.startsLine(token) ? undefined : token;
  }

  /** The token a line break kept out of the statement before it although the statement would have taken it. */
  private cutAtLine: Token | undefined;

  /**
   * The next token when `accepts` it and it is on the statement's line. One the statement would take but that
   * starts the next line is remembered: reported as an unknown statement, it gets the fix "continue with `\`".
   */
  private onLine(accepts: (token: Token) => boolean): Token | undefined {
    const token = this.peek();
    if (token === undefined || !accepts(token)) return undefined;
    if (this.startsLine(token)) {
      this.cutAtLine = token;
      return undefined;
    }
    return token;
  }

  /** Whether the text after the last token (completion mode: up to the cursor) still is the statement's line. */
  private lineOpen(): boolean {
    if (this.parenDepth > 0) return true;
    const rest = this.text.slice(this.lastConsumed?.end ?? 0);
    return !/[\n\r]/.test(rest) || /^[ \t]*\\[ \t]*(\r\n|\r|\n)[ \t]*$/.test(rest);
  }

  private advance(): Token {
    const token = this.tokens[this.pos++]!;
    this.lastConsumed = token;
    return token;
  }

  private isPunct(token: Token | undefined, text: string): boolean {
    return token?.kind === 'punct' && token.text === text;
  }

  private isWord(token: Token | undefined, word: string): boolean {
    return token?.kind === 'name' && token.text === word;
  }

  private endOfLast(fallback: TextRange): TextRange {
    return this.lastConsumed ? { start: fallback.start, end: this.lastConsumed.end } : fallback;
  }

  private rangeOf(token: Token): TextRange {
    return { start: token.start, end: token.end };
  }

  // ---- errors and expectations ----

  private describe(token: Token | undefined): string {
    if (!token) return 'the end of the file';
    if (token.kind === 'string') {
      const shown = showCharacters(token.text);
      return shown.length > 40 ? `${shown.slice(0, 37)}…"` : shown;
    }
    return `\`${showCharacters(token.text)}\``;
  }

  /** Reports an error. Errors about a token that was consumed need no recovery; the others `recover`. */
  private report(
    code: string,
    range: TextRange,
    message: string,
    extra: { fixes?: DslFix[]; related?: DslDiagnostic['related'] } = {},
    recover = false,
  ): void {
    this.diagnostics.push({ range, severity: 'error', code, message, ...extra });
    if (recover) this.recovering = true;
  }

  /** Reports "expected WHAT, found X" at the current token (the last token at the end of the file). */
  private expected(what: string, code = 'unexpected-token', withinStatement = true): void {
    const token = this.peek();
    if (!token) this.collecting = false;
    if (withinStatement && this.startsLine(token) && this.lastConsumed) {
      // A statement ends at its line: what is missing is missing at the end of the line.
      this.cutAtLine = token;
      this.report(
        code,
        this.rangeOf(this.lastConsumed),
        `expected ${what}, found the end of the line (a statement continues on the next line only after a \`\\\`)`,
        {},
        true,
      );
      return;
    }
    this.report(
      code,
      token ? this.rangeOf(token) : this.eofRange,
      `expected ${what}, found ${this.describe(token)}`,
      {},
      true,
    );
  }

  /** Offers what may come next within a statement: only while the cursor is still on the statement's line. */
  private offer(expectation: Expectation): void {
    if (this.collecting && this.peek() === undefined && this.lineOpen()) this.expectations!.push(expectation);
  }

  private offerWords(context: KeywordContext, words: readonly string[]): void {
    this.offer({ kind: 'words', ids: docIds(context, words) });
  }

  /** Offers what may start a statement or a `{ … }` entry: on any line. */
  private offerStart(context: KeywordContext, words: readonly string[]): void {
    if (this.collecting && this.peek() === undefined)
      this.expectations!.push({ kind: 'words', ids: docIds(context, words) });
  }

  private didYouMean(token: Token, candidates: readonly string[]): { hint: string; fixes?: DslFix[] } {
    const close = closestWords(token.text, candidates);
    if (close.length === 0) return { hint: '' };
    return {
      hint: `; did you mean ${close.map((w) => `\`${w}\``).join(' or ')}?`,
      fixes: close.map((w) => ({
        title: `Replace \`${token.text}\` with \`${w}\``,
        edits: [{ range: this.rangeOf(token), newText: w }],
      })),
    };
  }

  private unknownKeyword(token: Token, valid: readonly string[], where: string): void {
    const { hint, fixes } = this.didYouMean(token, valid);
    this.report(
      'unknown-keyword',
      this.rangeOf(token),
      `unknown keyword \`${token.text}\` ${where} (valid here: ${valid.join(', ')})${hint}`,
      fixes ? { fixes } : {},
      true,
    );
  }

  /**
   * A name where a statement of a `kind` block must start. Close to a keyword: "did you mean" with a fix per
   * keyword. Otherwise, when the statement above would have taken it but for the line break (`annotators alice
   * bob` and `carol` below), the fix continues the line above with `\`.
   */
  private unknownStatement(token: Token, kind: BlockKind): void {
    const valid = statementKeywords[kind];
    const { hint, fixes } = this.didYouMean(token, valid);
    const previous = this.lastConsumed;
    // Not when the line above already ends in `\` and a blank or comment line ended the statement: a second `\`
    // would be an invalid character, and the word would still be cut off.
    const continuable =
      fixes === undefined &&
      this.cutAtLine === token &&
      previous !== undefined &&
      !/\\[ \t]*\r?(\n|\r)/.test(this.text.slice(previous.end, token.start));
    const continuation: DslFix[] = continuable
      ? [
          {
            title: `Continue the line above with \`\\\` (make \`${token.text}\` part of the statement before)`,
            edits: [{ range: { start: previous.end, end: previous.end }, newText: ' \\' }],
          },
        ]
      : [];
    const why = continuable ? '; a statement ends at its line: end the line above with `\\` to continue it' : '';
    const all = [...(fixes ?? []), ...continuation];
    this.report(
      'unknown-keyword',
      this.rangeOf(token),
      `unknown keyword \`${token.text}\` in a ${kind} (valid here: ${valid.join(', ')})${hint}${why}`,
      all.length > 0 ? { fixes: all } : {},
      true,
    );
  }

  /** Offsets of the text's '\n's, found once: each unclosed block names its line, and there can be thousands. */
  private newlines: number[] | undefined;

  /** The 1-based line of `offset` (binary search over the newlines). */
  private lineOf(offset: number): number {
    if (this.newlines === undefined) {
      this.newlines = [];
      for (let at = this.text.indexOf('\n'); at !== -1; at = this.text.indexOf('\n', at + 1)) this.newlines.push(at);
    }
    let low = 0;
    let high = this.newlines.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.newlines[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }

  private unclosed(what: string, open: TextRange | undefined): void {
    const token = this.peek();
    if (!token) this.collecting = false;
    const found = token ? `found ${this.describe(token)}` : 'found the end of the file';
    const where = open ? ` (opened at line ${this.lineOf(open.start)})` : '';
    this.report(
      'unclosed-block',
      token ? this.rangeOf(token) : this.eofRange,
      `expected \`}\` to close ${what}${where}, ${found}`,
      open ? { related: { range: open, message: `${what} opens here` } } : {},
      true,
    );
  }

  // ---- recovery ----

  private isStatementWord(token: Token | undefined): boolean {
    return token?.kind === 'name' && allStatementWords.has(token.text);
  }

  /** A `study "…"` or `review "…"` header: where a block that lacks its `}` must end. */
  private atBlockHeader(): boolean {
    const token = this.peek();
    return (
      token?.kind === 'name' && (token.text === 'study' || token.text === 'review') && this.peek(1)?.kind === 'string'
    );
  }

  /** Skips one token, or a whole balanced `{ … }` / `( … )` group. */
  private skipOne(): void {
    const first = this.advance();
    if (!this.isPunct(first, '{') && !this.isPunct(first, '(')) return;
    const open = first.text;
    const close = open === '{' ? '}' : ')';
    let depth = 1;
    while (depth > 0) {
      const token = this.peek();
      if (!token) return;
      this.advance();
      if (this.isPunct(token, open)) {
        depth++;
        if (depth > maxNestingDepth) this.reportTooDeep(token, open === '{' ? 'blocks' : 'parentheses');
      } else if (this.isPunct(token, close)) {
        depth--;
      }
    }
  }

  private reportTooDeep(token: Token, what: string): void {
    if (this.deepReported) return;
    this.deepReported = true;
    this.report(
      'too-deep',
      this.rangeOf(token),
      `${what} nested deeper than ${maxNestingDepth} levels: expected at most ${maxNestingDepth}, found more (the rest is skipped)`,
    );
  }

  // ---- file and blocks ----

  parseFile(): StudyFileAst {
    const blocks: BlockNode[] = [];
    const stores: StoreStatement[] = [];
    for (;;) {
      this.offerStart('block', blockKeywords);
      this.offerStart('file-statement', ['store']);
      const token = this.peek();
      if (!token) break;
      if (this.isWord(token, 'study') || this.isWord(token, 'review')) {
        this.recovering = false;
        blocks.push(this.parseBlock(token.text as BlockKind));
        continue;
      }
      if (this.isWord(token, 'store')) {
        this.recovering = false;
        stores.push(this.parseStore());
        continue;
      }
      if (!this.recovering) {
        if (token.kind === 'name') this.unknownKeyword(token, topLevelWords, 'at the top level of a study file');
        else this.expected('`study "name" { … }`, `review "name" { … }` or `store …`', undefined, false);
      }
      this.skipOne();
    }
    return { blocks, stores };
  }

  /** `store sqlite` or `store postgres "name"`: a file statement, on its own line. */
  private parseStore(): StoreStatement {
    this.parenDepth = 0;
    this.cutAtLine = undefined;
    const keywordToken = this.advance();
    this.mark(keywordToken, 'keyword', 'file-statement:store', 'statement');
    const keyword = this.rangeOf(keywordToken);
    const statement: StoreStatement = { keyword, range: keyword };
    const kindToken = this.current();
    const storeKind = this.expectWord(storeKinds, 'store-kind', 'the store kind (sqlite or postgres) after `store`');
    if (storeKind) statement.storeKind = storeKind;
    const kind = storeKind?.text ?? (kindToken?.kind === 'name' ? undefined : 'none');
    if (kind === 'postgres' || (kind === undefined && this.current()?.kind === 'string')) {
      const name = this.expectString(
        'a string with the store name after `store postgres` (the connection each user configures, e.g. "team-wqt")',
      );
      if (name) statement.name = name;
    } else if (kind === 'sqlite' && this.current()?.kind === 'string') {
      const extra = this.advance();
      this.report(
        'unexpected-token',
        this.rangeOf(extra),
        `expected the end of the line after \`store sqlite\` (the SQLite store is the file next to the study and takes no name), found ${this.describe(extra)}`,
      );
    }
    statement.range = this.endOfLast(keyword);
    return statement;
  }

  private parseBlock(kind: BlockKind): BlockNode {
    this.block = kind;
    const keywordToken = this.advance();
    this.mark(keywordToken, 'keyword', `block:${kind}`, 'statement');
    const keyword = this.rangeOf(keywordToken);
    const block: BlockNode = { kind, keyword, range: keyword, statements: [] };
    const name = this.expectString(`a string with the ${kind} name after \`${kind}\``);
    if (name) block.name = name;
    const label = name ? `${kind} ${JSON.stringify(name.value)}` : `the ${kind}`;
    if (this.isPunct(this.peek(), '{')) {
      const open = this.advance();
      open.layout = 'body';
      block.open = this.rangeOf(open);
    } else if (!this.recovering) {
      this.expected(`\`{\` to open the body of ${label}`);
    }
    for (;;) {
      this.offerStart('statement', statementKeywords[kind]);
      const token = this.peek();
      if (!token) {
        if (block.open || !this.recovering) this.unclosed(label, block.open);
        break;
      }
      if (this.isPunct(token, '}')) {
        block.close = this.rangeOf(this.advance());
        this.recovering = false;
        break;
      }
      if (this.atBlockHeader()) {
        this.unclosed(label, block.open);
        this.recovering = false;
        break;
      }
      if (token.kind === 'name' && statementKeywords[kind].includes(token.text)) {
        this.recovering = false;
        const statement = this.parseStatement(token.text);
        if (statement) block.statements.push(statement);
        continue;
      }
      if (this.isWord(token, 'store')) {
        this.report(
          'unknown-keyword',
          this.rangeOf(token),
          `\`store\` is a file statement, not valid in a ${kind}: write it at the top level of the file, outside every block (it applies to all of them)`,
        );
        this.parseStore();
        continue;
      }
      if (this.isStatementWord(token)) {
        const other = kind === 'study' ? 'review' : 'study';
        this.report(
          'unknown-keyword',
          this.rangeOf(token),
          `\`${token.text}\` is a ${other} statement, not valid in a ${kind} (valid here: ${statementKeywords[kind].join(', ')})`,
        );
        this.parseStatement(token.text);
        continue;
      }
      // Statements end at their line: a name at the start of a line ends the skip after an error.
      if (token.kind === 'name' && (!this.recovering || this.startsLine(token))) {
        this.unknownStatement(token, kind);
      } else if (!this.recovering) {
        this.expected(`a ${kind} statement (${statementKeywords[kind].join(', ')}) or \`}\``, undefined, false);
      }
      this.skipOne();
    }
    block.range = this.endOfLast(keyword);
    return block;
  }

  private mark(token: Token, semantic: Token['semantic'], doc?: string, starts?: Token['starts']): void {
    token.semantic = semantic;
    if (doc !== undefined) token.doc = doc;
    if (starts !== undefined) token.starts = starts;
  }

  // ---- statements ----

  private parseStatement(word: string): StatementNode | undefined {
    this.parenDepth = 0;
    this.cutAtLine = undefined;
    const keywordToken = this.advance();
    this.mark(keywordToken, 'keyword', `statement:${word}`, 'statement');
    const keyword = this.rangeOf(keywordToken);
    const statement = this.parseStatementBody(word, keyword);
    if (statement) statement.range = this.endOfLast(keyword);
    return statement;
  }

  private parseStatementBody(word: string, keyword: TextRange): StatementNode | undefined {
    const range = keyword;
    switch (word) {
      case 'title': {
        const value = this.expectString('a string with the title after `title`');
        return { kind: 'title', keyword, range, ...(value && { value }) };
      }
      case 'guidelines': {
        const path = this.expectPath('guidelines', 'a string with the guidelines path after `guidelines`');
        return { kind: 'guidelines', keyword, range, ...(path && { path }) };
      }
      case 'tables': {
        const path = this.expectPath('tables', 'a string with the qrels path of the items’ tables after `tables`');
        return { kind: 'tables', keyword, range, ...(path && { path }) };
      }
      case 'queries':
      case 'corpus':
      case 'items':
        return this.parseSource(word, keyword);
      case 'pool': {
        const path = this.expectPath('pool', 'a string with the run file path after `pool`');
        if (!path) return { kind: 'pool', keyword, range };
        const depth = this.parseClause('depth', 'clause:depth', () =>
          this.expectInteger('an integer after `depth` (documents per query)'),
        );
        if (depth === null) this.expected('`depth N` after the run path');
        return { kind: 'pool', keyword, range, path, ...(depth && { depth }) };
      }
      case 'scale':
        return this.parseScale(keyword);
      case 'aspect': {
        const name = this.expectName('an aspect name after `aspect`');
        const question = name && this.expectString(`a string with the question of aspect \`${name.text}\``);
        const aspect: Extract<StatementNode, { kind: 'aspect' }> = {
          kind: 'aspect',
          keyword,
          range,
          ...(name && { name }),
          ...(question && { question }),
        };
        if (question) this.parseAspectLevels(aspect, name!.text);
        return aspect;
      }
      case 'conditions': {
        const from = this.current();
        this.offerWords('clause', ['conditions-from']);
        if (!this.isWord(from, 'from')) {
          this.expected('`from` and the query field the conditions are read from');
          return { kind: 'conditions', keyword, range };
        }
        this.mark(this.advance(), 'keyword', 'clause:conditions-from');
        this.offer({ kind: 'query-field' });
        const field = this.expectNameOrString('the query field the conditions are read from after `from`');
        return { kind: 'conditions', keyword, range, ...(field && { field }) };
      }
      case 'derive':
        return this.parseDerive(keyword);
      case 'annotators':
      case 'verdicts': {
        const names = this.parseNameList();
        if (names.length === 0)
          this.expected(
            word === 'annotators' ? 'annotator names after `annotators`' : 'verdict names after `verdicts`',
          );
        return { kind: word, keyword, range, names };
      }
      case 'measures': {
        // Measure names with `.` or `@` (ndcg_cut.10, err@20) are strings: names are letters, digits, _ and -.
        this.offer({ kind: 'measure' });
        const names = this.parseNameList();
        this.offer({ kind: 'measure' });
        if (names.length === 0) this.expected('measure names after `measures` (map "ndcg_cut.10" "err@20")');
        return { kind: 'measures', keyword, range, names };
      }
      case 'adjudicator': {
        const name = this.expectNameOrString("the adjudicator's name after `adjudicator`");
        return { kind: 'adjudicator', keyword, range, ...(name && { name }) };
      }
      case 'overlap': {
        const count = this.expectInteger('an integer after `overlap` (annotators per item)');
        return { kind: 'overlap', keyword, range, ...(count && { count }) };
      }
      case 'blind':
        return { kind: 'blind', keyword, range };
      case 'judge':
        return this.parseJudge(keyword);
      case 'agreement':
        return this.parseAgreement(keyword);
      case 'export':
        return this.parseExport(keyword);
      case 'import': {
        const what = this.expectWord(importKinds, 'import-kind', 'what to import (qrels) after `import`');
        const path = this.expectPath('import', 'a string with the path of the file to import');
        const as = this.parseClause('as', 'clause:as', () => this.expectNameOrString('an annotator id after `as`'));
        const labelKind = this.parseClause('kind', 'clause:kind', () =>
          this.expectWord(labelKinds, 'label-kind', 'who made the labels (person, crowd, gold or llm) after `kind`'),
        );
        return {
          kind: 'import',
          keyword,
          range,
          ...(what && { what }),
          ...(path && { path }),
          ...(as && { as }),
          ...(labelKind && { labelKind }),
        };
      }
      case 'taxonomy':
        return this.parseTaxonomy(keyword);
      case 'rubric':
        return this.parseRubric(keyword);
    }
    return undefined;
  }

  /**
   * An optional clause `WORD value`: returns the value, `undefined` when the word is there but the value is
   * not (already reported), or `null` when the word is absent.
   */
  private parseClause<T>(word: string, doc: string, value: () => T | undefined): T | undefined | null {
    if (this.recovering) return null;
    this.offer({ kind: 'words', ids: [doc] });
    if (!this.onLine((token) => this.isWord(token, word))) return null;
    this.mark(this.advance(), 'keyword', doc);
    return value();
  }

  private parseSource(kind: SourceKind, keyword: TextRange): StatementNode {
    const path = this.expectPath(kind, `a string with the path of the ${kind} file after \`${kind}\``);
    const mappings: FieldMapping[] = [];
    const from = path
      ? this.parseClause('from', 'clause:source-from', () =>
          this.expectWord(fileFormats, 'file-format', `the file format (${fileFormats.join(', ')}) after \`from\``),
        )
      : null;
    const statement = { kind, keyword, range: keyword, mappings, ...(path && { path }), ...(from && { from }) };
    if (!this.isPunct(this.peek(), '{')) return statement;
    const open = this.advance();
    open.layout = 'list';
    const openRange = this.rangeOf(open);
    const roles = sourceRoles[kind];
    const context: KeywordContext = `${kind}-role`;
    const outerRecovering = this.recovering;
    this.recovering = false;
    for (;;) {
      this.offerStart(context, roles);
      const token = this.peek();
      if (this.isPunct(token, '}')) {
        this.advance();
        break;
      }
      if (!token || (this.isStatementWord(token) && !this.isPunct(this.peek(1), ':')) || this.atBlockHeader()) {
        this.unclosed(`the \`${kind}\` field mapping`, openRange);
        return { ...statement, mappingRange: this.endOfLast(openRange) };
      }
      if (token.kind === 'name' && this.isPunct(this.peek(1), ':') && !this.startsLine(this.peek(1))) {
        this.recovering = false;
        const roleToken = this.advance();
        this.mark(
          roleToken,
          'property',
          roles.includes(roleToken.text) ? `${context}:${roleToken.text}` : undefined,
          'entry',
        );
        this.advance();
        const role = { text: roleToken.text, range: this.rangeOf(roleToken) };
        let value: NameNode | undefined;
        // `format:` names the format of every body (`format: html`) or, any other name, the field that holds
        // each record's own (`format: kind`: a corpus mixing Markdown, HTML and JSON tables).
        const next = this.peek();
        const isFormat = kind === 'corpus' && role.text === 'format';
        if (isFormat && next?.kind === 'name' && documentFormats.includes(next.text)) {
          value = this.expectWord(documentFormats, 'format', 'a format (markdown, html, text or json) after `format:`');
        } else if (isFormat) {
          this.offerWords('format', documentFormats);
          this.offer({ kind: 'field', source: kind, role: role.text });
          value = this.expectNameOrString(
            'a format (markdown, html, text or json) or the field that holds each record’s format after `format:`',
          );
        } else {
          this.offer({ kind: 'field', source: kind, role: role.text });
          value = this.expectNameOrString(`the name of the field that holds the ${role.text} after \`${role.text}:\``);
        }
        mappings.push({ role, range: this.endOfLast(role.range), ...(value && { value }) });
        continue;
      }
      if (!this.recovering) {
        if (token.kind === 'name') {
          this.advance();
          this.expected(`\`:\` and a field name after the role \`${token.text}\` (mappings read \`role: field\`)`);
          continue;
        }
        this.expected(`a mapping \`role: field\` (roles: ${roles.join(', ')}) or \`}\``, undefined, false);
      }
      this.skipOne();
    }
    this.recovering = outerRecovering;
    return { ...statement, mappingRange: this.endOfLast(openRange) };
  }

  private parseScale(keyword: TextRange): StatementNode {
    const scaleKind = this.expectWord(
      scaleKinds,
      'scale-kind',
      'the scale kind (ordinal, nominal or binary) after `scale`',
    );
    const entries: ScaleEntry[] = [];
    const statement = { kind: 'scale' as const, keyword, range: keyword, entries, ...(scaleKind && { scaleKind }) };
    if (!this.isPunct(this.peek(), '{')) {
      if (!this.recovering) this.expected('`{` and the scale values (`VALUE "label" key "k"`)');
      return statement;
    }
    this.parseBraced(
      'the scale',
      'scale',
      'number',
      'a scale value (`VALUE "label" key "k" ["description"] [gain G]`) or `}`',
      () => entries.push(this.parseScaleEntry()),
    );
    return statement;
  }

  private parseScaleEntry(): ScaleEntry {
    const valueToken = this.advance();
    valueToken.starts = 'entry';
    const value = this.numberNode(valueToken);
    if (!valueToken.integer && !Number.isNaN(valueToken.number)) {
      this.report('expected-integer', value.range, `expected an integer scale value, found \`${valueToken.text}\``);
    }
    const entry: ScaleEntry = { value, range: value.range };
    const label = this.expectString(`a string with the label of scale value ${valueToken.text}`);
    if (label) {
      entry.label = label;
      const key = this.parseClause('key', 'clause:key', () =>
        this.expectString(`a one-character string after \`key\` (the key that picks ${valueToken.text})`),
      );
      if (key === null) this.expected(`\`key "k"\` after the label of scale value ${valueToken.text}`);
      else if (key) {
        entry.key = key;
        if (this.current()?.kind === 'string') entry.description = this.stringNode(this.advance());
        const gain = this.parseClause('gain', 'clause:gain', () =>
          this.expectNumber(`a number ≥ 0 after \`gain\` (the gain of ${valueToken.text} in nDCG)`),
        );
        if (gain) {
          // The ideal ranking sorts by gain: a negative one would make nDCG's ideal meaningless (as --gains).
          if (gain.value < 0) {
            this.report(
              'negative-gain',
              gain.range,
              `expected a gain ≥ 0 for scale value ${valueToken.text}, found \`${gain.value}\``,
            );
          }
          entry.gain = gain;
        }
      }
    }
    entry.range = this.endOfLast(value.range);
    return entry;
  }

  /** `levels 0 1 2` after an aspect's question: the values a graded aspect is answered with. */
  private parseAspectLevels(aspect: Extract<StatementNode, { kind: 'aspect' }>, name: string): void {
    if (this.recovering) return;
    this.offer({ kind: 'words', ids: ['clause:aspect-levels'] });
    if (!this.onLine((token) => this.isWord(token, 'levels'))) return;
    const word = this.advance();
    this.mark(word, 'keyword', 'clause:aspect-levels');
    aspect.levelsKeyword = this.rangeOf(word);
    const levels: NumberNode[] = [];
    while (this.current()?.kind === 'number') {
      const token = this.current()!;
      const level = this.numberNode(this.advance());
      if (!token.integer && !Number.isNaN(token.number)) {
        this.report('expected-integer', level.range, `expected an integer level, found \`${token.text}\``);
      }
      levels.push(level);
    }
    if (levels.length === 0) this.expected(`the levels of aspect \`${name}\` (integers, such as \`levels 0 1 2\`)`);
    aspect.levels = levels;
  }

  private parseDerive(keyword: TextRange): StatementNode {
    this.offerWords('clause', ['derive-label']);
    const target = this.expectName('what to derive (`label`) after `derive`');
    if (!target) return { kind: 'derive', keyword, range: keyword };
    if (target.text === 'label') this.peekBehind().doc = 'clause:derive-label';
    this.peekBehind().semantic = 'keyword';
    if (!this.isPunct(this.current(), '=')) {
      this.expected(`\`=\` after \`derive ${target.text}\``);
      return { kind: 'derive', keyword, range: keyword, target };
    }
    this.mark(this.advance(), 'operator');
    let expression: Expression | undefined;
    try {
      expression = this.parseExpression(0);
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      this.skipExpressionRest();
    }
    return { kind: 'derive', keyword, range: keyword, target, ...(expression && { expression }) };
  }

  private peekBehind(): Token {
    return this.lastConsumed!;
  }

  private parseJudge(keyword: TextRange): StatementNode {
    const model = this.expectString('a string with the model name after `judge`');
    const options: JudgeOption[] = [];
    const statement = { kind: 'judge' as const, keyword, range: keyword, options, ...(model && { model }) };
    if (!this.isPunct(this.peek(), '{')) return statement;
    const open = this.advance();
    open.layout = 'list';
    const openRange = this.rangeOf(open);
    this.recovering = false;
    for (;;) {
      this.offerStart('judge-option', judgeOptions);
      const token = this.peek();
      if (this.isPunct(token, '}')) {
        this.advance();
        break;
      }
      if (
        !token ||
        this.atBlockHeader() ||
        (this.isStatementWord(token) && !judgeOptions.includes(token.text as JudgeOptionName))
      ) {
        this.unclosed('the `judge` block', openRange);
        return statement;
      }
      if (token.kind === 'name' && judgeOptions.includes(token.text as JudgeOptionName)) {
        this.recovering = false;
        options.push(this.parseJudgeOption());
        continue;
      }
      if (!this.recovering) {
        if (token.kind === 'name') this.unknownKeyword(token, judgeOptions, 'in a `judge` block');
        else this.expected(`a judge option (${judgeOptions.join(', ')}) or \`}\``, undefined, false);
      }
      this.skipOne();
    }
    this.recovering = false;
    return statement;
  }

  private parseJudgeOption(): JudgeOption {
    const nameToken = this.advance();
    const name = nameToken.text as JudgeOptionName;
    this.mark(nameToken, 'keyword', `judge-option:${name}`, 'entry');
    const nameRange = this.rangeOf(nameToken);
    let value: StringNode | NumberNode | undefined;
    let extra: Pick<JudgeOption, 'mode' | 'currency' | 'conditions'> = {};
    switch (name) {
      case 'endpoint':
        value = this.expectString('a string with the endpoint URL after `endpoint`');
        break;
      case 'prompt':
        value = this.expectPath('prompt', 'a string with the prompt template path after `prompt`');
        break;
      case 'temperature':
        value = this.expectNumber('a number after `temperature` (0 to 2)');
        break;
      case 'mode': {
        const mode = this.expectWord(judgeModes, 'judge-mode', `the mode (${judgeModes.join(' or ')}) after \`mode\``);
        if (mode) extra = { mode };
        break;
      }
      case 'budget': {
        value = this.expectNumber('the amount (a positive number, such as `25 USD`) after `budget`');
        if (!value) break;
        const currency = this.expectWord(
          currencies,
          'currency',
          `the currency (${currencies.join(', ')}) after \`budget ${value.text}\``,
        );
        if (currency) extra = { currency };
        break;
      }
      case 'accept':
        extra = { conditions: this.parseGate() };
        break;
      default:
        value = this.expectInteger(`an integer after \`${name}\``);
    }
    return { name, nameRange, range: this.endOfLast(nameRange), ...(value && { value }), ...extra };
  }

  /** `when tau >= 0.9 and kappa >= 0.6` after `accept`: conditions joined by `and`, on the option's line. */
  private parseGate(): JudgeGateConditionNode[] {
    const conditions: JudgeGateConditionNode[] = [];
    this.offer({ kind: 'words', ids: ['clause:accept-when'] });
    if (!this.isWord(this.current(), 'when')) {
      this.expected('`when` and the conditions after `accept` (`accept when tau >= 0.9 and kappa >= 0.6`)');
      return conditions;
    }
    let joiner = this.advance();
    this.mark(joiner, 'keyword', 'clause:accept-when');
    for (;;) {
      const start = this.peek();
      const metric = this.expectWord(
        gateMetrics,
        'gate-metric',
        `a metric (${gateMetrics.join(', ')}) after \`${joiner.text}\``,
      );
      // A misspelt metric is reported and consumed: the rest of the condition is still read, so it is one error.
      if (this.recovering || !start) return conditions;
      const condition: JudgeGateConditionNode = { range: this.rangeOf(start), ...(metric && { metric }) };
      conditions.push(condition);
      this.offerWords('gate-operator', gateOperators);
      const operator = this.current();
      if (operator?.kind !== 'punct' || !gateOperators.includes(operator.text)) {
        this.expected(`a comparison (${gateOperators.join(', ')}) after \`${start.text}\``);
        return conditions;
      }
      this.mark(this.advance(), 'operator', `gate-operator:${operator.text}`);
      condition.operator = { text: operator.text, range: this.rangeOf(operator) };
      const value = this.expectNumber(`a number after \`${start.text} ${operator.text}\``);
      if (!value) return conditions;
      condition.value = value;
      condition.range = this.endOfLast(condition.range);
      this.offer({ kind: 'words', ids: ['clause:gate-and'] });
      const next = this.current();
      if (this.isWord(next, 'and')) {
        joiner = this.advance();
        this.mark(joiner, 'keyword', 'clause:gate-and');
        continue;
      }
      // Entries of a judge block may share a line: another option or the `}` may follow the last condition.
      if (
        next &&
        !this.isPunct(next, '}') &&
        !(next.kind === 'name' && judgeOptions.includes(next.text as JudgeOptionName))
      ) {
        this.expected(
          `\`and\` and another condition, or the end of the line, after \`${start.text} ${operator.text} ${value.text}\``,
        );
      }
      return conditions;
    }
  }

  private parseAgreement(keyword: TextRange): StatementNode {
    const metric = this.expectWord(
      agreementMetrics,
      'agreement-metric',
      `the agreement statistic (${agreementMetrics.join(', ')}) after \`agreement\``,
    );
    const statement: AgreementStatement = { kind: 'agreement', keyword, range: keyword, ...(metric && { metric }) };
    if (this.recovering) return statement;
    this.offerWords('agreement-level', agreementLevels);
    const next = this.onLine((token) => token.kind === 'name');
    if (next?.kind === 'name' && !this.isWord(next, 'target') && !this.isStatementWord(next) && !this.atBlockHeader()) {
      const level = this.expectWord(
        agreementLevels,
        'agreement-level',
        `a level (${agreementLevels.join(', ')}) or \`target\``,
      );
      if (level) statement.level = level;
    }
    const target = this.parseClause('target', 'clause:target', () =>
      this.expectNumber('a number in (0, 1] after `target`'),
    );
    if (target) statement.target = target;
    return statement;
  }

  private parseExport(keyword: TextRange): StatementNode {
    const kinds = exportKinds[this.block];
    const what = this.expectWord(kinds, 'export-kind', `what to export (${kinds.join(', ')}) after \`export\``);
    const path = this.expectPath('export', `a string with the path to write after \`export ${what?.text ?? ''}\``);
    const statement: ExportStatement = {
      kind: 'export',
      keyword,
      range: keyword,
      ...(what && { what }),
      ...(path && { path }),
    };
    const source = this.parseClause('from', 'clause:export-from', () => {
      this.joinHyphenated();
      const word = this.expectWord(
        labelSources,
        'label-source',
        `a label source (${labelSources.join(', ')}) after \`from\``,
      );
      // `from mean > 1.5`: the rule's threshold.
      if (word?.text === 'mean') {
        if (this.isPunct(this.current(), '>')) {
          this.advance();
          const threshold = this.expectNumber('the threshold (a number) after `from mean >`');
          if (threshold) statement.threshold = threshold;
        } else {
          this.expected('`>` and the threshold after `from mean` (`from mean > 1.5`)');
        }
      }
      return word;
    });
    if (source) statement.source = source;
    if (this.block === 'study' && !this.recovering) {
      this.offer({ kind: 'words', ids: ['clause:per'] });
      if (this.onLine((token) => this.isWord(token, 'per'))) {
        const per = this.advance();
        this.mark(per, 'keyword', 'clause:per');
        this.offer({ kind: 'words', ids: ['clause:document', 'clause:chunk'] });
        if (this.isWord(this.current(), 'document')) {
          this.mark(this.advance(), 'keyword', 'clause:document');
          statement.perDocument = this.endOfLast(this.rangeOf(per));
        } else if (this.isWord(this.current(), 'chunk')) {
          this.mark(this.advance(), 'keyword', 'clause:chunk');
          statement.perChunk = this.endOfLast(this.rangeOf(per));
        } else {
          this.expected('`document` or `chunk` after `per`');
        }
        // `by max|any` is parsed after `per chunk` too, so that lint can say it needs `per document`.
        const rollup = this.parseClause('by', 'clause:by', () =>
          this.expectWord(
            chunkRollups,
            'chunk-rollup',
            `how chunk labels make a document label (${chunkRollups.join(', ')}) after \`by\``,
          ),
        );
        if (rollup) statement.rollup = rollup;
      }
    }
    return statement;
  }

  private parseTaxonomy(keyword: TextRange): StatementNode {
    const entries: TaxonomyEntry[] = [];
    const statement = { kind: 'taxonomy' as const, keyword, range: keyword, entries };
    if (!this.isPunct(this.peek(), '{')) {
      this.expected('`{` and the taxonomy codes (`CODE "label"`) after `taxonomy`');
      return statement;
    }
    // A code may be quoted ("export" "Export tables"), so that a keyword can be one: a string followed by the label.
    this.parseBraced('the taxonomy', 'list', ['name', 'string'], 'a taxonomy entry (`CODE "label"`) or `}`', () => {
      const token = this.advance();
      if (token.kind === 'name') this.mark(token, 'variable', undefined, 'entry');
      const text = token.kind === 'string' ? this.stringNode(token).value : token.text;
      const code = { text, range: this.rangeOf(token) };
      const label = this.expectString(`a string with the label of \`${token.text}\``);
      entries.push({ code, range: this.endOfLast(code.range), ...(label && { label }) });
    });
    return statement;
  }

  private parseRubric(keyword: TextRange): StatementNode {
    const levels: NameNode[] = [];
    const dimensions: RubricDimension[] = [];
    const statement = { kind: 'rubric' as const, keyword, range: keyword, levels, dimensions };
    this.offerWords('clause', ['levels']);
    if (!this.isWord(this.current(), 'levels')) {
      this.expected('`levels` and the rating levels after `rubric`');
      return statement;
    }
    this.mark(this.advance(), 'keyword', 'clause:levels');
    while (this.onLine((token) => token.kind === 'name' && !this.isStatementWord(token))) {
      const token = this.advance();
      token.semantic = 'enumMember';
      levels.push({ text: token.text, range: this.rangeOf(token) });
    }
    if (levels.length === 0) {
      this.expected('rating levels (names, best first) after `levels`');
      return statement;
    }
    if (!this.isPunct(this.peek(), '{')) {
      this.expected('`{` and the rubric dimensions after the levels');
      return statement;
    }
    this.parseList('the rubric', 'a rubric dimension (a name, optionally a description string) or `}`', (token) => {
      this.mark(token, 'variable', undefined, 'entry');
      const name = { text: token.text, range: this.rangeOf(token) };
      const description = this.current()?.kind === 'string' ? this.stringNode(this.advance()) : undefined;
      dimensions.push({ name, range: this.endOfLast(name.range), ...(description && { description }) });
    });
    return statement;
  }

  /** A `{ NAME … }` list (taxonomy, rubric dimensions); `entry` parses one entry from its name. */
  private parseList(what: string, expectedEntry: string, entry: (name: Token) => void): void {
    this.parseBraced(what, 'list', 'name', expectedEntry, () => entry(this.advance()));
  }

  /**
   * The entries of a `{ … }` whose `{` is next: `entry` parses one, starting at a token of `entryKind`; anything
   * else is reported once and skipped; a statement keyword or block header before the `}` ends it as unclosed.
   */
  private parseBraced(
    what: string,
    layout: 'scale' | 'list',
    entryKind: 'number' | 'name' | readonly ('name' | 'string')[],
    expectedEntry: string,
    entry: () => void,
  ): void {
    const open = this.advance();
    open.layout = layout;
    const openRange = this.rangeOf(open);
    this.recovering = false;
    for (;;) {
      const token = this.peek();
      if (this.isPunct(token, '}')) {
        this.advance();
        break;
      }
      if (!token || this.isStatementWord(token) || this.atBlockHeader()) {
        this.unclosed(what, openRange);
        return;
      }
      if (typeof entryKind === 'string' ? token.kind === entryKind : (entryKind as string[]).includes(token.kind)) {
        this.recovering = false;
        entry();
        continue;
      }
      if (!this.recovering) this.expected(expectedEntry, undefined, false);
      this.skipOne();
    }
    this.recovering = false;
  }

  /** Names (or quoted names) up to the next statement keyword. */
  private parseNameList(): NameNode[] {
    const names: NameNode[] = [];
    for (;;) {
      const token = this.onLine((t) => t.kind === 'string' || (t.kind === 'name' && !this.isStatementWord(t)));
      if (!token || this.atBlockHeader()) break;
      if (token.kind === 'string') {
        names.push({ text: this.stringNode(this.advance()).value, range: this.rangeOf(token) });
      } else if (token.kind === 'name' && !this.isStatementWord(token)) {
        this.advance().semantic = 'variable';
        names.push({ text: token.text, range: this.rangeOf(token) });
      } else {
        break;
      }
    }
    return names;
  }

  // ---- derive expressions ----

  private enter(depth: number): number {
    if (depth >= maxNestingDepth) {
      const token = this.peek();
      if (token) this.reportTooDeep(token, 'expression (parentheses, `!`, `?:`, calls)');
      throw new TooDeep();
    }
    return depth + 1;
  }

  /** After a too-deep expression: skips what can still belong to it. */
  private skipExpressionRest(): void {
    for (;;) {
      const token = this.peek();
      if (!token || token.kind === 'string' || this.isStatementWord(token) || this.atBlockHeader()) return;
      if (this.isPunct(token, '{') || this.isPunct(token, '}')) return;
      this.advance();
    }
  }

  /** `depth` counts the nesting constructs around the expression: `( )`, `!`, call arguments, `?:` branches. */
  private parseExpression(depth: number): Expression | undefined {
    const test = this.parseBinary(depth, 0);
    if (!test || !this.isPunct(this.current(), '?')) return test;
    this.mark(this.advance(), 'operator');
    depth = this.enter(depth);
    const whenTrue = this.parseExpression(depth);
    if (!whenTrue) return undefined;
    if (!this.isPunct(this.current(), ':')) {
      this.expected('`:` and the value when the condition is false');
      return undefined;
    }
    this.mark(this.advance(), 'operator');
    const whenFalse = this.parseExpression(depth);
    if (!whenFalse) return undefined;
    return {
      kind: 'conditional',
      test,
      whenTrue,
      whenFalse,
      range: { start: test.range.start, end: whenFalse.range.end },
    };
  }

  private static readonly levels: readonly ((op: string) => boolean)[] = [
    (op) => op === '||',
    (op) => op === '&&',
    (op) => op === '==' || op === '!=',
    (op) => comparisonOperators.has(op),
    (op) => op === '+' || op === '-',
    (op) => op === '*',
  ];

  /**
   * `x -1` lexes as a name and the number -1 (a number may start with `-`); after an operand it can only be a
   * subtraction, so it is read as `x - 1`.
   */
  private splitNegativeNumber(token: Token | undefined, level: number): boolean {
    return Parser.levels[level]!('-') && token?.kind === 'number' && token.text.startsWith('-') && !token.split;
  }

  /** Left-associative binary operators by precedence level (0: `||` … 3: comparisons, 4: `+ -`, 5: `*`). */
  private parseBinary(depth: number, level: number): Expression | undefined {
    if (level >= Parser.levels.length) return this.parseUnary(depth);
    const matches = Parser.levels[level]!;
    let left = this.parseBinary(depth, level + 1);
    while (left) {
      const token = this.current();
      let operator: BinaryOperator;
      if (this.splitNegativeNumber(token, level)) {
        // The number stays the next token, read as its magnitude.
        token!.split = true;
        operator = '-';
      } else {
        if (token?.kind !== 'punct' || !matches(token.text)) break;
        this.mark(this.advance(), 'operator');
        operator = token.text as BinaryOperator;
      }
      const right = this.parseBinary(depth, level + 1);
      if (!right) return undefined;
      left = {
        kind: 'binary',
        operator,
        left,
        right,
        range: { start: left.range.start, end: right.range.end },
      };
    }
    return left;
  }

  private parseUnary(depth: number): Expression | undefined {
    const token = this.current();
    if (!this.isPunct(token, '!')) return this.parsePrimary(depth);
    depth = this.enter(depth);
    this.mark(this.advance(), 'operator');
    const operand = this.parseUnary(depth);
    return operand && { kind: 'not', operand, range: { start: token!.start, end: operand.range.end } };
  }

  private parsePrimary(depth: number): Expression | undefined {
    this.offer({ kind: 'derive-operand' });
    const token = this.current();
    const what = 'a name, a number, `(` or `!` in the `derive` expression';
    if (!token) {
      this.expected(what);
      return undefined;
    }
    if (token.kind === 'number') {
      this.advance();
      if (!token.integer && !Number.isNaN(token.number)) {
        this.report('expected-integer', this.rangeOf(token), `expected an integer, found \`${token.text}\``);
      }
      const range = this.rangeOf(token);
      // A negative number read as `- magnitude` (splitNegativeNumber): the value and range after the `-`.
      if (token.split)
        return { kind: 'number', value: -token.number!, range: { start: range.start + 1, end: range.end } };
      return { kind: 'number', value: token.number!, range };
    }
    if (token.kind === 'name') {
      if (this.isStatementWord(token) && this.startsLine(token)) {
        this.expected(what);
        return undefined;
      }
      this.advance();
      if (this.isPunct(this.current(), '(')) return this.parseCall(token, depth);
      this.mark(token, 'variable', token.text === 'conditions' ? 'expression-name:conditions' : undefined);
      if (this.isPunct(this.current(), '[')) return this.parseIndex(token);
      return { kind: 'name', name: token.text, range: this.rangeOf(token) };
    }
    if (this.isPunct(token, '(')) {
      depth = this.enter(depth);
      this.advance();
      // Inside `( … )` line breaks continue the expression: the `(` shows that it goes on.
      this.parenDepth++;
      try {
        const inner = this.parseExpression(depth);
        if (!inner) return undefined;
        if (!this.isPunct(this.peek(), ')')) {
          this.expected('`)` to close the `(`');
          return undefined;
        }
        const close = this.advance();
        return { ...inner, range: { start: token.start, end: close.end } };
      } finally {
        this.parenDepth--;
      }
    }
    this.expected(what);
    return undefined;
  }

  /** `NAME[INT]` — the brackets hold a position only (no nesting to guard, and no line break: not `( … )`). */
  private parseIndex(target: Token): Expression | undefined {
    this.advance();
    const index = this.expectInteger(`a condition's position (1 for the first) in \`${target.text}[…]\``);
    if (!index) return undefined;
    if (!this.isPunct(this.current(), ']')) {
      this.expected('`]` to close the `[`');
      return undefined;
    }
    const close = this.advance();
    return {
      kind: 'index',
      target: { text: target.text, range: this.rangeOf(target) },
      index,
      range: { start: target.start, end: close.end },
    };
  }

  private parseCall(callee: Token, depth: number): Expression | undefined {
    this.mark(callee, 'keyword', `function:${callee.text}`);
    if (!expressionFunctions.includes(callee.text)) callee.semantic = 'variable';
    this.advance();
    const args: Expression[] = [];
    this.parenDepth++;
    try {
      if (!this.isPunct(this.peek(), ')')) {
        depth = this.enter(depth);
        for (;;) {
          const argument = this.parseExpression(depth);
          if (!argument) return undefined;
          args.push(argument);
          if (!this.isPunct(this.peek(), ',')) break;
          this.advance();
        }
      }
      if (!this.isPunct(this.peek(), ')')) {
        this.expected(`\`,\` or \`)\` in the arguments of \`${callee.text}\``);
        return undefined;
      }
    } finally {
      this.parenDepth--;
    }
    const close = this.advance();
    return {
      kind: 'call',
      callee: { text: callee.text, range: this.rangeOf(callee) },
      args,
      range: { start: callee.start, end: close.end },
    };
  }

  // ---- terminals ----

  private stringNode(token: Token): StringNode {
    token.semantic = 'string';
    return { value: token.value ?? '', range: this.rangeOf(token) };
  }

  private numberNode(token: Token): NumberNode {
    token.semantic = 'number';
    return {
      value: token.number ?? Number.NaN,
      text: token.text,
      integer: token.integer === true,
      range: this.rangeOf(token),
    };
  }

  private expectString(what: string): StringNode | undefined {
    if (this.current()?.kind === 'string') return this.stringNode(this.advance());
    this.expected(what);
    return undefined;
  }

  private expectPath(statement: string, what: string): StringNode | undefined {
    this.offer({ kind: 'path', statement });
    return this.expectString(what);
  }

  private expectName(what: string): NameNode | undefined {
    const token = this.current();
    if (token?.kind === 'name' && !(this.isStatementWord(token) && this.startsLine(token))) {
      this.advance().semantic = 'variable';
      return { text: token.text, range: this.rangeOf(token) };
    }
    this.expected(what);
    return undefined;
  }

  /** A name, or a quoted name (for field names with spaces or other characters). */
  private expectNameOrString(what: string): NameNode | undefined {
    const token = this.current();
    if (token?.kind === 'string') return { text: this.stringNode(this.advance()).value, range: this.rangeOf(token) };
    return this.expectName(what);
  }

  private expectNumber(what: string): NumberNode | undefined {
    if (this.current()?.kind === 'number') return this.numberNode(this.advance());
    this.expected(what);
    return undefined;
  }

  private expectInteger(what: string): NumberNode | undefined {
    const token = this.current();
    if (token?.kind !== 'number') {
      this.expected(what);
      return undefined;
    }
    const node = this.numberNode(this.advance());
    if (!token.integer && !Number.isNaN(token.number)) {
      this.report('expected-integer', node.range, `expected ${what}, found \`${token.text}\``);
    }
    return node;
  }

  /** A word written with hyphens (`human-else-llm`), lexed as names and `-`, becomes one name token. */
  private joinHyphenated(): void {
    const at = this.pos;
    if (this.current()?.kind !== 'name') return;
    const tokens = this.tokens;
    while (
      this.isPunct(tokens[at + 1], '-') &&
      tokens[at + 1]!.start === tokens[at]!.end &&
      tokens[at + 2]?.kind === 'name' &&
      tokens[at + 2]!.start === tokens[at + 1]!.end
    ) {
      const end = tokens[at + 2]!.end;
      tokens[at] = { ...tokens[at]!, end, text: this.text.slice(tokens[at]!.start, end) };
      tokens.splice(at + 1, 2);
    }
  }

  /** One of `words` (an enumerated value). A misspelt one is consumed and reported with its likely fix. */
  private expectWord(words: readonly string[], context: KeywordContext, what: string): NameNode | undefined {
    this.offerWords(context, words);
    const token = this.current();
    const nextStatement = this.isStatementWord(token) && this.startsLine(token) && !words.includes(token!.text);
    if (token?.kind !== 'name' || nextStatement || this.atBlockHeader()) {
      this.expected(what);
      return undefined;
    }
    this.advance();
    if (words.includes(token.text)) {
      this.mark(token, 'enumMember', `${context}:${token.text}`);
      return { text: token.text, range: this.rangeOf(token) };
    }
    const { hint, fixes } = this.didYouMean(token, words);
    this.report(
      'unknown-value',
      this.rangeOf(token),
      `expected ${what}, found \`${token.text}\`${hint}`,
      fixes ? { fixes } : {},
    );
    return undefined;
  }
}

function sortDiagnostics(diagnostics: DslDiagnostic[]): DslDiagnostic[] {
  return diagnostics.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}

/** Parses a study file: the tree, the lexical and syntax errors, the annotated tokens. Never throws. */
export function parseStudyFile(text: string): ParsedStudyFile {
  try {
    const { tokens, diagnostics } = lex(text);
    const parser = new Parser(text, tokens, false);
    const ast = parser.parseFile();
    return { text, ast, tokens, diagnostics: sortDiagnostics([...diagnostics, ...parser.diagnostics]) };
  } catch (error) {
    // A bug in the parser must not take the language server or the CLI down with it: it becomes a diagnostic
    // (the property tests check that no input gets here).
    const message = error instanceof Error ? error.message : String(error);
    return {
      text,
      ast: { blocks: [], stores: [] },
      tokens: [],
      diagnostics: [
        {
          range: { start: 0, end: Math.min(1, text.length) },
          severity: 'error',
          code: 'internal-error',
          message: `the study parser failed: ${message}`,
        },
      ],
    };
  }
}

/** Completion mode: what the parser would accept at the end of `prefix`, and the tree of the prefix. */
export function expectationsAt(prefix: string): { expectations: Expectation[]; ast: StudyFileAst } {
  const { tokens } = lex(prefix);
  const parser = new Parser(prefix, tokens, true);
  const ast = parser.parseFile();
  return { expectations: parser.expectations ?? [], ast };
}
