// Recursive-descent parser with Jinja2's grammar and precedence (jinja2/parser.py, 3.1), producing
// the position-preserving AST of ./ast. Error tolerant: a problem inside a tag is reported, the tag
// is skipped or patched with an Error node, and parsing goes on, so one typo never hides the rest.
import type * as A from "./ast";
import { chatTemplateLexOptions, Lexer, type LexOptions, type Token, type TokenType } from "./lexer";
import { TokenWindow } from "./tokenWindow";
import type { SyntaxProblem } from "./problems";
import { fitted } from "./fitted";
import { LineIndex } from "./lineIndex";
import { deepestOpening, limitDepth, MAX_NESTING, nestingMessage } from "./nesting";

export interface ParseResult {
  template: A.Template;
  problems: SyntaxProblem[];
  /** Number of node ids handed out (ids are 0 … nodeCount-1). */
  nodeCount: number;
}

class ParseError extends Error {
  constructor(
    readonly span: A.Span,
    message: string,
    readonly code: SyntaxProblem["code"] = "syntax/unexpected-token",
  ) {
    super(message);
  }
}

const TOKEN_DESCRIPTIONS: Partial<Record<TokenType, string>> = {
  block_begin: "begin of statement block",
  block_end: "end of statement block",
  variable_begin: "begin of print statement",
  variable_end: "end of print statement",
  raw_begin: "begin of raw block",
  raw_end: "end of raw block",
  comment: "comment",
  text: "template data",
  string: "string",
  integer: "integer",
  float: "float",
  eof: "end of template",
};

function describe(t: Token): string {
  if (t.type === "name" || t.type === "operator") return t.value;
  return TOKEN_DESCRIPTIONS[t.type] ?? t.type;
}

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
/** Tags that open a block (a block `set` aside: it needs its whole header read to tell). */
const BLOCK_TAGS = new Set(["if", "for", "macro", "call", "filter", "with", "generation", "block", "autoescape"]);
/** Tags whose end tags the parser knows, for nesting-mistake messages. */
const CLOSING_WORDS = new Set(["elif", "else"]);
const UNSUPPORTED_LOADER_TAGS: Record<string, string> = {
  include: "'include' needs a template loader; a chat template is rendered alone, so every engine fails here at render time",
  import: "'import' needs a template loader; a chat template is rendered alone, so every engine fails here at render time",
  from: "'from … import' needs a template loader; a chat template is rendered alone, so every engine fails here at render time",
  extends: "'extends' needs a template loader; a chat template is rendered alone, so every engine fails here at render time",
  block: "'block' is for template inheritance; alone it just renders its body in Jinja2, and other engines may not accept it",
};

interface SubparseEnd {
  /** The end tag name found (the parser stands on it), or null at end of template / interruption. */
  name: string | null;
  /** Set when an outer block's end tag closed this body early (a nesting mistake). */
  interruptedBy: Token | null;
}

function quoteList(names: string[]): string {
  return names.map((n) => `'${n}'`).join(" or ");
}

class Parser {
  private i = 0;
  /** Tokens before this index were let go (see release). */
  private nextId = 0;
  private readonly endStack: string[][] = [];
  private readonly tagStack: { name: string; open: A.Span }[] = [];
  /** The `ns.attr` targets parsed as Jinja2's NSRef: the only attribute targets an assignment may have. */
  private readonly namespaceRefs = new WeakSet<A.Expr>();
  private readonly lines: LineIndex;
  /** Brackets, unary operators and `if`-expressions open around the expression being parsed. */
  private nesting = 0;
  /** Set when blocks nested past MAX_NESTING: the rest of the template is not parsed. */
  private abandoned = false;

  constructor(
    private readonly src: string,
    private readonly tokens: TokenWindow<Token>,
    private readonly problems: SyntaxProblem[],
  ) {
    this.lines = new LineIndex(src);
  }

  get nodeCount(): number {
    return this.nextId;
  }

  // ------------------------------------------------------------ token stream

  /** The token at index `i`: the end-of-template token for any index past it. */
  private tok(i: number): Token {
    return this.tokens.at(i) ?? this.tokens.at(this.tokens.length - 1)!;
  }
  private get cur(): Token {
    return this.tok(this.i);
  }
  private look(n = 1): Token {
    return this.tok(this.i + n);
  }
  private advance(): Token {
    const t = this.tok(this.i);
    if (t.type !== "eof") this.i++;
    this.release();
    return t;
  }
  private isOp(op: string, t: Token = this.cur): boolean {
    return t.type === "operator" && t.value === op;
  }
  private isName(name: string, t: Token = this.cur): boolean {
    return t.type === "name" && t.value === name;
  }
  private skipOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.advance();
    return true;
  }
  private skipName(name: string): boolean {
    if (!this.isName(name)) return false;
    this.advance();
    return true;
  }
  private fail(message: string, t: Token = this.cur, code?: SyntaxProblem["code"]): never {
    throw new ParseError({ start: t.start, end: Math.max(t.end, t.start + 1) }, message, code);
  }
  private expectOp(op: string): Token {
    if (!this.isOp(op)) this.fail(`expected token '${op}', got '${describe(this.cur)}'`);
    return this.advance();
  }
  private expectName(): Token {
    if (this.cur.type !== "name") this.fail(`expected token 'name', got '${describe(this.cur)}'`);
    return this.advance();
  }
  private expectType(type: TokenType): Token {
    if (this.cur.type !== type) {
      this.fail(`expected token '${TOKEN_DESCRIPTIONS[type]}', got '${describe(this.cur)}'`);
    }
    return this.advance();
  }
  private id(): number {
    return this.nextId++;
  }
  /** Lets the tokens the parser has gone past go (TokenWindow), within a long expression too: it never looks more than two tokens back. */
  private release(): void {
    this.tokens.release(this.i - 2);
  }
  private prevEnd(): number {
    return this.i > 0 ? this.tok(this.i - 1).end : 0;
  }
  private report(
    span: A.Span,
    message: string,
    code: SyntaxProblem["code"],
    severity: "error" | "warning" = "error",
    related?: SyntaxProblem["related"],
  ): void {
    this.problems.push({ start: span.start, end: span.end, message, code, severity, ...(related ? { related } : {}) });
  }
  private reportError(e: unknown): void {
    if (!(e instanceof ParseError)) throw e;
    this.report(e.span, e.message, e.code);
  }

  /** Skips the rest of the current tag, including its end delimiter. */
  private skipTag(): void {
    while (true) {
      const t = this.cur.type;
      if (t === "block_end" || t === "variable_end") {
        this.advance();
        return;
      }
      if (t === "eof" || t === "block_begin" || t === "variable_begin" || t === "text" || t === "raw_begin") return;
      this.advance();
    }
  }

  private textNode(t: Token): A.Text {
    const d = t.text!;
    return {
      kind: "Text",
      id: this.id(),
      start: t.start,
      end: t.end,
      value: d.value,
      valueStart: d.valueStart,
      valueEnd: d.valueEnd,
      before: d.before,
      after: d.after,
    };
  }

  private errorExpr(at: number): A.ErrorExpr {
    return { kind: "ErrorExpr", id: this.id(), start: at, end: at };
  }

  // ------------------------------------------------------------ template level

  parseTemplate(): A.Template {
    const body = this.subparse(null).body;
    const t: A.Template = { kind: "Template", id: this.id(), start: 0, end: this.src.length, body, comments: [] };
    limitDepth(
      t,
      (at, message) => this.report(at, message, "syntax/nesting"),
      () => this.id(),
    );
    return t;
  }

  /** The token where the nesting that crossed the limit at token `from` goes deepest (nesting.ts), or null. */
  private deepestFrom(from: number, opens: (i: number) => boolean, closes: (i: number) => boolean): Token | null {
    const at = deepestOpening(from, this.tokens.length - 1, opens, closes);
    return at === null ? null : this.tok(at);
  }

  /** Runs a parse step one nesting level deeper, refusing it past MAX_NESTING (the parser's own stack). */
  private deeper<T>(parse: () => T): T {
    if (this.nesting >= MAX_NESTING) {
      const bracket = (i: number, kinds: string) => this.tok(i).type === "operator" && kinds.includes(this.tok(i).value);
      this.fail(
        nestingMessage("brackets and operators"),
        this.deepestFrom(
          this.i,
          (i) => bracket(i, "([{"),
          (i) => bracket(i, ")]}"),
        ) ?? this.cur,
        "syntax/nesting",
      );
    }
    this.nesting++;
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }

  private subparse(endTags: string[] | null): { body: A.Stmt[]; end: SubparseEnd } {
    const body: A.Stmt[] = [];
    if (endTags) this.endStack.push(endTags);
    try {
      while (true) {
        const t = this.cur;
        switch (t.type) {
          case "eof":
            return { body: fitted(body), end: { name: null, interruptedBy: null } };
          case "text":
            this.advance();
            body.push(this.textNode(t));
            break;
          case "comment":
            this.advance();
            break;
          case "raw_begin":
            body.push(this.parseRaw());
            break;
          case "variable_begin":
            body.push(this.parseOutput());
            break;
          case "block_begin": {
            const nameTok = this.look();
            if (nameTok.type === "name") {
              if (endTags?.includes(nameTok.value)) {
                this.i += 2;
                return { body: fitted(body), end: { name: nameTok.value, interruptedBy: null } };
              }
              if (this.closesOuterBlock(nameTok.value)) {
                return { body: fitted(body), end: { name: null, interruptedBy: nameTok } };
              }
            }
            const stmt = this.parseStatement();
            if (Array.isArray(stmt)) body.push(...stmt);
            else if (stmt) body.push(stmt);
            break;
          }
          default:
            // Stray tokens cannot occur outside tags (the lexer brackets them), but stay safe.
            this.advance();
        }
      }
    } finally {
      if (endTags) this.endStack.pop();
    }
  }

  private closesOuterBlock(tagName: string): boolean {
    for (const tags of this.endStack) if (tags.includes(tagName)) return true;
    return false;
  }

  private parseOutput(): A.Output | A.ErrorStmt {
    const begin = this.advance();
    try {
      const expr = this.parseTuple({ withCondexpr: true });
      const end = this.expectType("variable_end");
      return { kind: "Output", id: this.id(), start: begin.start, end: end.end, expr };
    } catch (e) {
      this.reportError(e);
      this.skipTag();
      return { kind: "ErrorStmt", id: this.id(), start: begin.start, end: this.prevEnd() };
    }
  }

  private parseRaw(): A.Raw {
    const begin = this.advance();
    let text: A.Text;
    if (this.cur.type === "text") {
      const t = this.advance();
      text = this.textNode(t);
    } else {
      text = {
        kind: "Text",
        id: this.id(),
        start: begin.end,
        end: begin.end,
        value: "",
        valueStart: begin.end,
        valueEnd: begin.end,
        before: null,
        after: null,
      };
    }
    let endTag: A.Span | null = null;
    if (this.cur.type === "raw_end") {
      const e = this.advance();
      endTag = { start: e.start, end: e.end };
    }
    return {
      kind: "Raw",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? text.end,
      openTag: { start: begin.start, end: begin.end },
      endTag,
      text,
    };
  }

  /** Parses one `{% … %}` statement; the parser stands on its block_begin. */
  private parseStatement(): A.Stmt | A.Stmt[] | null {
    const begin = this.advance();
    const nameTok = this.cur;
    try {
      if (nameTok.type !== "name") this.fail("tag name expected", nameTok, "syntax/missing-tag-name");
      switch (nameTok.value) {
        case "for":
          return this.parseFor(begin);
        case "if":
          return this.parseIf(begin);
        case "set":
          return this.parseSet(begin);
        case "macro":
          return this.parseMacro(begin);
        case "call":
          return this.parseCallBlock(begin);
        case "filter":
          return this.parseFilterBlock(begin);
        case "with":
          return this.parseWith(begin);
        case "generation":
          return this.parseGeneration(begin);
        case "autoescape":
          return this.parseAutoescape(begin);
        case "break":
        case "continue": {
          this.advance();
          const end = this.expectType("block_end");
          const kind = nameTok.value === "break" ? "Break" : "Continue";
          return { kind, id: this.id(), start: begin.start, end: end.end };
        }
        case "print":
          return this.parsePrint();
        case "include":
        case "import":
        case "from":
        case "extends":
          return this.parseTemplateRef(begin, nameTok);
        case "block":
          return this.parseBlock(begin);
        default:
          this.unknownTag(nameTok);
      }
    } catch (e) {
      this.reportError(e);
      this.skipTag();
      return { kind: "ErrorStmt", id: this.id(), start: begin.start, end: this.prevEnd() };
    }
  }

  private unknownTag(nameTok: Token): never {
    const name = nameTok.value;
    const parts = [`Encountered unknown tag '${name}'.`];
    const innermost = this.endStack[this.endStack.length - 1];
    if (innermost) parts.push(`Jinja was looking for the following tags: ${quoteList(innermost)}.`);
    const open = this.tagStack[this.tagStack.length - 1];
    if (open)
      parts.push(
        `The innermost block that needs to be closed is '${open.name}' (opened at line ${this.lines.lineOf(open.open.start) + 1}).`,
      );
    const code = name.startsWith("end") || CLOSING_WORDS.has(name) ? "syntax/unexpected-end-tag" : "syntax/unknown-tag";
    this.fail(parts.join(" "), nameTok, code);
  }

  /** After a block header: optional `:` then `%}`. */
  private endHeader(): A.Span {
    this.skipOp(":");
    const end = this.expectType("block_end");
    return { start: end.start, end: end.end };
  }

  /**
   * Parses a block statement's header with `parse`; on a syntax error there, reports it, skips to
   * the end of the tag and returns null so the body is still parsed and later tags stay in place.
   */
  private header<T>(parse: () => T): T | null {
    try {
      const r = parse();
      this.endHeader();
      return r;
    } catch (e) {
      this.reportError(e);
      this.skipTag();
      return null;
    }
  }

  /**
   * Parses a body up to one of `endTags`. Returns the end tag found (standing after its name), or
   * null after reporting the block as unclosed.
   */
  private body(tagName: string, open: A.Span, endTags: string[]): { body: A.Stmt[]; end: string | null } {
    if (this.tagStack.length >= MAX_NESTING) {
      // Reported where the nesting goes deepest; the rest is not parsed (one error, not one per tag).
      const tag = (i: number) => (this.tok(i).type === "block_begin" && this.tok(i + 1).type === "name" ? this.tok(i + 1).value : "");
      const deepest = this.deepestFrom(
        this.i,
        (i) => BLOCK_TAGS.has(tag(i)),
        (i) => tag(i).startsWith("end"),
      );
      this.report(deepest ? { start: deepest.start, end: deepest.end } : open, nestingMessage("blocks"), "syntax/nesting");
      this.abandoned = true;
      this.i = this.tokens.length - 1;
      return { body: [], end: null };
    }
    this.tagStack.push({ name: tagName, open });
    try {
      const { body, end } = this.subparse(endTags);
      if (end.name === null && !this.abandoned) this.reportUnclosed(tagName, open, endTags, end.interruptedBy);
      return { body, end: end.name };
    } finally {
      this.tagStack.pop();
    }
  }

  private reportUnclosed(tagName: string, open: A.Span, endTags: string[], interruptedBy: Token | null): void {
    const line = this.lines.lineOf(open.start) + 1;
    const first = interruptedBy
      ? `Unexpected '${interruptedBy.value}' at line ${this.lines.lineOf(interruptedBy.start) + 1}: the '${tagName}' block opened here is not closed.`
      : "Unexpected end of template.";
    const message = `${first} Jinja was looking for the following tags: ${quoteList(endTags)}. The innermost block that needs to be closed is '${tagName}' (opened at line ${line}).`;
    const related = interruptedBy
      ? [{ start: interruptedBy.start, end: interruptedBy.end, message: `'${interruptedBy.value}' closes an outer block` }]
      : [{ start: this.src.length, end: this.src.length, message: "end of template" }];
    this.report(open, message, "syntax/unclosed-block", "error", related);
  }

  /** Consumes the rest of an end tag (`{% endfor %}`): its name was consumed by subparse. */
  private finishEndTag(): A.Span {
    const nameTok = this.tok(this.i - 1);
    const begin = this.tok(this.i - 2);
    try {
      this.expectType("block_end");
    } catch (e) {
      this.reportError(e);
      this.skipTag();
    }
    return { start: begin?.type === "block_begin" ? begin.start : nameTok.start, end: this.prevEnd() };
  }

  private openTagSpan(begin: Token): A.Span {
    return { start: begin.start, end: this.prevEnd() };
  }

  private parseFor(begin: Token): A.For {
    this.advance();
    const h = this.header(() => {
      const target = this.parseAssignTarget({ extraEnd: ["in"] });
      if (!this.isName("in")) this.fail(`expected 'in' after the loop variable, got '${describe(this.cur)}'`);
      this.advance();
      const iter = this.parseTuple({ withCondexpr: false, extraEnd: ["recursive"] });
      const filter = this.skipName("if") ? this.parseExpression() : null;
      const recursive = this.skipName("recursive");
      return { target, iter, filter, recursive };
    });
    const openTag = this.openTagSpan(begin);
    const at = openTag.end;
    const main = this.body("for", openTag, ["endfor", "else"]);
    let orElse: A.Stmt[] | null = null;
    let elseTag: A.Span | null = null;
    let endTag: A.Span | null = null;
    let end = main.end;
    if (end === "else") {
      elseTag = this.finishEndTag();
      const e = this.body("for", openTag, ["endfor"]);
      orElse = e.body;
      end = e.end;
    }
    if (end === "endfor") endTag = this.finishEndTag();
    return {
      kind: "For",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? this.prevEnd(),
      openTag,
      endTag,
      target: h?.target ?? this.errorExpr(at),
      iter: h?.iter ?? this.errorExpr(at),
      filter: h?.filter ?? null,
      recursive: h?.recursive ?? false,
      body: main.body,
      orElse,
      elseTag,
    };
  }

  private parseIf(begin: Token): A.If {
    this.advance();
    const branches: A.IfBranch[] = [];
    let tagStart = begin.start;
    let orElse: A.Stmt[] | null = null;
    let elseTag: A.Span | null = null;
    let endTag: A.Span | null = null;
    const openTag = { start: begin.start, end: begin.end };
    while (true) {
      const test = this.header(() => this.parseTuple({ withCondexpr: false })) ?? this.errorExpr(this.prevEnd());
      const tag = { start: tagStart, end: this.prevEnd() };
      if (branches.length === 0) openTag.end = tag.end;
      const b = this.body("if", openTag, ["elif", "else", "endif"]);
      branches.push({ start: tag.start, end: this.prevEnd(), tag, test, body: b.body });
      if (b.end === "elif") {
        tagStart = this.tok(this.i - 2).start;
        continue;
      }
      if (b.end === "else") {
        elseTag = this.finishEndTag();
        const e = this.body("if", openTag, ["endif"]);
        orElse = e.body;
        if (e.end === "endif") endTag = this.finishEndTag();
      } else if (b.end === "endif") {
        endTag = this.finishEndTag();
      }
      break;
    }
    return {
      kind: "If",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? this.prevEnd(),
      openTag,
      endTag,
      branches: fitted(branches),
      orElse,
      elseTag,
    };
  }

  private parseSet(begin: Token): A.Set | A.SetBlock {
    this.advance();
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skipOp("=")) {
      const value = this.parseTuple({ withCondexpr: true });
      const end = this.expectType("block_end");
      return { kind: "Set", id: this.id(), start: begin.start, end: end.end, target, value };
    }
    const filter = this.isOp("|") ? (this.parseFilter(null, false) as A.Filter) : null;
    this.endHeader();
    const openTag = this.openTagSpan(begin);
    const b = this.body("set", openTag, ["endset"]);
    const endTag = b.end ? this.finishEndTag() : null;
    return {
      kind: "SetBlock",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? this.prevEnd(),
      openTag,
      endTag,
      target,
      filter,
      body: b.body,
    };
  }

  private parseMacro(begin: Token): A.Macro {
    this.advance();
    const h = this.header(() => ({ nameTok: this.expectName(), params: this.parseSignature() }));
    const openTag = this.openTagSpan(begin);
    const b = this.body("macro", openTag, ["endmacro"]);
    const endTag = b.end ? this.finishEndTag() : null;
    const nameTok = h?.nameTok;
    return {
      kind: "Macro",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? this.prevEnd(),
      openTag,
      endTag,
      name: nameTok?.value ?? "",
      nameSpan: nameTok ? { start: nameTok.start, end: nameTok.end } : { start: openTag.end, end: openTag.end },
      params: h?.params ?? [],
      body: b.body,
    };
  }

  private parseSignature(): A.Param[] {
    this.expectOp("(");
    const params: A.Param[] = [];
    let sawDefault = false;
    while (!this.isOp(")")) {
      if (params.length) this.expectOp(",");
      if (this.isOp(")")) break;
      const nameTok = this.expectName();
      let def: A.Expr | null = null;
      if (this.skipOp("=")) {
        def = this.parseExpression();
        sawDefault = true;
      } else if (sawDefault) {
        this.fail("non-default argument follows default argument", nameTok);
      }
      params.push({ name: nameTok.value, default: def, start: nameTok.start, end: def?.end ?? nameTok.end });
    }
    this.expectOp(")");
    return fitted(params);
  }

  private parseCallBlock(begin: Token): A.CallBlock | A.ErrorStmt {
    this.advance();
    const h = this.header(() => {
      const params = this.isOp("(") ? this.parseSignature() : [];
      const callTok = this.cur;
      const call = this.parseExpression();
      if (call.kind !== "Call") this.fail("expected call", callTok);
      return { params, call };
    });
    const openTag = this.openTagSpan(begin);
    const b = this.body("call", openTag, ["endcall"]);
    const endTag = b.end ? this.finishEndTag() : null;
    const span = { start: begin.start, end: endTag?.end ?? this.prevEnd() };
    if (!h) return { kind: "ErrorStmt", id: this.id(), ...span };
    return { kind: "CallBlock", id: this.id(), ...span, openTag, endTag, call: h.call, params: h.params, body: b.body };
  }

  private parseFilterBlock(begin: Token): A.FilterBlock | A.ErrorStmt {
    this.advance();
    const filter = this.header(() => this.parseFilter(null, true) as A.Filter);
    const openTag = this.openTagSpan(begin);
    const b = this.body("filter", openTag, ["endfilter"]);
    const endTag = b.end ? this.finishEndTag() : null;
    const span = { start: begin.start, end: endTag?.end ?? this.prevEnd() };
    if (!filter) return { kind: "ErrorStmt", id: this.id(), ...span };
    return { kind: "FilterBlock", id: this.id(), ...span, openTag, endTag, filter, body: b.body };
  }

  private parseWith(begin: Token): A.With {
    this.advance();
    const assignments =
      this.header(() => {
        const list: A.WithAssignment[] = [];
        while (this.cur.type !== "block_end" && !this.isOp(":")) {
          if (list.length) this.expectOp(",");
          const target = this.parseAssignTarget({});
          this.expectOp("=");
          const value = this.parseExpression();
          list.push({ target, value, start: target.start, end: value.end });
        }
        return fitted(list);
      }) ?? [];
    const openTag = this.openTagSpan(begin);
    const b = this.body("with", openTag, ["endwith"]);
    const endTag = b.end ? this.finishEndTag() : null;
    return {
      kind: "With",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? this.prevEnd(),
      openTag,
      endTag,
      assignments,
      body: b.body,
    };
  }

  private parseAutoescape(begin: Token): A.Autoescape | A.ErrorStmt {
    this.advance();
    const value = this.header(() => this.parseExpression());
    const openTag = this.openTagSpan(begin);
    const b = this.body("autoescape", openTag, ["endautoescape"]);
    const endTag = b.end ? this.finishEndTag() : null;
    const span = { start: begin.start, end: endTag?.end ?? this.prevEnd() };
    if (!value) return { kind: "ErrorStmt", id: this.id(), ...span };
    return { kind: "Autoescape", id: this.id(), ...span, openTag, endTag, value, body: b.body };
  }

  private parseGeneration(begin: Token): A.Generation {
    this.advance();
    this.endHeader();
    const openTag = this.openTagSpan(begin);
    const b = this.body("generation", openTag, ["endgeneration"]);
    const endTag = b.end ? this.finishEndTag() : null;
    return { kind: "Generation", id: this.id(), start: begin.start, end: endTag?.end ?? this.prevEnd(), openTag, endTag, body: b.body };
  }

  private parsePrint(): A.Output[] {
    this.advance();
    const exprs: A.Expr[] = [];
    while (this.cur.type !== "block_end") {
      if (exprs.length) this.expectOp(",");
      exprs.push(this.parseExpression());
    }
    this.expectType("block_end");
    return exprs.map((expr) => ({ kind: "Output", id: this.id(), start: expr.start, end: expr.end, expr }));
  }

  private parseTemplateRef(begin: Token, nameTok: Token): A.TemplateRef {
    this.advance();
    const word = nameTok.value;
    const template = this.parseExpression();
    const names: { name: string; alias: string | null }[] = [];
    if (word === "import") {
      if (!this.skipName("as")) this.fail(`expected 'as', got '${describe(this.cur)}'`);
      names.push({ name: this.expectName().value, alias: null });
    } else if (word === "from") {
      if (!this.skipName("import")) this.fail(`expected 'import', got '${describe(this.cur)}'`);
      while (this.cur.type === "name" && !this.isName("with") && !this.isName("without")) {
        const n = this.expectName().value;
        names.push({ name: n, alias: this.skipName("as") ? this.expectName().value : null });
        if (!this.skipOp(",")) break;
      }
    } else if (word === "include") {
      if (this.isName("ignore") && this.isName("missing", this.look())) this.i += 2;
    }
    if ((this.isName("with") || this.isName("without")) && this.isName("context", this.look())) this.i += 2;
    const end = this.expectType("block_end");
    this.report({ start: nameTok.start, end: nameTok.end }, UNSUPPORTED_LOADER_TAGS[word], "syntax/needs-loader", "warning");
    const kind = word === "include" ? "Include" : word === "import" ? "Import" : word === "from" ? "FromImport" : "Extends";
    return { kind, id: this.id(), start: begin.start, end: end.end, template, names };
  }

  private parseBlock(begin: Token): A.BlockStmt {
    const word = this.advance();
    const nameTok = this.expectName();
    this.skipName("scoped");
    this.skipName("required");
    this.endHeader();
    this.report({ start: word.start, end: word.end }, UNSUPPORTED_LOADER_TAGS.block, "syntax/needs-loader", "warning");
    const openTag = this.openTagSpan(begin);
    const b = this.body("block", openTag, ["endblock"]);
    let endTag: A.Span | null = null;
    if (b.end) {
      // parse_block skips the block's own name only: another name is where the tag was to end.
      if (this.cur.type === "name" && this.cur.value === nameTok.value) this.advance();
      endTag = this.finishEndTag();
    }
    return {
      kind: "BlockStmt",
      id: this.id(),
      start: begin.start,
      end: endTag?.end ?? this.prevEnd(),
      openTag,
      endTag,
      name: nameTok.value,
      nameSpan: { start: nameTok.start, end: nameTok.end },
      body: b.body,
    };
  }

  // ------------------------------------------------------------ assignment targets

  private parseAssignTarget(o: { withNamespace?: boolean; extraEnd?: string[] }): A.Expr {
    const target = this.parseTuple({ simplified: true, extraEnd: o.extraEnd, withNamespace: o.withNamespace });
    this.checkAssignable(target);
    return target;
  }

  /** Jinja2's NSRef: `ns.attr` where a `set` target may name a namespace attribute (parse_primary's with_namespace). */
  private parseNamespaceRef(): A.GetAttr {
    const ns = this.advance();
    this.advance();
    const attr = this.expectName();
    const object: A.Name = { kind: "Name", id: this.id(), start: ns.start, end: ns.end, name: ns.value };
    const ref: A.GetAttr = {
      kind: "GetAttr",
      id: this.id(),
      start: ns.start,
      end: attr.end,
      object,
      attr: attr.value,
      attrSpan: { start: attr.start, end: attr.end },
      numeric: false,
    };
    this.namespaceRefs.add(ref);
    return ref;
  }

  private checkAssignable(e: A.Expr): void {
    if (e.kind === "Name" || this.namespaceRefs.has(e)) return;
    if (e.kind === "Tuple") {
      e.items.forEach((x) => this.checkAssignable(x));
      return;
    }
    const what = e.kind === "Const" || e.kind === "Str" || e.kind === "Int" || e.kind === "Float" ? "const" : e.kind.toLowerCase();
    throw new ParseError({ start: e.start, end: e.end }, `can't assign to '${what}'`, "syntax/invalid-assign-target");
  }

  // ------------------------------------------------------------ expressions

  private parseExpression(withCondexpr = true): A.Expr {
    return this.deeper(() => (withCondexpr ? this.parseCondexpr() : this.parseOr()));
  }

  private parseCondexpr(): A.Expr {
    let e = this.parseOr();
    while (this.skipName("if")) {
      const test = this.parseOr();
      const orElse = this.skipName("else") ? this.deeper(() => this.parseCondexpr()) : null;
      e = { kind: "Conditional", id: this.id(), start: e.start, end: this.prevEnd(), test, then: e, orElse };
    }
    return e;
  }

  private binary(op: A.BinaryOp, opTok: Token, left: A.Expr, right: A.Expr): A.Binary {
    return {
      kind: "Binary",
      id: this.id(),
      start: left.start,
      end: right.end,
      op,
      opSpan: { start: opTok.start, end: opTok.end },
      left,
      right,
    };
  }

  private parseOr(): A.Expr {
    let left = this.parseAnd();
    while (this.isName("or")) {
      const op = this.advance();
      left = this.binary("or", op, left, this.parseAnd());
    }
    return left;
  }

  private parseAnd(): A.Expr {
    let left = this.parseNot();
    while (this.isName("and")) {
      const op = this.advance();
      left = this.binary("and", op, left, this.parseNot());
    }
    return left;
  }

  private parseNot(): A.Expr {
    if (this.isName("not")) {
      const op = this.advance();
      const operand = this.deeper(() => this.parseNot());
      return {
        kind: "Unary",
        id: this.id(),
        start: op.start,
        end: operand.end,
        op: "not",
        opSpan: { start: op.start, end: op.end },
        operand,
      };
    }
    return this.parseCompare();
  }

  private parseCompare(): A.Expr {
    const left = this.parseMath1();
    const ops: A.CompareOperand[] = [];
    while (true) {
      const t = this.cur;
      let op: A.CompareOp;
      let opSpan: A.Span;
      if (t.type === "operator" && COMPARE_OPS.has(t.value)) {
        this.advance();
        op = t.value as A.CompareOp;
        opSpan = { start: t.start, end: t.end };
      } else if (this.isName("in")) {
        this.advance();
        op = "in";
        opSpan = { start: t.start, end: t.end };
      } else if (this.isName("not") && this.isName("in", this.look())) {
        const inTok = this.look();
        this.i += 2;
        op = "not in";
        opSpan = { start: t.start, end: inTok.end };
      } else break;
      ops.push({ op, opSpan, right: this.parseMath1() });
    }
    if (ops.length === 0) return left;
    return { kind: "Compare", id: this.id(), start: left.start, end: ops[ops.length - 1].right.end, left, ops: fitted(ops) };
  }

  private parseMath1(): A.Expr {
    let left = this.parseConcat();
    while (this.isOp("+") || this.isOp("-")) {
      const op = this.advance();
      left = this.binary(op.value as A.BinaryOp, op, left, this.parseConcat());
    }
    return left;
  }

  private parseConcat(): A.Expr {
    let left = this.parseMath2();
    while (this.isOp("~")) {
      const op = this.advance();
      left = this.binary("~", op, left, this.parseMath2());
    }
    return left;
  }

  private parseMath2(): A.Expr {
    let left = this.parsePow();
    while (this.isOp("*") || this.isOp("/") || this.isOp("//") || this.isOp("%")) {
      const op = this.advance();
      left = this.binary(op.value as A.BinaryOp, op, left, this.parsePow());
    }
    return left;
  }

  private parsePow(): A.Expr {
    let left = this.parseUnary(true);
    while (this.isOp("**")) {
      const op = this.advance();
      left = this.binary("**", op, left, this.parseUnary(true));
    }
    return left;
  }

  private parseUnary(withFilter: boolean): A.Expr {
    let node: A.Expr;
    if (this.isOp("-") || this.isOp("+")) {
      const op = this.advance();
      const operand = this.deeper(() => this.parseUnary(false));
      node = {
        kind: "Unary",
        id: this.id(),
        start: op.start,
        end: operand.end,
        op: op.value as "-" | "+",
        opSpan: { start: op.start, end: op.end },
        operand,
      };
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    return withFilter ? this.parseFilterExpr(node) : node;
  }

  private parsePrimary(): A.Expr {
    const t = this.cur;
    switch (t.type) {
      case "name": {
        this.advance();
        const v = t.value;
        if (v === "true" || v === "false" || v === "True" || v === "False") {
          return { kind: "Const", id: this.id(), start: t.start, end: t.end, value: v === "true" || v === "True", spelling: v };
        }
        if (v === "none" || v === "None") return { kind: "Const", id: this.id(), start: t.start, end: t.end, value: null, spelling: v };
        return { kind: "Name", id: this.id(), start: t.start, end: t.end, name: v };
      }
      case "string": {
        this.advance();
        let value = t.value;
        let end = t.end;
        while (this.cur.type === "string") {
          value += this.cur.value;
          end = this.advance().end;
        }
        return { kind: "Str", id: this.id(), start: t.start, end, value };
      }
      case "integer":
        this.advance();
        return { kind: "Int", id: this.id(), start: t.start, end: t.end, value: parseIntLiteral(t.value) };
      case "float":
        this.advance();
        return { kind: "Float", id: this.id(), start: t.start, end: t.end, value: Number(t.value.replace(/_/g, "")), raw: t.value };
      case "operator":
        if (t.value === "(") {
          this.advance();
          const inner = this.parseTuple({ withCondexpr: true, explicitParens: true });
          const close = this.expectOp(")");
          if (inner.kind === "Tuple") {
            inner.start = t.start;
            inner.end = close.end;
            inner.parenthesized = true;
          }
          return inner;
        }
        if (t.value === "[") return this.parseList();
        if (t.value === "{") return this.parseDict();
        break;
    }
    this.fail(
      `unexpected '${describe(t)}'`,
      t,
      t.type === "block_end" || t.type === "variable_end" || t.type === "eof" ? "syntax/missing-expression" : "syntax/unexpected-token",
    );
  }

  private isTupleEnd(extraEnd?: string[]): boolean {
    const t = this.cur;
    if (t.type === "variable_end" || t.type === "block_end" || t.type === "eof" || this.isOp(")")) return true;
    return !!extraEnd && t.type === "name" && extraEnd.includes(t.value);
  }

  private parseTuple(o: {
    simplified?: boolean;
    withCondexpr?: boolean;
    extraEnd?: string[];
    explicitParens?: boolean;
    withNamespace?: boolean;
  }): A.Expr {
    const start = this.cur.start;
    const items: A.Expr[] = [];
    let isTuple = false;
    while (true) {
      if (items.length) this.expectOp(",");
      if (this.isTupleEnd(o.extraEnd)) break;
      if (o.withNamespace && this.cur.type === "name" && this.isOp(".", this.look())) items.push(this.parseNamespaceRef());
      else items.push(o.simplified ? this.parsePrimary() : this.parseExpression(o.withCondexpr ?? true));
      if (this.isOp(",")) isTuple = true;
      else break;
    }
    if (!isTuple) {
      if (items.length) return items[0];
      if (!o.explicitParens) this.fail(`Expected an expression, got '${describe(this.cur)}'`, this.cur, "syntax/missing-expression");
    }
    return { kind: "Tuple", id: this.id(), start, end: this.prevEnd(), items: fitted(items), parenthesized: false };
  }

  private parseList(): A.List {
    const open = this.expectOp("[");
    const items: A.Expr[] = [];
    while (!this.isOp("]")) {
      if (items.length) this.expectOp(",");
      if (this.isOp("]")) break;
      items.push(this.parseExpression());
    }
    const close = this.expectOp("]");
    return { kind: "List", id: this.id(), start: open.start, end: close.end, items: fitted(items) };
  }

  private parseDict(): A.Dict {
    const open = this.expectOp("{");
    const pairs: A.DictPair[] = [];
    while (!this.isOp("}")) {
      if (pairs.length) this.expectOp(",");
      if (this.isOp("}")) break;
      const key = this.parseExpression();
      this.expectOp(":");
      const value = this.parseExpression();
      pairs.push({ key, value, start: key.start, end: value.end });
    }
    const close = this.expectOp("}");
    return { kind: "Dict", id: this.id(), start: open.start, end: close.end, pairs: fitted(pairs) };
  }

  private parsePostfix(node: A.Expr): A.Expr {
    while (true) {
      if (this.isOp(".") || this.isOp("[")) node = this.parseSubscript(node);
      else if (this.isOp("(")) node = this.parseCall(node);
      else return node;
    }
  }

  private parseFilterExpr(node: A.Expr): A.Expr {
    while (true) {
      if (this.isOp("|")) node = this.parseFilter(node, false)!;
      else if (this.isName("is")) node = this.parseTest(node);
      else if (this.isOp("(")) node = this.parseCall(node);
      else return node;
    }
  }

  private parseSubscript(node: A.Expr): A.Expr {
    const t = this.advance();
    if (t.value === ".") {
      const a = this.cur;
      if (a.type !== "name" && a.type !== "integer") this.fail("expected name or number", a);
      this.advance();
      return {
        kind: "GetAttr",
        id: this.id(),
        start: node.start,
        end: a.end,
        object: node,
        attr: a.value,
        attrSpan: { start: a.start, end: a.end },
        numeric: a.type === "integer",
      };
    }
    const args: A.Expr[] = [];
    const open = t;
    while (!this.isOp("]")) {
      if (args.length) this.expectOp(",");
      args.push(this.parseSubscribed());
    }
    const close = this.expectOp("]");
    const index: A.Expr =
      args.length === 1
        ? args[0]
        : { kind: "Tuple", id: this.id(), start: open.end, end: close.start, items: fitted(args), parenthesized: false };
    return { kind: "GetItem", id: this.id(), start: node.start, end: close.end, object: node, index };
  }

  private parseSubscribed(): A.Expr {
    const start = this.cur.start;
    const parts: (A.Expr | null)[] = [];
    if (this.isOp(":")) {
      this.advance();
      parts.push(null);
    } else {
      const e = this.parseExpression();
      if (!this.isOp(":")) return e;
      this.advance();
      parts.push(e);
    }
    if (this.isOp(":")) parts.push(null);
    else if (!this.isOp("]") && !this.isOp(",")) parts.push(this.parseExpression());
    else parts.push(null);
    if (this.isOp(":")) {
      this.advance();
      parts.push(!this.isOp("]") && !this.isOp(",") ? this.parseExpression() : null);
    } else parts.push(null);
    return { kind: "Slice", id: this.id(), start, end: this.prevEnd(), startExpr: parts[0], stopExpr: parts[1], stepExpr: parts[2] };
  }

  private parseCall(callee: A.Expr): A.Call {
    const args = this.parseCallArgs();
    return { kind: "Call", id: this.id(), start: callee.start, end: this.prevEnd(), callee, ...args };
  }

  private parseCallArgs(): A.CallArgs {
    const open = this.expectOp("(");
    const r: A.CallArgs = { args: [], kwargs: [], starArgs: null, starKwargs: null };
    const ensure = (ok: boolean) => {
      if (!ok) this.fail("invalid syntax for function call expression", open);
    };
    let requireComma = false;
    while (!this.isOp(")")) {
      if (requireComma) {
        this.expectOp(",");
        if (this.isOp(")")) break;
      }
      if (this.isOp("*")) {
        ensure(r.starArgs === null && r.starKwargs === null);
        this.advance();
        r.starArgs = this.parseExpression();
      } else if (this.isOp("**")) {
        ensure(r.starKwargs === null);
        this.advance();
        r.starKwargs = this.parseExpression();
      } else if (this.cur.type === "name" && this.isOp("=", this.look())) {
        ensure(r.starKwargs === null);
        const key = this.advance();
        this.advance();
        const value = this.parseExpression();
        r.kwargs.push({ name: key.value, nameSpan: { start: key.start, end: key.end }, value, start: key.start, end: value.end });
      } else {
        ensure(r.starArgs === null && r.starKwargs === null && r.kwargs.length === 0);
        r.args.push(this.parseExpression());
      }
      requireComma = true;
    }
    this.expectOp(")");
    r.args = fitted(r.args);
    r.kwargs = fitted(r.kwargs);
    return r;
  }

  private noArgs(): A.CallArgs {
    return { args: [], kwargs: [], starArgs: null, starKwargs: null };
  }

  private dottedName(): { name: string; span: A.Span } {
    const first = this.expectName();
    let name = first.value;
    let end = first.end;
    while (this.isOp(".")) {
      this.advance();
      const n = this.expectName();
      name += "." + n.value;
      end = n.end;
    }
    return { name, span: { start: first.start, end } };
  }

  /** `| f | g(…)`; with `startInline` the first pipe is implicit (`{% filter f %}`). */
  private parseFilter(node: A.Expr | null, startInline: boolean): A.Filter | A.Expr | null {
    let inline = startInline;
    while (this.isOp("|") || inline) {
      const pipe = inline ? null : this.advance();
      const { name, span } = this.dottedName();
      const args = this.isOp("(") ? this.parseCallArgs() : this.noArgs();
      const start = node?.start ?? pipe?.start ?? span.start;
      node = { kind: "Filter", id: this.id(), start, end: this.prevEnd(), expr: node, name, nameSpan: span, ...args };
      inline = false;
    }
    return node;
  }

  private parseTest(node: A.Expr): A.Expr {
    this.advance();
    const negated = this.skipName("not");
    const { name, span } = this.dottedName();
    let args = this.noArgs();
    const c = this.cur;
    if (this.isOp("(")) {
      args = this.parseCallArgs();
    } else if (
      (c.type === "name" || c.type === "string" || c.type === "integer" || c.type === "float" || this.isOp("[") || this.isOp("{")) &&
      !this.isName("else") &&
      !this.isName("or") &&
      !this.isName("and")
    ) {
      if (this.isName("is")) this.fail("You cannot chain multiple tests with is");
      args.args = [this.parsePostfix(this.parsePrimary())];
    }
    return { kind: "Test", id: this.id(), start: node.start, end: this.prevEnd(), expr: node, name, nameSpan: span, negated, ...args };
  }
}

/** BigInt accepts 0b/0o/0x prefixes itself; Jinja2 also allows `_` separators and upper-case prefixes. */
function parseIntLiteral(raw: string): bigint {
  return BigInt(raw.replace(/_/g, "").toLowerCase());
}

export function parse(source: string, options: LexOptions = chatTemplateLexOptions): ParseResult {
  const lexer = new Lexer(source, options);
  const { problems } = lexer;
  const parser = new Parser(source, new TokenWindow(lexer.tokens, () => lexer.step()), problems);
  const template = parser.parseTemplate();
  // the whole template is lexed by now (the parse ends at its end), so the comments are all there
  template.comments = lexer.comments;
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
  return { template, problems, nodeCount: parser.nodeCount };
}
