/**
 * The vscode-free parts of Build Image…: which files are Dockerfiles, the tag suggested for one, build args typed as
 * `KEY=VALUE` words, and the terminal text of the engine's build lines (step lines as they come, pulled layers
 * summed into one line rewritten in place, failures in red).
 */
import { basename, dirname } from 'node:path';
import { splitCommandLine } from '../common/argv';
import { LayerProgress } from '../common/layerProgress';
import type { BuildMessage } from '../engine';

/** A build as commands, tasks and tests describe it; the palette flow fills in the same shape. */
export interface BuildOptions {
  /** The Dockerfile's path on this machine. */
  readonly dockerfile: string;
  /** The context folder; the Dockerfile's folder by default. */
  readonly context?: string | undefined;
  readonly tag: string;
  readonly buildArgs?: Readonly<Record<string, string>> | undefined;
  readonly target?: string | undefined;
  readonly noCache?: boolean | undefined;
  /** The engine (id or name); the current one by default. */
  readonly engine?: string | undefined;
  /** Answers the large-context question for automation (true builds, false cancels). */
  readonly confirmLargeContext?: boolean | undefined;
}

export function isBuildOptions(value: unknown): value is BuildOptions {
  return typeof value === 'object' && value !== null && typeof (value as { dockerfile?: unknown }).dockerfile === 'string' && typeof (value as { tag?: unknown }).tag === 'string';
}

/** `Dockerfile`, `*.Dockerfile`, `Dockerfile.*` (any case of "dockerfile"), as the issue and the explorer menu read them. */
export function isDockerfileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'dockerfile' || lower.endsWith('.dockerfile') || lower.startsWith('dockerfile.');
}

/** The glob the palette's pick searches the workspace with. */
export const DOCKERFILE_GLOB = '**/{Dockerfile,dockerfile,*.Dockerfile,*.dockerfile,Dockerfile.*}';

/** `my App/Dockerfile` → `my-app:latest`: the folder's name as a valid repository, or `app`. */
export function suggestedTag(dockerfilePath: string): string {
  const folder = basename(dirname(dockerfilePath));
  const repository = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return `${repository || 'app'}:latest`;
}

/** `A=1 "B=two words"` → `{ A: '1', B: 'two words' }`; throws a message naming the word that is not KEY=VALUE. */
export function parseBuildArgs(text: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const word of splitCommandLine(text)) {
    const equals = word.indexOf('=');
    if (equals <= 0) throw new Error(`"${word}" is not KEY=VALUE: write each build arg as KEY=VALUE, separated by spaces`);
    args[word.slice(0, equals)] = word.slice(equals + 1);
  }
  return args;
}

/** Build args back as the text the input box shows, for the remembered values. */
export function formatBuildArgs(args: Readonly<Record<string, string>>): string {
  return Object.entries(args)
    .map(([key, value]) => (/[\s"']/.test(value) ? `"${key}=${value.replace(/(["\\])/g, '\\$1')}"` : `${key}=${value}`))
    .join(' ');
}

/** What the terminal shows for each line of the build; `percent` is the summed pull of the base image's layers. */
export class BuildTranscript {
  private readonly layers = new LayerProgress();
  private pullLineOpen = false;

  /** The text to write (with CRLF), or '' when the line only updated the pull line's figure. */
  render(message: BuildMessage): string {
    if (message.stream !== undefined) return this.closePullLine() + message.stream.replace(/\r?\n/g, '\r\n');
    if (message.status === undefined) return '';
    if (message.id !== undefined && this.layers.update({ status: message.status, id: message.id, progressDetail: message.progressDetail })) {
      const totals = this.layers.totals;
      const text = `\r\x1b[2KPulling ${totals.layers} layer${totals.layers === 1 ? '' : 's'}: ${this.layers.percent}% (${totals.doneLayers} done)`;
      this.pullLineOpen = true;
      return text;
    }
    return `${this.closePullLine()}${message.id !== undefined ? `${message.id}: ` : ''}${message.status}\r\n`;
  }

  /** A failure, in red, on a line of its own. */
  failure(text: string): string {
    return `${this.closePullLine()}\x1b[31m${text}\x1b[0m\r\n`;
  }

  private closePullLine(): string {
    if (!this.pullLineOpen) return '';
    this.pullLineOpen = false;
    return '\r\n';
  }
}
