/**
 * What Berth reads from a Dockerfile without building it: its stages (`FROM image AS name`, for the target pick),
 * the base images it pulls (for the credentials X-Registry-Config carries), and BuildKit-only syntax the classic
 * builder refuses. Line continuations are joined; `ARG`s declared before the first FROM are substituted as the
 * builder does, from build args first, then their defaults.
 */

export interface DockerfileStage {
  /** The image named by FROM, with ARGs substituted. */
  readonly image: string;
  /** The stage's name (`AS name`), lower-cased as the builder keeps it. */
  readonly name: string | undefined;
  /** 1-based line of the FROM. */
  readonly line: number;
}

interface Instruction {
  readonly keyword: string;
  readonly rest: string;
  readonly line: number;
}

/** Instructions with continuation lines joined, comments and the parser directives left out. */
function instructions(text: string): Instruction[] {
  const lines = text.split(/\r?\n/);
  const result: Instruction[] = [];
  let current: { text: string; line: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const trimmed = line.trim();
    if (current === undefined && (trimmed === '' || trimmed.startsWith('#'))) continue;
    if (current !== undefined && trimmed.startsWith('#')) continue;
    const continued = /\\\s*$/.test(line);
    const piece = continued ? line.replace(/\\\s*$/, '') : line;
    current = current ? { text: `${current.text} ${piece.trim()}`, line: current.line } : { text: piece.trim(), line: index + 1 };
    if (!continued) {
      const match = /^(\S+)\s*(.*)$/s.exec(current.text);
      if (match) result.push({ keyword: (match[1] as string).toUpperCase(), rest: match[2] as string, line: current.line });
      current = undefined;
    }
  }
  return result;
}

/** The stages in order, with their base images (ARGs from before the first FROM substituted). */
export function dockerfileStages(text: string, buildArgs: Readonly<Record<string, string>> = {}): DockerfileStage[] {
  const globalArgs = new Map<string, string>();
  const stages: DockerfileStage[] = [];
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, ...value] = instruction.rest.trim().split('=');
      if (name) globalArgs.set(name, buildArgs[name] ?? unquote(value.join('=')));
    }
    if (instruction.keyword !== 'FROM') continue;
    const words = instruction.rest.split(/\s+/).filter((word) => word !== '' && !word.startsWith('--'));
    const image = substitute(words[0] ?? '', globalArgs);
    const name = words[1]?.toUpperCase() === 'AS' ? words[2]?.toLowerCase() : undefined;
    stages.push({ image, name, line: instruction.line });
  }
  return stages;
}

/** The images the build may pull: every FROM that names neither an earlier stage nor `scratch`. */
export function baseImages(text: string, buildArgs: Readonly<Record<string, string>> = {}): string[] {
  const seen = new Set<string>();
  const images: string[] = [];
  for (const stage of dockerfileStages(text, buildArgs)) {
    const image = stage.image;
    if (image === '' || image.toLowerCase() === 'scratch' || seen.has(image.toLowerCase())) continue;
    if (stage.name !== undefined) seen.add(stage.name);
    images.push(image);
  }
  return [...new Set(images)];
}

/**
 * The Dockerfile line a build failure points at: `Dockerfile parse error line N`, else the line of the instruction
 * the failing `Step N/M` names (the classic builder and Buildah count every instruction, comments and blanks not).
 */
export function failureLine(text: string, message: string, step: string | undefined): number | undefined {
  const parse = /parse error (?:on )?line (\d+)/i.exec(message);
  if (parse) return Number(parse[1]);
  const number = step === undefined ? undefined : /^step (\d+)\/\d+/i.exec(step)?.[1];
  return number === undefined ? undefined : instructions(text)[Number(number) - 1]?.line;
}

/** The first BuildKit-only construct in the Dockerfile (the classic builder refuses these), for a plain message. */
export function buildKitOnlySyntax(text: string): string | undefined {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (/^#\s*syntax\s*=/i.test(firstLine)) return 'a `# syntax=` line';
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'RUN' && /(^|\s)--mount[=\s]/.test(instruction.rest)) return '`RUN --mount`';
    if (/<<-?["']?[A-Za-z_]/.test(instruction.rest) && ['RUN', 'COPY'].includes(instruction.keyword)) return 'a heredoc (`<<EOF`)';
    if (instruction.keyword === 'COPY' && /(^|\s)--(link|parents|exclude)\b/.test(instruction.rest)) return '`COPY --link`';
  }
  return undefined;
}

function substitute(word: string, args: ReadonlyMap<string, string>): string {
  return word.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_all, braced?: string, fallback?: string, bare?: string) => {
    const name = (braced ?? bare) as string;
    const value = args.get(name);
    return value !== undefined && value !== '' ? value : (fallback ?? '');
  });
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return /^(["']).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}
