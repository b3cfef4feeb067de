// Moves every use of the engine client's flat methods to its groups (issue 34, item 5): `client.listContainers(…)`
// becomes `client.containers.list(…)`, `Pick<EngineClient, 'containerLogs'>` a type of the `containers` group, and a
// fake object literal typed as such a client gets its methods regrouped.
//   node --import tsx scripts/codemods/composedClient.ts [--check]
// It runs on a tree whose src/engine/api already has the composed EngineClient (it asks the type checker whether a
// receiver has the group), so it can be re-run after a merge brought in new calls, and it is idempotent: a converted
// tree has no old name on a client left to rewrite. `--check` only lists what it would change. What it cannot rewrite
// safely (a class whose methods mirror the client's, an assignment over a client method, a destructured method, the
// old name in a string) it lists as errors and exits non-zero, so nothing is missed silently.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const SCANNED = ['src/', 'test/', 'bench/', 'scripts/'];
const CLIENT_FILE = 'src/engine/api/client.ts';
const API_FOLDER = 'src/engine/api/';

type Group = 'containers' | 'images' | 'exec' | 'volumes' | 'networks' | 'system';

/** Old flat name → [group, name in the group]. `endpoint`, `pingInfo`, `negotiatedVersion`, `engineName` and `close` stay on the client. */
export const NEW_PATH: Readonly<Record<string, readonly [Group, string]>> = {
  ping: ['system', 'ping'],
  version: ['system', 'version'],
  info: ['system', 'info'],
  events: ['system', 'events'],
  diskUsage: ['system', 'df'],
  prune: ['system', 'prune'],
  listContainers: ['containers', 'list'],
  inspectContainer: ['containers', 'inspect'],
  createContainer: ['containers', 'create'],
  startContainer: ['containers', 'start'],
  stopContainer: ['containers', 'stop'],
  restartContainer: ['containers', 'restart'],
  killContainer: ['containers', 'kill'],
  removeContainer: ['containers', 'remove'],
  waitContainer: ['containers', 'wait'],
  containerLogs: ['containers', 'logs'],
  attachContainer: ['containers', 'attach'],
  resizeContainer: ['containers', 'resize'],
  containerChanges: ['containers', 'changes'],
  containerStats: ['containers', 'stats'],
  containerStatsOnce: ['containers', 'statsOnce'],
  topContainer: ['containers', 'top'],
  statContainerPath: ['containers', 'statPath'],
  getArchive: ['containers', 'getArchive'],
  putArchive: ['containers', 'putArchive'],
  commitContainer: ['containers', 'commit'],
  listImages: ['images', 'list'],
  inspectImage: ['images', 'inspect'],
  imageHistory: ['images', 'history'],
  saveImage: ['images', 'save'],
  removeImage: ['images', 'remove'],
  tagImage: ['images', 'tag'],
  pullImage: ['images', 'pull'],
  pushImage: ['images', 'push'],
  importImage: ['images', 'import'],
  buildImage: ['images', 'build'],
  createExec: ['exec', 'create'],
  startExecAttached: ['exec', 'startAttached'],
  resizeExec: ['exec', 'resize'],
  inspectExec: ['exec', 'inspect'],
  listVolumes: ['volumes', 'list'],
  inspectVolume: ['volumes', 'inspect'],
  createVolume: ['volumes', 'create'],
  removeVolume: ['volumes', 'remove'],
  listNetworks: ['networks', 'list'],
  inspectNetwork: ['networks', 'inspect'],
  createNetwork: ['networks', 'create'],
  removeNetwork: ['networks', 'remove'],
  connectNetwork: ['networks', 'connect'],
  disconnectNetwork: ['networks', 'disconnect'],
};
/** The classes the client was a chain of; a Pick of one becomes a Pick of the client's group. */
const OLD_LAYERS = new Set([
  'EngineConnection', 'SystemEndpoints', 'ContainerEndpoints', 'ImageEndpoints', 'ExecEndpoints', 'ArchiveEndpoints',
  'VolumeEndpoints', 'NetworkEndpoints', 'StatsEndpoints', 'BuildEndpoints',
]);
/** An old name called in code that a test writes out as text (a script it runs in a child process). */
const OLD_CALL_IN_TEXT = new RegExp(`\\.(${Object.keys(NEW_PATH).join('|')})\\(`);
const GROUP_ORDER: readonly Group[] = ['system', 'containers', 'images', 'exec', 'volumes', 'networks'];

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const problems: string[] = [];

function newPath(name: string): readonly [Group, string] | undefined {
  return Object.prototype.hasOwnProperty.call(NEW_PATH, name) ? NEW_PATH[name] : undefined;
}

function createProgram(): ts.Program {
  const configPath = resolve(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

function scannedFiles(program: ts.Program): ts.SourceFile[] {
  const self = relative(ROOT, __filename);
  return program.getSourceFiles().filter((file) => {
    const path = relative(ROOT, file.fileName);
    return !file.isDeclarationFile && path !== self && !path.startsWith(API_FOLDER) && SCANNED.some((folder) => path.startsWith(folder));
  });
}

function where(file: ts.SourceFile, node: ts.Node): string {
  const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${relative(ROOT, file.fileName)}:${line + 1}:${character + 1}`;
}

function declaredIn(symbol: ts.Symbol | undefined, path: string): boolean {
  return (symbol?.declarations ?? []).some((declaration) => relative(ROOT, declaration.getSourceFile().fileName).startsWith(path));
}

function isEngineClientType(checker: ts.TypeChecker, type: ts.Type): boolean {
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  return symbol?.getName() === 'EngineClient' && declaredIn(symbol, CLIENT_FILE);
}

/**
 * Whether `type` (the client, a Pick of it, a literal type of groups) has `group` offering `name`, and has no `oldName`
 * of its own (a fake that keeps its flat methods and adds the groups is called as it is).
 */
function offersGroup(checker: ts.TypeChecker, type: ts.Type, node: ts.Node, group: Group, name: string, oldName: string): boolean {
  const candidates = type.isUnion() ? type.types : [type];
  return candidates.some((candidate) => {
    const apparent = checker.getApparentType(candidate);
    const groupSymbol = apparent.getProperty(group);
    if (groupSymbol === undefined || apparent.getProperty(oldName) !== undefined) return false;
    const groupType = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(groupSymbol, node));
    return checker.getApparentType(groupType).getProperty(name) !== undefined;
  });
}

function stringKeys(node: ts.TypeNode): string[] | undefined {
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return [node.literal.text];
  if (ts.isUnionTypeNode(node)) {
    const keys = node.types.map(stringKeys);
    return keys.every((key) => key !== undefined) ? keys.flat() : undefined;
  }
  if (ts.isParenthesizedTypeNode(node)) return stringKeys(node.type);
  return undefined;
}

const quoted = (keys: readonly string[]): string => keys.map((key) => `'${key}'`).join(' | ');

function isEngineModule(file: ts.SourceFile, specifier: string): boolean {
  return specifier.startsWith('.') && relative(ROOT, resolve(dirname(file.fileName), specifier)).startsWith('src/engine');
}

/** Whether `node` names one of the old layer classes, imported from src/engine. */
function isOldLayer(file: ts.SourceFile, node: ts.TypeNode): boolean {
  if (!ts.isTypeReferenceNode(node) || !ts.isIdentifier(node.typeName) || !OLD_LAYERS.has(node.typeName.text)) return false;
  const name = node.typeName.text;
  return file.statements.some(
    (statement) =>
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      isEngineModule(file, statement.moduleSpecifier.text) &&
      statement.importClause?.namedBindings !== undefined &&
      ts.isNamedImports(statement.importClause.namedBindings) &&
      statement.importClause.namedBindings.elements.some((element) => element.name.text === name),
  );
}

/** The old layer's import becomes EngineClient's (or goes, when EngineClient is imported already). */
function layerImportEdits(file: ts.SourceFile, layers: ReadonlyMap<string, number>): Edit[] {
  const edits: Edit[] = [];
  const importsClient = file.statements.some(
    (statement) =>
      ts.isImportDeclaration(statement) &&
      statement.importClause?.namedBindings !== undefined &&
      ts.isNamedImports(statement.importClause.namedBindings) &&
      statement.importClause.namedBindings.elements.some((element) => element.name.text === 'EngineClient'),
  );
  let clientAdded = importsClient;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.namedBindings === undefined) continue;
    const bindings = statement.importClause.namedBindings;
    if (!ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if (!layers.has(element.name.text)) continue;
      const uses = file.text.slice(statement.getEnd()).match(new RegExp(`\\b${element.name.text}\\b`, 'g'))?.length ?? 0;
      const stillUsed = uses > (layers.get(element.name.text) ?? 0);
      if (stillUsed) continue;
      if (!clientAdded) {
        const typeOnly = statement.importClause.isTypeOnly || element.isTypeOnly;
        edits.push({ start: element.getStart(file), end: element.getEnd(), text: typeOnly && !statement.importClause.isTypeOnly ? 'type EngineClient' : 'EngineClient' });
        clientAdded = true;
      } else {
        const next = file.text.slice(element.getEnd()).match(/^\s*,\s*/);
        edits.push({ start: element.getStart(file), end: element.getEnd() + (next?.[0].length ?? 0), text: '' });
      }
    }
  }
  return edits;
}

/** Pass 1: `Pick<EngineClient, old names>` (or of an old layer) and `EngineClient['oldName']` become the groups' types. */
function typeEdits(checker: ts.TypeChecker, file: ts.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const layersPicked = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isTypeReferenceNode(node) && node.typeName.getText(file) === 'Pick' && node.typeArguments?.length === 2) {
      const [target, keysNode] = node.typeArguments as unknown as [ts.TypeNode, ts.TypeNode];
      const keys = stringKeys(keysNode);
      const oldLayer = isOldLayer(file, target);
      if ((oldLayer || isEngineClientType(checker, checker.getTypeFromTypeNode(target))) && keys?.some((key) => newPath(key) !== undefined)) {
        if (oldLayer) layersPicked.set(target.getText(file), (layersPicked.get(target.getText(file)) ?? 0) + 1);
        const clientText = oldLayer ? 'EngineClient' : target.getText(file);
        const byGroup = new Map<Group, string[]>();
        const kept: string[] = [];
        for (const key of keys) {
          const path = newPath(key);
          if (path === undefined) kept.push(key);
          else byGroup.set(path[0], [...(byGroup.get(path[0]) ?? []), path[1]]);
        }
        const members = GROUP_ORDER.filter((group) => byGroup.has(group)).map(
          (group) => `readonly ${group}: Pick<${clientText}['${group}'], ${quoted(byGroup.get(group) ?? [])}>`,
        );
        const parts = [`{ ${members.join('; ')} }`, ...(kept.length > 0 ? [`Pick<${clientText}, ${quoted(kept)}>`] : [])];
        const text = parts.length === 1 ? (parts[0] as string) : `(${parts.join(' & ')})`;
        edits.push({ start: node.getStart(file), end: node.getEnd(), text });
        return;
      }
    }
    if (ts.isIndexedAccessTypeNode(node)) {
      const keys = stringKeys(node.indexType);
      const path = keys?.length === 1 ? newPath(keys[0] as string) : undefined;
      if (path !== undefined && isEngineClientType(checker, checker.getTypeFromTypeNode(node.objectType))) {
        edits.push({ start: node.getStart(file), end: node.getEnd(), text: `${node.objectType.getText(file)}['${path[0]}']['${path[1]}']` });
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return layersPicked.size > 0 ? [...edits, ...layerImportEdits(file, layersPicked)] : edits;
}

/** The type an object literal must satisfy: its contextual type, or what an `as` (through `as unknown`) asserts. */
function targetTypeOf(checker: ts.TypeChecker, literal: ts.ObjectLiteralExpression): ts.Type | undefined {
  let node: ts.Node = literal;
  let asserted: ts.TypeNode | undefined;
  while (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent) || ts.isSatisfiesExpression(node.parent)) {
    node = node.parent;
    if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) asserted = node.type;
  }
  if (asserted !== undefined) return checker.getTypeFromTypeNode(asserted);
  return checker.getContextualType(literal);
}

function memberName(member: ts.ObjectLiteralElementLike): string | undefined {
  if (ts.isSpreadAssignment(member) || member.name === undefined) return undefined;
  return ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
}

/** The member's text under its name in the group; lines after the first move right by two spaces. */
function movedMember(file: ts.SourceFile, member: ts.ObjectLiteralElementLike, name: string, indent: string): string {
  if (ts.isShorthandPropertyAssignment(member)) return `${name}: ${member.name.text}`;
  const nameNode = (member as ts.PropertyAssignment | ts.MethodDeclaration).name;
  const text = file.text.slice(member.getStart(file), nameNode.getStart(file)) + name + file.text.slice(nameNode.getEnd(), member.getEnd());
  return text.includes('`') ? text : text.split('\n').join(`\n${indent}`);
}

/** Regroups a fake client's members (`{ containerLogs }` → `{ containers: { logs } }`). */
function literalEdit(checker: ts.TypeChecker, file: ts.SourceFile, literal: ts.ObjectLiteralExpression): Edit | undefined {
  const target = targetTypeOf(checker, literal);
  if (target === undefined) return undefined;
  const moved = literal.properties.filter((member) => {
    const path = newPath(memberName(member) ?? '');
    return path !== undefined && offersGroup(checker, target, literal, path[0], path[1], memberName(member) as string);
  });
  if (moved.length === 0) return undefined;
  if (literal.properties.some((member) => memberName(member) !== undefined && GROUP_ORDER.includes(memberName(member) as Group))) {
    problems.push(`${where(file, literal)}: a literal with both old names and groups; regroup it by hand`);
    return undefined;
  }
  for (const member of moved) {
    if (ts.isMethodDeclaration(member) && /\bthis\b/.test(member.getText(file))) problems.push(`${where(file, member)}: a method using \`this\` moves into a group object; check it`);
  }
  const multiline = literal.getText(file).includes('\n');
  const lineStart = file.text.lastIndexOf('\n', (literal.properties[0] as ts.Node).getStart(file)) + 1;
  const indent = multiline ? /^\s*/.exec(file.text.slice(lineStart))?.[0] ?? '' : '';
  const byGroup = new Map<Group, string[]>();
  for (const member of moved) {
    const [group, name] = newPath(memberName(member) as string) as readonly [Group, string];
    byGroup.set(group, [...(byGroup.get(group) ?? []), movedMember(file, member, name, multiline ? '  ' : '')]);
  }
  const groups = GROUP_ORDER.filter((group) => byGroup.has(group)).map((group) => {
    const members = byGroup.get(group) ?? [];
    return multiline ? `${group}: {\n${indent}  ${members.join(`,\n${indent}  `)},\n${indent}}` : `${group}: { ${members.join(', ')} }`;
  });
  const kept = literal.properties.filter((member) => !moved.includes(member)).map((member) => member.getText(file));
  const all = [...groups, ...kept];
  const text = multiline ? `{\n${indent}${all.join(`,\n${indent}`)},\n${indent.slice(2)}}` : `{ ${all.join(', ')} }`;
  return { start: literal.getStart(file), end: literal.getEnd(), text };
}

/** Pass 2: calls and accesses on a client, fake clients, and what cannot be rewritten safely. */
function valueEdits(checker: ts.TypeChecker, file: ts.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const edit = literalEdit(checker, file, node);
      if (edit !== undefined) {
        edits.push(edit);
        return;
      }
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) {
      const path = newPath(node.name.text);
      if (path !== undefined && offersGroup(checker, checker.getTypeAtLocation(node.expression), node, path[0], path[1], node.name.text)) {
        const assigned = ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
        if (assigned) problems.push(`${where(file, node)}: assigns over the client's ${node.name.text}; the group object is shared, hook it another way`);
        edits.push({ start: node.name.getStart(file), end: node.name.getEnd(), text: `${path[0]}.${path[1]}` });
        const bind = node.parent;
        if (ts.isPropertyAccessExpression(bind) && bind.name.text === 'bind' && ts.isCallExpression(bind.parent) && bind.parent.arguments[0] !== undefined) {
          const thisArgument = bind.parent.arguments[0];
          if (thisArgument.getText(file) === node.expression.getText(file)) {
            edits.push({ start: thisArgument.getEnd(), end: thisArgument.getEnd(), text: `.${path[0]}` });
          }
        }
      }
    }
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = (node.propertyName ?? node.name).getText(file);
      const path = newPath(name);
      if (path !== undefined && offersGroup(checker, checker.getTypeAtLocation(node.parent), node, path[0], path[1], name)) {
        problems.push(`${where(file, node)}: destructures the client's ${name}; take it from client.${path[0]}`);
      }
    }
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const edit = classEdit(checker, file, node);
      if (edit !== undefined) edits.push(edit);
      else if (mirrorsClient(node) && node.heritageClauses === undefined) {
        problems.push(`${where(file, node)}: class ${node.name?.text ?? '(anonymous)'} has the client's old method names; give it the groups by hand`);
      }
    }
    if (ts.isObjectLiteralExpression(node) && targetTypeOf(checker, node) === undefined && mirrorsClient(node)) {
      problems.push(`${where(file, node)}: an untyped literal with the client's old method names; type it as the client it stands for, or regroup it by hand`);
    }
    if (ts.isStringLiteral(node) && newPath(node.text) !== undefined && isClientKey(checker, file, node)) {
      problems.push(`${where(file, node)}: the old name '${node.text}' as a client key; rewrite it by hand`);
    }
    const text = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : ts.isTemplateExpression(node) ? [node.head, ...node.templateSpans.map((span) => span.literal)].map((part) => part.text).join('') : '';
    if (text.includes('EngineClient') && OLD_CALL_IN_TEXT.test(text)) {
      problems.push(`${where(file, node)}: code in a string calls an old name on a client; rewrite it by hand`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return edits;
}

/**
 * A fake class that implements a client type (`implements LogsClient`) keeps its flat methods and gains one field per
 * group, bound to them: `readonly containers = { logs: this.containerLogs.bind(this) }`.
 */
function classEdit(checker: ts.TypeChecker, file: ts.SourceFile, node: ts.ClassLikeDeclaration): Edit | undefined {
  const implemented = (node.heritageClauses ?? [])
    .filter((clause) => clause.token === ts.SyntaxKind.ImplementsKeyword)
    .flatMap((clause) => clause.types.map((type) => checker.getTypeAtLocation(type)));
  if (implemented.length === 0) return undefined;
  const memberNames = new Set(node.members.map((member) => (member.name !== undefined && ts.isIdentifier(member.name) ? member.name.text : '')));
  const byGroup = new Map<Group, string[]>();
  for (const member of node.members) {
    if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    const oldName = member.name.text;
    const path = newPath(oldName);
    if (path === undefined || memberNames.has(path[0])) continue;
    if (!implemented.some((type) => offersGroup(checker, type, node, path[0], path[1], oldName))) continue;
    byGroup.set(path[0], [...(byGroup.get(path[0]) ?? []), `${path[1]}: this.${oldName}.bind(this)`]);
  }
  if (byGroup.size === 0) return undefined;
  const first = node.members[0];
  const lineStart = first === undefined ? 0 : file.text.lastIndexOf('\n', first.getStart(file)) + 1;
  const indent = first === undefined ? '  ' : /^\s*/.exec(file.text.slice(lineStart))?.[0] ?? '  ';
  const fields = GROUP_ORDER.filter((group) => byGroup.has(group)).map((group) => `\n${indent}readonly ${group} = { ${(byGroup.get(group) ?? []).join(', ')} };`);
  return { start: node.members.pos, end: node.members.pos, text: fields.join('') };
}

/** Something with one of the distinctive old names (not only ping, version, info, events, prune, …) looks like a client fake. */
function mirrorsClient(node: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression): boolean {
  const generic = new Set(['ping', 'version', 'info', 'events', 'prune', 'getArchive', 'putArchive']);
  const members: readonly (ts.ClassElement | ts.ObjectLiteralElementLike)[] = ts.isObjectLiteralExpression(node) ? node.properties : node.members;
  const names = members.map((member) => (member.name !== undefined && ts.isIdentifier(member.name) ? member.name.text : ''));
  return names.some((name) => newPath(name) !== undefined && !generic.has(name));
}

/** A string literal used as a key of something that has the client's groups (`mock.method(client, 'listContainers')`). */
function isClientKey(checker: ts.TypeChecker, file: ts.SourceFile, node: ts.StringLiteral): boolean {
  const call = node.parent;
  if (!ts.isCallExpression(call)) return false;
  const path = newPath(node.text) as readonly [Group, string];
  return call.arguments.some((argument) => argument !== node && offersGroup(checker, checker.getTypeAtLocation(argument), argument, path[0], path[1], node.text));
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.end > limit) continue; // nested in an edit already made (a literal inside a rewritten literal waits for the next run)
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    limit = edit.start;
  }
  return result;
}

function runPass(name: string, collect: (checker: ts.TypeChecker, file: ts.SourceFile) => Edit[], check: boolean): number {
  const program = createProgram();
  const checker = program.getTypeChecker();
  let changedFiles = 0;
  for (const file of scannedFiles(program)) {
    const edits = collect(checker, file);
    if (edits.length === 0) continue;
    changedFiles++;
    const path = relative(ROOT, file.fileName);
    if (check) console.log(`${name}: ${path}: ${edits.length} change(s)`);
    else writeFileSync(file.fileName, applyEdits(readFileSync(file.fileName, 'utf8'), edits));
  }
  return changedFiles;
}

function main(): void {
  const check = process.argv.includes('--check');
  const typed = runPass('types', typeEdits, check);
  // A literal nested in a rewritten one is left for another round; a few rounds settle every file.
  let valued = 0;
  for (let round = 0; round < 3; round++) {
    const changed = runPass('values', valueEdits, check);
    valued += changed;
    if (changed === 0 || check) break;
  }
  console.log(`composedClient: ${typed} file(s) with client types, ${valued} file change(s) for calls and fakes${check ? ' (check only)' : ''}`);
  const unique = [...new Set(problems)];
  if (unique.length > 0) {
    console.error(`composedClient: ${unique.length} place(s) to do by hand:\n${unique.join('\n')}`);
    process.exitCode = 1;
  }
}

// Imported by its test for the table; run as a script, it rewrites the tree.
if (require.main === module) main();
