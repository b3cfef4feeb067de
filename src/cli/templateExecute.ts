/**
 * Runs a parsed template (template.ts) on a value, as Go's text/template executes: fields are looked up on plain
 * objects and docker's contexts, functions come from a fixed table, and a bad field or call is a TemplateError in
 * Go's words.
 */
import { TemplateError, type Command, type Node, type Operand, type ParsedTemplate, type Pipeline } from './template';
import { callFunction, isContext, printValue, type TemplateValue } from './templateFunctions';

/** Functions a caller adds or overrides (docker's header functions), by name. */
export type FunctionTable = ReadonlyMap<string, (args: readonly TemplateValue[]) => TemplateValue>;

/** Runs a parsed template on one value; throws TemplateError ("template: :1:2: executing …") on a bad field or call. */
export function executeTemplate(template: ParsedTemplate, dot: TemplateValue, functions: FunctionTable = new Map()): string {
  const out: string[] = [];
  new Executor(functions, out).run(template.nodes, dot, new Map([['$', dot]]));
  return out.join('');
}

class Executor {
  constructor(
    private readonly functions: FunctionTable,
    private readonly out: string[],
  ) {}

  run(nodes: readonly Node[], dot: TemplateValue, variables: Map<string, TemplateValue>): void {
    for (const node of nodes) {
      if (node.kind === 'text') this.out.push(node.text);
      else if (node.kind === 'action') {
        const value = this.pipeline(node.pipeline, dot, variables);
        if (node.pipeline.variables.length === 0) this.out.push(printValue(value));
      } else this.control(node, dot, variables);
    }
  }

  private control(node: Extract<Node, { kind: 'if' | 'with' | 'range' }>, dot: TemplateValue, outer: Map<string, TemplateValue>): void {
    const variables = new Map(outer);
    const value = this.pipeline(node.pipeline, dot, variables);
    if (node.kind === 'range') {
      const items: [TemplateValue, TemplateValue][] = Array.isArray(value)
        ? value.map((item, index) => [index, item])
        : isPlainObject(value)
          ? Object.keys(value).sort().map((key) => [key, value[key]])
          : [];
      if (items.length === 0) return this.run(node.otherwise, dot, variables);
      const [keyName, valueName] = node.pipeline.variables.length === 2 ? node.pipeline.variables : [undefined, node.pipeline.variables[0]];
      for (const [key, item] of items) {
        if (keyName !== undefined) variables.set(keyName, key);
        if (valueName !== undefined) variables.set(valueName, item);
        this.run(node.body, item, variables);
      }
      return;
    }
    if (truthy(value)) this.run(node.body, node.kind === 'with' ? value : dot, variables);
    else this.run(node.otherwise, dot, variables);
  }

  private pipeline(pipeline: Pipeline, dot: TemplateValue, variables: Map<string, TemplateValue>): TemplateValue {
    let value: TemplateValue | typeof NONE = NONE;
    for (const command of pipeline.commands) value = this.command(command, dot, variables, value);
    const result = value === NONE ? undefined : value;
    for (const name of pipeline.variables) variables.set(name, result);
    return result;
  }

  private command(command: Command, dot: TemplateValue, variables: Map<string, TemplateValue>, piped: TemplateValue | typeof NONE): TemplateValue {
    const [head, ...rest] = command as [Operand, ...Operand[]];
    const args = (): TemplateValue[] => [...rest.map((operand) => this.operand(operand, dot, variables, [])), ...(piped === NONE ? [] : [piped])];
    if (head.kind === 'function') {
      const override = this.functions.get(head.name);
      const values = args();
      try {
        return override ? override(values) : callFunction(head.name, values);
      } catch (error) {
        throw executionError(head.name, error);
      }
    }
    if (head.kind === 'field' || head.kind === 'variable' || head.kind === 'group') return this.operand(head, dot, variables, args());
    if (rest.length > 0 || piped !== NONE) throw new TemplateError(`template: :1: can't give argument to non-function ${describeOperand(head)}`);
    return this.operand(head, dot, variables, []);
  }

  private operand(operand: Operand, dot: TemplateValue, variables: Map<string, TemplateValue>, args: readonly TemplateValue[]): TemplateValue {
    switch (operand.kind) {
      case 'literal':
        return operand.value;
      case 'dot':
        return dot;
      case 'function': {
        const override = this.functions.get(operand.name);
        return override ? override([]) : callFunction(operand.name, []);
      }
      case 'field':
        return fieldChain(dot, operand.names, args, operand.at);
      case 'variable': {
        if (!variables.has(operand.name)) throw new TemplateError(`template: :1: undefined variable: ${operand.name}`);
        return fieldChain(variables.get(operand.name), operand.names, args, operand.at);
      }
      case 'group':
        return fieldChain(this.pipeline(operand.pipeline, dot, variables), operand.names, args, operand.at);
    }
  }
}

const NONE = Symbol('no piped value');

function fieldChain(start: TemplateValue, names: readonly string[], args: readonly TemplateValue[], at: string): TemplateValue {
  let value = start;
  names.forEach((name, index) => {
    const last = index === names.length - 1;
    value = field(value, name, last ? args : [], at);
  });
  if (names.length === 0 && args.length > 0) throw new TemplateError(`template: :1: can't give argument to non-function ${at}`);
  return value;
}

function field(receiver: TemplateValue, name: string, args: readonly TemplateValue[], at: string): TemplateValue {
  if (isContext(receiver)) {
    if (!receiver.has(name)) throw new TemplateError(`template: :1:2: executing "" at <${at}>: can't evaluate field ${name} in type ${receiver.typeName}`);
    return receiver.field(name, args);
  }
  if (args.length > 0) throw new TemplateError(`template: :1:2: executing "" at <${at}>: ${name} has arguments but cannot be invoked as function`);
  if (isPlainObject(receiver)) return Object.prototype.hasOwnProperty.call(receiver, name) ? (receiver[name]) : undefined;
  if (receiver === undefined) return undefined;
  throw new TemplateError(`template: :1:2: executing "" at <${at}>: can't evaluate field ${name} in type ${goTypeName(receiver)}`);
}

function executionError(name: string, error: unknown): TemplateError {
  if (error instanceof TemplateError) return error;
  return new TemplateError(`template: :1: executing "" at <${name}>: error calling ${name}: ${error instanceof Error ? error.message : String(error)}`);
}

function describeOperand(operand: Operand): string {
  return operand.kind === 'literal' ? printValue(operand.value) : operand.kind;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isContext(value);
}

function goTypeName(value: TemplateValue): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'interface {}';
}

/** Go's truth: false, 0, nil, and empty strings, slices and maps are false. */
export function truthy(value: TemplateValue): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}
