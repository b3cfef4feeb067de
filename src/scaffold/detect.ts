/**
 * What kind of project a folder holds, from its top-level files (vscode-free, unit-tested). The command reads the
 * folder's names and the text of the few manifests named in MANIFEST_NAMES; everything here is pure.
 */

export const PLATFORMS = ['node', 'python', 'go', 'java', 'dotnet', 'generic'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_LABELS: Readonly<Record<Platform, string>> = {
  node: 'Node.js',
  python: 'Python',
  go: 'Go',
  java: 'Java',
  dotnet: '.NET',
  generic: 'Other (generic)',
};

/** The port each kind of project usually listens on, offered when the user is asked. */
export const DEFAULT_PORTS: Readonly<Record<Platform, number>> = { node: 3000, python: 8000, go: 8080, java: 8080, dotnet: 8080, generic: 8080 };

/** Top-level file name → its text. Files whose text was not read map to ''. */
export type ProjectFiles = Readonly<Record<string, string>>;

/** Everything the templates can use; a fact the files do not give stays undefined and the template's default applies. */
export interface ProjectFacts {
  /** A name for the image and the Compose service: the project's own name, else the folder's. */
  readonly name: string;
  readonly node?: { readonly version?: string; readonly startScript: boolean; readonly main?: string; readonly lockfile?: 'npm' | 'yarn' | 'pnpm' };
  readonly python?: { readonly version?: string; readonly requirements: boolean; readonly pyproject: boolean; readonly entry?: string };
  readonly go?: { readonly module?: string; readonly version?: string };
  readonly java?: { readonly build: 'maven' | 'gradle'; readonly version?: string; readonly gradleWrapper: boolean };
  readonly dotnet?: { readonly project: string; readonly assembly: string; readonly version?: string };
}

export interface Detection {
  /** The platform to pre-select; `generic` when nothing was recognised. */
  readonly platform: Platform;
  /** Every platform whose files are there (a repository can hold several), best first. */
  readonly found: readonly Platform[];
  readonly facts: ProjectFacts;
}

/** The platforms to offer, the detected one first, each with why it is where it is. */
export function platformChoices(detection: Detection): { platform: Platform; note?: string }[] {
  const order = [detection.platform, ...detection.found, ...PLATFORMS].filter((platform, index, all) => all.indexOf(platform) === index);
  return order.map((platform) => {
    if (platform === detection.platform) return { platform, note: detection.found.length > 0 ? 'detected' : 'nothing recognised in this folder' };
    return detection.found.includes(platform) ? { platform, note: 'also found' } : { platform };
  });
}

/** Files whose text detection reads (besides `*.csproj`). */
export const MANIFEST_NAMES = ['package.json', 'requirements.txt', 'pyproject.toml', 'go.mod', 'pom.xml', 'build.gradle', 'build.gradle.kts'] as const;

export function isManifest(name: string): boolean {
  return (MANIFEST_NAMES as readonly string[]).includes(name) || name.endsWith('.csproj');
}

export function detect(files: ProjectFiles, folderName: string): Detection {
  const has = (name: string): boolean => Object.hasOwn(files, name);
  const node = has('package.json') ? nodeFacts(files) : undefined;
  const python = has('requirements.txt') || has('pyproject.toml') ? pythonFacts(files) : undefined;
  const go = has('go.mod') ? goFacts(files['go.mod'] ?? '') : undefined;
  const java = has('pom.xml') || has('build.gradle') || has('build.gradle.kts') ? javaFacts(files) : undefined;
  const dotnet = dotnetFacts(files);
  const found: Platform[] = [];
  // Compiled languages first: a Go or .NET service with a package.json for its front-end tooling is still that service.
  if (dotnet) found.push('dotnet');
  if (go) found.push('go');
  if (java) found.push('java');
  if (python) found.push('python');
  if (node) found.push('node');
  const ownName = (node && packageName(files)) ?? (go?.module ? go.module.split('/').pop() : undefined) ?? dotnet?.assembly;
  return {
    platform: found[0] ?? 'generic',
    found,
    facts: {
      name: serviceName(ownName ?? folderName),
      ...(node ? { node } : {}),
      ...(python ? { python } : {}),
      ...(go ? { go } : {}),
      ...(java ? { java } : {}),
      ...(dotnet ? { dotnet } : {}),
    },
  };
}

/** A name valid as a Compose service and an image repository: lowercase letters, digits, `-`, `_`, `.`. */
export function serviceName(raw: string): string {
  const cleaned = raw
    .toLowerCase()
    .replace(/^@[^/]*\//, '') // an npm scope
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
    .replace(/[._-]{2,}/g, '-');
  return cleaned === '' ? 'app' : cleaned.slice(0, 63).replace(/[^a-z0-9]+$/, '');
}

function parseJsonObject(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function packageName(files: ProjectFiles): string | undefined {
  const name = parseJsonObject(files['package.json']).name;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/** The first major version a range names (`>=18`, `^20.1`, `18.x || 20.x`, `v22`): the image tag to start from. */
export function majorVersion(range: string | undefined): string | undefined {
  return /(\d+)/.exec(range ?? '')?.[1];
}

/** The first `major.minor` a version or range names (`>=3.11`, `go 1.22.3`, `^3.10,<4`). */
export function minorVersion(range: string | undefined): string | undefined {
  const match = /(\d+)\.(\d+)/.exec(range ?? '');
  return match ? `${match[1]}.${match[2]}` : undefined;
}

/** A relative path safe in a Dockerfile's JSON forms: no quotes, backslashes, `$` (substituted in COPY) or control characters. */
function safePath(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const path = value.trim().replace(/^\.\//, '');
  return path !== '' && !path.startsWith('/') && !path.split('/').includes('..') && /^[\w./@+ -]+$/.test(path) ? path : undefined;
}

function nodeFacts(files: ProjectFiles): NonNullable<ProjectFacts['node']> {
  const manifest = parseJsonObject(files['package.json']);
  const scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
  const engines = typeof manifest.engines === 'object' && manifest.engines !== null ? (manifest.engines as Record<string, unknown>) : {};
  const lockfile = Object.hasOwn(files, 'package-lock.json') ? 'npm' : Object.hasOwn(files, 'yarn.lock') ? 'yarn' : Object.hasOwn(files, 'pnpm-lock.yaml') ? 'pnpm' : undefined;
  const version = majorVersion(typeof engines.node === 'string' ? engines.node : undefined);
  const main = safePath(manifest.main) ?? (Object.hasOwn(files, 'index.js') ? 'index.js' : Object.hasOwn(files, 'server.js') ? 'server.js' : undefined);
  return {
    startScript: typeof scripts.start === 'string' && scripts.start.trim() !== '',
    ...(version ? { version } : {}),
    ...(main ? { main } : {}),
    ...(lockfile ? { lockfile } : {}),
  };
}

function tomlString(text: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*=\\s*["']([^"'\\n]*)["']`, 'm').exec(text)?.[1];
}

function pythonFacts(files: ProjectFiles): NonNullable<ProjectFacts['python']> {
  const pyproject = files['pyproject.toml'] ?? '';
  const version = minorVersion(tomlString(pyproject, 'requires-python') ?? tomlString(pyproject, 'python'));
  const entry = ['main.py', 'app.py', 'manage.py', 'server.py'].find((name) => Object.hasOwn(files, name));
  return {
    requirements: Object.hasOwn(files, 'requirements.txt'),
    pyproject: Object.hasOwn(files, 'pyproject.toml'),
    ...(version ? { version } : {}),
    ...(entry ? { entry } : {}),
  };
}

function goFacts(text: string): NonNullable<ProjectFacts['go']> {
  const module = /^\s*module\s+"?([^\s"]+)"?/m.exec(text)?.[1];
  const version = minorVersion(/^\s*go\s+(\d+\.\d+(?:\.\d+)?)/m.exec(text)?.[1]);
  return { ...(module ? { module } : {}), ...(version ? { version } : {}) };
}

function javaFacts(files: ProjectFiles): NonNullable<ProjectFacts['java']> {
  const pom = files['pom.xml'];
  if (pom !== undefined) {
    const version = majorVersion(/<(?:java\.version|maven\.compiler\.release|maven\.compiler\.target)>\s*(?:1\.)?(\d+)/.exec(pom)?.[1]);
    return { build: 'maven', gradleWrapper: false, ...(version ? { version } : {}) };
  }
  const gradle = files['build.gradle.kts'] ?? files['build.gradle'] ?? '';
  const version =
    /languageVersion(?:\.set\(|\s*=\s*)\s*JavaLanguageVersion\.of\((\d+)\)/.exec(gradle)?.[1] ??
    /sourceCompatibility\s*=\s*(?:JavaVersion\.VERSION_)?['"]?(?:1[._])?(\d+)/.exec(gradle)?.[1];
  return { build: 'gradle', gradleWrapper: Object.hasOwn(files, 'gradlew'), ...(version ? { version } : {}) };
}

function dotnetFacts(files: ProjectFiles): ProjectFacts['dotnet'] {
  const project = Object.keys(files)
    .filter((name) => name.endsWith('.csproj') && safePath(name) === name)
    .sort()[0];
  if (project === undefined) return undefined;
  const text = files[project] ?? '';
  const assembly = safePath(/<AssemblyName>\s*([^<\s]+)\s*<\/AssemblyName>/.exec(text)?.[1]) ?? project.slice(0, -'.csproj'.length);
  const version = minorVersion(/<TargetFrameworks?>\s*net(\d+\.\d+)/.exec(text)?.[1]);
  return { project, assembly, ...(version ? { version } : {}) };
}
