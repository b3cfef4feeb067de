// Splits src/engine by concern (issue 34, item 5) and renames src/engines to src/engineSwitcher:
//   node --import tsx scripts/codemods/engineSplit.ts
// Re-runnable on a tree that gained files or imports since: it `git mv`s whatever still sits at an old path, rewrites
// every module specifier (import, export, import(), require) that points at an old path or past a subfolder's
// index, regenerates each subfolder's index.ts, and rewrites `src/engine/<old>.ts` mentions in comments and docs.
// It refuses to finish while src/engine holds a file it has no folder for: add that file to FOLDER_OF below.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const ENGINE = 'src/engine';

/** Each engine module's new home, by its old path under src/engine (without .ts); a name change is `folder/name`. */
const FOLDER_OF: Record<string, string> = {
  // connection/: reaching an engine and speaking its wire format; depends on nothing else in src/engine.
  errors: 'connection', endpoint: 'connection', lazyModules: 'connection', undici: 'connection', transport: 'connection',
  'transport-types': 'connection/transportTypes', connectors: 'connection', ssh: 'connection',
  'response-handlers': 'connection/responseHandlers', 'connection-errors': 'connection/connectionErrors',
  contexts: 'connection', types: 'connection', query: 'connection', decoders: 'connection', boundedLine: 'connection',
  'api/connection': 'connection/engineConnection',
  // registry/: image references, credentials and registry HTTP APIs.
  reference: 'registry', auth: 'registry', registry: 'registry', 'registry-protocol': 'registry/registryProtocol',
  hostedClient: 'registry', hostedCatalogs: 'registry',
  // api/: the Engine API endpoints and the client composed of them.
  'api/archive': 'api/archive', 'api/build': 'api/build', 'api/containers': 'api/containers', 'api/exec': 'api/exec',
  'api/images': 'api/images', 'api/networks': 'api/networks', 'api/stats': 'api/stats', 'api/system': 'api/system',
  'api/volumes': 'api/volumes', client: 'api', containerChanges: 'api', 'storage-types': 'api/storageTypes',
  'stats-types': 'api/statsTypes', helperLabels: 'api', eventFormat: 'api', timeArgument: 'api',
  // stats/: figures and streams on top of the stats endpoint.
  statsFigures: 'stats', statsStream: 'stats',
  // files/: what is inside containers and images.
  containerFiles: 'files', containerCopy: 'files', archiveExtract: 'files', imageFiles: 'files', listingSession: 'files',
  tarHeaders: 'files', savedImage: 'files', layerAnalysis: 'files', imageLayers: 'files', changeTree: 'files', layerFiles: 'files',
  // build/: build contexts, Dockerfiles and the build sequence.
  build: 'build', buildContext: 'build', dockerfile: 'build', stdinContext: 'build',
  // compose/: compose projects, files, the compose CLI and merged logs.
  composeCli: 'compose', composeFile: 'compose', composeLogs: 'compose', composeMessages: 'compose',
  composeProjects: 'compose', mergedContainerLogs: 'compose',
  // workflows/: run and stop sequences, prune, disk usage, port forwards, the Node inspector.
  sequences: 'workflows', 'stop-sequences': 'workflows/stopSequences', exitStatus: 'workflows', prune: 'workflows',
  'prune-types': 'workflows/pruneTypes', pruneFilters: 'workflows', pruneRun: 'workflows', diskUsage: 'workflows',
  usage: 'workflows', runOptions: 'workflows', portSpec: 'workflows', forwardRelay: 'workflows',
  portForward: 'workflows', nodeInspector: 'workflows',
};
/** Lower folders first: a folder imports only folders before it, so the index files form no cycle. */
export const ENGINE_FOLDERS = ['connection', 'registry', 'api', 'stats', 'files', 'build', 'compose', 'workflows'];
/** Modules a folder's index re-exports only in part: the undici wrapper's `Connector` is not the transport's. */
const PARTIAL_EXPORTS: Record<string, string> = { 'connection/undici': '{ Agent, Pool, request, type Dispatcher }' };
const RENAMED_DIRECTORIES: Record<string, string> = { 'src/engines': 'src/engineSwitcher' };
const SCANNED = ['src', 'test', 'bench', 'scripts'];
const TEXT_FILES = /\.(ts|md|cjs|mjs|js)$/;

/** Old repository-relative path (with .ts) → new one. */
function moveTable(): Map<string, string> {
  const moves = new Map<string, string>();
  for (const [old, target] of Object.entries(FOLDER_OF)) {
    const base = old.split('/').pop() as string;
    const newPath = target.includes('/') ? target : `${target}/${base}`;
    moves.set(`${ENGINE}/${old}.ts`, `${ENGINE}/${newPath}.ts`);
  }
  for (const [oldDir, newDir] of Object.entries(RENAMED_DIRECTORIES)) {
    for (const file of listFiles(oldDir)) moves.set(file, newDir + file.slice(oldDir.length));
  }
  return moves;
}

function listFiles(dir: string): string[] {
  const absolute = join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(absolute)) {
    if (entry === 'node_modules') continue;
    const path = `${dir}/${entry}`;
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...listFiles(path));
    else found.push(path);
  }
  return found;
}

function git(...args: string[]): void {
  execFileSync('git', args, { cwd: ROOT, stdio: 'inherit' });
}

const moves = moveTable();
const movedBack = new Map([...moves].map(([oldPath, newPath]) => [newPath, oldPath]));
const before = new Set(SCANNED.flatMap(listFiles));
const movedNow = new Set<string>();
for (const [oldPath, newPath] of moves) {
  if (!existsSync(join(ROOT, oldPath)) || existsSync(join(ROOT, newPath))) continue;
  mkdirSync(dirname(join(ROOT, newPath)), { recursive: true });
  git('mv', oldPath, newPath);
  movedNow.add(newPath);
}

const unplaced = readdirSync(join(ROOT, ENGINE)).filter((entry) => entry.endsWith('.ts') && entry !== 'index.ts');
if (unplaced.length > 0) throw new Error(`No folder for src/engine/${unplaced.join(', ')}: add them to FOLDER_OF`);

writeIndexes();
const after = new Set(SCANNED.flatMap(listFiles));
const known = (path: string): boolean => before.has(path) || after.has(path) || moves.has(path);

function resolveModule(fromDir: string, specifier: string): string | undefined {
  const base = relative(ROOT, resolve(ROOT, fromDir, specifier));
  for (const candidate of [`${base}.ts`, `${base}/index.ts`, base]) {
    if (known(candidate) && TEXT_FILES.test(candidate)) return candidate;
  }
  return undefined;
}

/** The subfolder of src/engine a path lies in, if any. */
function engineFolder(path: string): string | undefined {
  const match = /^src\/engine\/([^/]+)\//.exec(path);
  return match?.[1];
}

function specifierFor(file: string, target: string): string {
  const folder = engineFolder(target);
  const destination = folder !== undefined && engineFolder(file) !== folder ? `${ENGINE}/${folder}/index.ts` : target;
  let specifier = relative(dirname(file), destination).replace(/\.ts$/, '').replace(/\/index$/, '');
  if (specifier === 'index') specifier = '.';
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  return specifier;
}

function newSpecifier(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const oldHome = movedBack.get(file);
  const bases = movedNow.has(file) ? [oldHome as string] : [file, ...(oldHome ? [oldHome] : [])];
  for (const base of bases) {
    const found = resolveModule(dirname(base), specifier);
    if (found === undefined) continue;
    const target = moves.get(found) ?? found;
    const wanted = specifierFor(file, target);
    const current = resolveModule(dirname(file), specifier);
    const reachesPast = engineFolder(target) !== undefined && engineFolder(target) !== engineFolder(file) && !target.endsWith('/index.ts');
    if (current === target && !reachesPast && base === file) return undefined;
    return wanted === specifier ? undefined : wanted;
  }
  return undefined;
}

function rewriteImports(file: string): void {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edits: Array<{ start: number; end: number; value: string }> = [];
  const consider = (literal: ts.Node | undefined): void => {
    if (literal === undefined || !ts.isStringLiteral(literal)) return;
    const replacement = newSpecifier(file, literal.text);
    if (replacement !== undefined) edits.push({ start: literal.getStart(source) + 1, end: literal.getEnd() - 1, value: replacement });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) consider(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) consider(node.argument.literal);
    else if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const callee = node.expression;
      const isLoader = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      const isMock = ts.isPropertyAccessExpression(callee) && callee.name.text === 'module';
      if (isLoader || isMock) consider(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let result = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.value + result.slice(edit.end);
  result = mergeImports(file, result);
  result = rewriteMentions(result);
  if (result !== text) writeFileSync(join(ROOT, file), result);
}

/** Imports that now name the same folder index become one declaration (`import { A, type B } from '../connection'`). */
function mergeImports(file: string, text: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const groups = new Map<string, ts.ImportDeclaration[]>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (clause === undefined || clause.name !== undefined || clause.namedBindings === undefined || !ts.isNamedImports(clause.namedBindings)) continue;
    const group = groups.get(statement.moduleSpecifier.text) ?? [];
    group.push(statement);
    groups.set(statement.moduleSpecifier.text, group);
  }
  const edits: Array<{ start: number; end: number; value: string }> = [];
  for (const [specifier, group] of groups) {
    const target = resolveModule(dirname(file), specifier);
    if (group.length < 2 || target === undefined || !/^src\/engine\/[^/]+\/index\.ts$/.test(target)) continue;
    const allTypes = group.every((declaration) => declaration.importClause?.isTypeOnly === true);
    const names: string[] = [];
    for (const declaration of group) {
      const clause = declaration.importClause as ts.ImportClause;
      for (const element of (clause.namedBindings as ts.NamedImports).elements) {
        const name = element.propertyName ? `${element.propertyName.text} as ${element.name.text}` : element.name.text;
        const typed = !allTypes && (clause.isTypeOnly || element.isTypeOnly) ? `type ${name}` : name;
        if (!names.includes(typed)) names.push(typed);
      }
    }
    const head = allTypes ? 'import type' : 'import';
    const oneLine = `${head} { ${names.join(', ')} } from '${specifier}';`;
    const merged = oneLine.length <= 120 ? oneLine : `${head} {\n${names.map((name) => `  ${name},\n`).join('')}} from '${specifier}';`;
    const [first, ...rest] = group as [ts.ImportDeclaration, ...ts.ImportDeclaration[]];
    edits.push({ start: first.getStart(source), end: first.getEnd(), value: merged });
    for (const declaration of rest) {
      let end = declaration.getEnd();
      if (text[end] === '\n') end += 1;
      edits.push({ start: declaration.getStart(source), end, value: '' });
    }
  }
  let result = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.value + result.slice(edit.end);
  return result;
}

/** `src/engine/connection-errors.ts` in a comment or a doc becomes `src/engine/connection/connectionErrors.ts`. */
function rewriteMentions(text: string): string {
  let result = text;
  for (const [oldPath, newPath] of moves) {
    if (oldPath === newPath || !oldPath.startsWith(`${ENGINE}/`)) continue;
    const oldName = oldPath.slice('src/'.length).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`(?<![\\w/.-])(src/)?${oldName}(?![\\w-])`, 'g');
    result = result.replace(pattern, (_match, prefix: string | undefined) => `${prefix ?? ''}${newPath.slice('src/'.length)}`);
  }
  for (const [oldDir, newDir] of Object.entries(RENAMED_DIRECTORIES)) {
    result = result.replace(new RegExp(`(?<![\\w/.-])${oldDir}/`, 'g'), `${newDir}/`);
  }
  return result;
}

/** Each subfolder's index.ts re-exports all its modules; src/engine/index.ts re-exports the subfolders. */
function writeIndexes(): void {
  for (const folder of ENGINE_FOLDERS) {
    const modules = readdirSync(join(ROOT, ENGINE, folder))
      .filter((entry) => entry.endsWith('.ts') && entry !== 'index.ts')
      .map((entry) => entry.replace(/\.ts$/, ''))
      .sort();
    const lines = [`// src/engine/${folder}: generated by scripts/codemods/engineSplit.ts; outside code imports the folder only here.`];
    for (const module of modules) lines.push(`export ${PARTIAL_EXPORTS[`${folder}/${module}`] ?? '*'} from './${module}';`);
    writeFileSync(join(ROOT, ENGINE, folder, 'index.ts'), `${lines.join('\n')}\n`);
  }
  const top = ['// The engine client\'s public surface: the CLI, the extension, tests and benchmarks import from here or from one',
    '// subfolder\'s index.ts (dependency-cruiser forbids reaching past it).'];
  for (const folder of ENGINE_FOLDERS) top.push(`export * from './${folder}';`);
  writeFileSync(join(ROOT, ENGINE, 'index.ts'), `${top.join('\n')}\n`);
}

const isCodemod = (path: string): boolean => path.startsWith('scripts/codemods/');
for (const file of [...after].filter((path) => /\.(ts|mts|cts)$/.test(path) && !isCodemod(path)).sort()) rewriteImports(file);
for (const file of [...listFiles('docs').filter((path) => path.endsWith('.md')), 'CONTRIBUTING.md']) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const result = rewriteMentions(text);
  if (result !== text) writeFileSync(join(ROOT, file), result);
}
console.log(`moved ${movedNow.size} files; indexes written for ${ENGINE_FOLDERS.join(', ')}`);
