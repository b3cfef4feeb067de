/**
 * The subset of Go's text/template that scripts pass to `docker … --format`: text, `{{.Field}}` chains, `{{.Label "k"}}`,
 * pipelines (`{{.Names | upper}}`), function calls, string/number literals, `$` and range variables, and
 * `if`/`else`/`range`/`with`/`end`, with `{{-`/`-}}` trimming. Parsing is one pass over the text (linear) and nesting
 * is bounded, so a hostile or mistyped template fails with Go's own words instead of exhausting the stack.
 * Evaluation never runs code: fields are looked up, and functions come from a fixed table (`templateFunctions.ts`).
 */
import { isContext, isFunctionName, type TemplateContext, type TemplateValue } from './templateFunctions';

export { isContext, type TemplateContext };

/** A template docker would refuse to parse, or one that fails on a value: docker's wording, exit status 1. */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}

export type Operand =
  | { readonly kind: 'field'; readonly base: Operand | undefined; readonly names: readonly string[]; readonly at: string }
  | { readonly kind: 'dot' }
  | { readonly kind: 'variable'; readonly name: string; readonly names: readonly string[]; readonly at: string }
  | { readonly kind: 'literal'; readonly value: TemplateValue }
  | { readonly kind: 'function'; readonly name: string }
  | { readonly kind: 'group'; readonly pipeline: Pipeline; readonly names: readonly string[]; readonly at: string };
export type Command = readonly Operand[];
export interface Pipeline {
  readonly variables: readonly string[];
  readonly commands: readonly Command[];
}
export type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'action'; readonly pipeline: Pipeline; readonly at: string }
  | { readonly kind: 'if' | 'with' | 'range'; readonly pipeline: Pipeline; readonly body: Node[]; readonly otherwise: Node[] };

const MAX_NESTING = 100;
const MAX_TEMPLATE_LENGTH = 64 * 1024;

export interface ParsedTemplate {
  readonly nodes: readonly Node[];
}

/** Parses a template as Go's text/template would, or throws TemplateError with Go's message ("template: :1: …"). */
export function parseTemplate(source: string, functions: ReadonlySet<string> = new Set()): ParsedTemplate {
  if (source.length > MAX_TEMPLATE_LENGTH) throw new TemplateError(`template: :1: template is longer than ${MAX_TEMPLATE_LENGTH} characters`);
  return { nodes: new Parser(source, functions).parseAll() };
}

class Parser {
  private position = 0;
  private line = 1;
  private trimNextText = false;
  constructor(
    private readonly source: string,
    private readonly extraFunctions: ReadonlySet<string>,
  ) {}

  parseAll(): Node[] {
    const { nodes, ended } = this.parseList(0);
    if (ended !== undefined) throw this.error(`unexpected {{${ended}}}`);
    return nodes;
  }

  private error(message: string): TemplateError {
    return new TemplateError(`template: :${this.line}: ${message}`);
  }

  /** Nodes up to `{{end}}`/`{{else}}` (returned as `ended`) or the end of the text. */
  private parseList(depth: number): { nodes: Node[]; ended: 'end' | 'else' | undefined } {
    if (depth > MAX_NESTING) throw this.error(`nesting deeper than ${MAX_NESTING} levels`);
    const nodes: Node[] = [];
    for (;;) {
      const open = this.source.indexOf('{{', this.position);
      let text = this.source.slice(this.position, open === -1 ? undefined : open);
      const trimBefore = open !== -1 && this.source[open + 2] === '-' && /\s/.test(this.source[open + 3] ?? '');
      if (this.trimNextText) text = text.replace(/^\s+/, '');
      if (trimBefore) text = text.replace(/\s+$/, '');
      this.trimNextText = false;
      if (text !== '') nodes.push({ kind: 'text', text });
      if (open === -1) {
        this.position = this.source.length;
        return { nodes, ended: undefined };
      }
      this.line += countNewlines(this.source, this.position, open);
      this.position = open + (trimBefore ? 3 : 2);
      const tokens = this.lexAction();
      const [first] = tokens;
      const at = this.source.slice(open, this.position);
      if (first?.kind === 'word' && first.text === 'end') {
        if (tokens.length > 1) throw this.error('unexpected token in end');
        return { nodes, ended: 'end' };
      }
      if (first?.kind === 'word' && first.text === 'else') {
        this.pendingElseTokens = tokens.slice(1);
        return { nodes, ended: 'else' };
      }
      if (first?.kind === 'word' && (first.text === 'if' || first.text === 'range' || first.text === 'with')) {
        nodes.push(this.parseControl(first.text, tokens.slice(1), depth));
        continue;
      }
      if (first?.kind === 'comment') continue;
      if (tokens.length === 0) throw this.error('missing value for command');
      nodes.push({ kind: 'action', pipeline: new TokenReader(tokens, this, depth).pipeline(true), at });
    }
  }

  /** What followed `else` in the last `{{else …}}`: empty, or `if …`/`with …`. */
  private pendingElseTokens: Token[] = [];

  private parseControl(kind: 'if' | 'range' | 'with', tokens: Token[], depth: number): Node {
    if (tokens.length === 0) throw this.error(`missing value for ${kind}`);
    const pipeline = new TokenReader(tokens, this, depth).pipeline(kind === 'range' || kind === 'with' || kind === 'if');
    const body = this.parseList(depth + 1);
    let otherwise: Node[] = [];
    if (body.ended === undefined) throw this.error(`unexpected EOF`);
    if (body.ended === 'else') {
      const elseTokens = this.pendingElseTokens;
      if (elseTokens.length > 0) {
        // `{{else if …}}` is `{{else}}{{if …}}…{{end}}` sharing the outer `{{end}}`.
        const [word, ...rest] = elseTokens;
        if (word?.kind !== 'word' || (word.text !== 'if' && word.text !== 'with')) throw this.error('unexpected token in else');
        otherwise = [this.parseControl(word.text, rest, depth + 1)];
      } else {
        const tail = this.parseList(depth + 1);
        if (tail.ended !== 'end') throw this.error(tail.ended === 'else' ? 'expected end; found {{else}}' : 'unexpected EOF');
        otherwise = tail.nodes;
      }
    }
    return { kind, pipeline, body: body.nodes, otherwise };
  }

  /** Reads one action's tokens up to its `}}`, leaving the position after it. */
  private lexAction(): Token[] {
    const tokens: Token[] = [];
    const source = this.source;
    for (;;) {
      while (this.position < source.length && /[ \t\r\n]/.test(source[this.position] as string)) {
        if (source[this.position] === '\n') this.line++;
        this.position++;
      }
      if (this.position >= source.length) throw this.error('unclosed action');
      if (source.startsWith('}}', this.position) || (source.startsWith('-}}', this.position) && /\s/.test(source[this.position - 1] ?? ''))) {
        if (source[this.position] === '-') {
          this.trimNextText = true;
          this.position++;
        }
        this.position += 2;
        return tokens;
      }
      const start = this.position;
      const char = source[start] as string;
      if (source.startsWith('/*', start)) {
        const end = source.indexOf('*/', start + 2);
        if (end === -1) throw this.error('unclosed comment');
        this.line += countNewlines(source, start, end);
        this.position = end + 2;
        tokens.push({ kind: 'comment', text: '' });
      } else if (char === '"' || char === '`') {
        tokens.push({ kind: 'string', text: this.lexString(char) });
      } else if (char === '|' || char === '(' || char === ')' || char === ',') {
        this.position++;
        tokens.push({ kind: char, text: char });
      } else if (source.startsWith(':=', start) || char === '=') {
        this.position += char === '=' ? 1 : 2;
        tokens.push({ kind: ':=', text: ':=' });
      } else {
        const match = /^[-+]?[0-9][0-9a-fA-FxX._]*|^[.$]?[\p{L}\p{N}_]*(?:\.[\p{L}\p{N}_]+)*/u.exec(source.slice(start, start + 1024));
        const text = match?.[0] ?? '';
        if (text === '') throw this.error(`unexpected ${JSON.stringify(char)} in command`);
        this.position += text.length;
        tokens.push({ kind: 'word', text });
      }
    }
  }

  private lexString(quote: string): string {
    const source = this.source;
    let index = this.position + 1;
    let value = '';
    while (index < source.length && source[index] !== quote) {
      const char = source[index] as string;
      if (quote === '"' && char === '\n') break;
      if (quote === '"' && char === '\\') {
        const next = source[index + 1] ?? '';
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", a: '\x07', b: '\b', f: '\f', v: '\v' };
        if (simple[next] !== undefined) {
          value += simple[next];
          index += 2;
          continue;
        }
        const hex = /^(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/.exec(source.slice(index + 1, index + 10))?.[0];
        if (hex === undefined) throw this.error('unterminated quoted string');
        value += String.fromCodePoint(parseInt(hex.slice(1), 16));
        index += 1 + hex.length;
        continue;
      }
      value += char;
      index++;
    }
    if (source[index] !== quote) throw this.error(quote === '"' ? 'unterminated quoted string' : 'unterminated raw quoted string');
    this.position = index + 1;
    return value;
  }

  knowsFunction(name: string): boolean {
    return isFunctionName(name) || this.extraFunctions.has(name);
  }

  fail(message: string): TemplateError {
    return this.error(message);
  }
}

interface Token {
  readonly kind: 'word' | 'string' | 'comment' | '|' | '(' | ')' | ',' | ':=';
  readonly text: string;
}

/** Turns one action's tokens into a pipeline: `[$x :=] command | command …`. */
class TokenReader {
  private index = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly parser: Parser,
    private readonly depth: number,
  ) {}

  pipeline(allowDeclaration: boolean): Pipeline {
    const variables: string[] = [];
    const assign = this.tokens.findIndex((token) => token.kind === ':=');
    if (assign !== -1 && allowDeclaration) {
      for (const token of this.tokens.slice(0, assign)) {
        if (token.kind === ',') continue;
        if (token.kind !== 'word' || !token.text.startsWith('$')) throw this.parser.fail('unexpected ":=" in command');
        variables.push(token.text);
      }
      this.index = assign + 1;
    }
    const result = this.readPipeline(variables);
    if (this.index < this.tokens.length) throw this.parser.fail(`unexpected ${JSON.stringify(this.tokens[this.index]?.text)} in operand`);
    return result;
  }

  private readPipeline(variables: string[], depth = this.depth): Pipeline {
    if (depth > MAX_NESTING) throw this.parser.fail(`nesting deeper than ${MAX_NESTING} levels`);
    const commands: Command[] = [];
    for (;;) {
      const command: Operand[] = [];
      while (this.index < this.tokens.length) {
        const token = this.tokens[this.index] as Token;
        if (token.kind === '|' || token.kind === ')') break;
        command.push(this.readOperand(depth));
      }
      if (command.length === 0) throw this.parser.fail('missing value for command');
      commands.push(command);
      if (this.tokens[this.index]?.kind !== '|') break;
      this.index++;
    }
    return { variables, commands };
  }

  private readOperand(depth: number): Operand {
    const token = this.tokens[this.index++] as Token;
    if (token.kind === 'string') return { kind: 'literal', value: token.text };
    if (token.kind === '(') {
      const pipeline = this.readPipeline([], depth + 1);
      if (this.tokens[this.index]?.kind !== ')') throw this.parser.fail('unclosed left paren');
      this.index++;
      const next = this.tokens[this.index];
      if (next?.kind === 'word' && next.text.startsWith('.') && next.text.length > 1) {
        this.index++;
        return { kind: 'group', pipeline, names: next.text.slice(1).split('.'), at: next.text };
      }
      return { kind: 'group', pipeline, names: [], at: '' };
    }
    if (token.kind !== 'word') throw this.parser.fail(`unexpected ${JSON.stringify(token.text)} in operand`);
    const text = token.text;
    if (text === '.') return { kind: 'dot' };
    if (text.startsWith('.')) return { kind: 'field', base: undefined, names: text.slice(1).split('.'), at: text };
    if (text.startsWith('$')) {
      const [name = '$', ...names] = text.split('.');
      return { kind: 'variable', name, names, at: text };
    }
    if (/^[-+]?[0-9]/.test(text)) {
      const value = Number(text.replace(/_/g, ''));
      if (!Number.isFinite(value)) throw this.parser.fail(`bad number syntax: ${JSON.stringify(text)}`);
      return { kind: 'literal', value };
    }
    if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true' };
    if (text === 'nil') return { kind: 'literal', value: null };
    if (!this.parser.knowsFunction(text)) throw this.parser.fail(`function ${JSON.stringify(text)} not defined`);
    return { kind: 'function', name: text };
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count++;
  return count;
}
