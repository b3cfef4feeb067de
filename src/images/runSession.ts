/**
 * One foreground run of Run Container…: its terminal, the controls that stop or detach it, and what the run writes
 * there (pull progress, output, status, the exit line). A class rather than one handler of closures over shared
 * locals, so that each moment of the terminal's life (started, refused, output, finished, failed) is a method with
 * a name and the state it changes (the open progress line, the terminal's name) is in one place.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { shortId } from '../common/format';
import { LayerProgress, pullProgressText } from '../common/layerProgress';
import { runContainer, type ContainerSpec, type OutputChunk, type RunResult } from '../engine';
import { isRegistryAuthFailure, runRefusedMessage, withRegistryAuthRetry, type AuthRetryOptions } from '../registries';
import type { EngineSession } from '../model/session';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ContainerTerminalOutput } from '../terminals/outputFilter';
import { ANSI, StreamDecoders } from '../terminals/terminalText';
import { reportError } from '../workbench/feedback';
import type { ImagesCommandDeps } from './deps';
import { RunTerminalControls, type WhenClosed } from './runTerminal';

/** What a foreground run needs of the Run arguments. */
export interface RunSessionArgs {
  readonly image: string;
  readonly name?: string | undefined;
  readonly tty?: boolean | undefined;
  readonly interactive?: boolean | undefined;
  readonly whenClosed?: WhenClosed | undefined;
}

export interface RunSessionSteps {
  /** The run's options, resolved once the terminal shows (a failure is written there). */
  readonly prepare: () => Promise<ContainerSpec>;
  /** The sign-in offer of the pull; ONREFUSED is told before the offer shows. */
  readonly authRetry: (onRefused: (registry: string) => void) => AuthRetryOptions;
  /** A failed run rejects with its error instead of showing a message (automation that answers sign-in). */
  readonly rejectsFailure: boolean;
}

export interface RunSessionResult {
  readonly id: string;
  readonly exitCode: number;
  readonly terminalName: string;
}

/** A registry refusal the user did not sign in for, worded for a run; any other failure as it is. */
export function explainRefusal(image: string, error: unknown): unknown {
  return isRegistryAuthFailure(error) ? new Error(runRefusedMessage(image, errorMessage(error)), { cause: error }) : error;
}

export class RunSession {
  private readonly terminal = new BufferedPseudoterminal();
  /** Named after its container; one the engine names is renamed once it is created. */
  private terminalName: string;
  /** The rename after the engine's name, when the engine chose it; whether that worked. */
  private named: Promise<boolean> | undefined;
  private readonly controls: RunTerminalControls;
  private readonly decoders = new StreamDecoders();
  private readonly output: ContainerTerminalOutput;
  private readonly tracker = new LayerProgress();
  /** The pull progress line is rewritten in place; whatever comes next starts on a line of its own. */
  private progressLineOpen = false;

  /** Opens and shows the run's terminal. */
  constructor(
    private readonly deps: ImagesCommandDeps,
    private readonly session: EngineSession,
    private readonly args: RunSessionArgs,
  ) {
    this.terminalName = `Run: ${args.name ?? args.image}`;
    vscode.window.createTerminal({ name: this.terminalName, pty: this.terminal, iconPath: new vscode.ThemeIcon('play') }).show();
    const tty = args.tty ?? false;
    this.controls = new RunTerminalControls(this.terminal, {
      tty,
      interactive: tty || (args.interactive ?? false),
      stopTimeoutSeconds: deps.settings.stopTimeoutSeconds,
      whenClosed: args.whenClosed,
      log: deps.log,
    });
    this.output = new ContainerTerminalOutput(tty);
  }

  /** Runs the container in the terminal to its end; undefined when the run failed (and was reported) or was detached. */
  async run(steps: RunSessionSteps): Promise<RunSessionResult | undefined> {
    try {
      const base = await steps.prepare();
      const result = await withRegistryAuthRetry(
        this.args.image,
        ({ credential, attempt }) => {
          if (attempt > 1) this.terminal.writeLine(ANSI.dim(`[Berth] signed in; pulling ${this.args.image} again`));
          return this.attempt(base, credential);
        },
        steps.authRetry((registry) => this.refused(registry)),
      );
      return await this.finished(result);
    } catch (error) {
      return this.failed(error, steps.rejectsFailure);
    } finally {
      this.controls.finish();
      this.controls.dispose();
    }
  }

  private attempt(base: ContainerSpec, credential: Awaited<ReturnType<NonNullable<ContainerSpec['credentials']>>>): Promise<RunResult> {
    const { deps, session, controls } = this;
    return runContainer(session.client, {
      ...base,
      credentials: () => Promise.resolve(credential),
      signal: controls.signal,
      interrupt: controls.interrupt,
      detach: controls.detach,
      stopTimeoutSeconds: deps.settings.stopTimeoutSeconds,
      interactive: controls.stdin !== undefined,
      // A shell left running when its terminal closes must not read end-of-file.
      keepStdinOpen: this.args.tty ?? false,
      stdin: controls.stdin,
      onStarted: (id) => this.started(id),
      // The exit status arrives as the result's number: the terminal ends with its own `[Berth] exited with status N`.
      onStatus: (text: string) => {
        this.endProgressLine();
        this.terminal.writeLine(ANSI.dim(`[Berth] ${text}`));
      },
      onPullProgress: (line) => this.pullProgress(line),
      onOutput: (chunk) => this.containerOutput(chunk),
    });
  }

  private started(id: string): void {
    const { name } = this.args;
    this.controls.started(this.session.client, id, name ?? this.session.model.container(id)?.name ?? shortId(id));
    // The name the engine chose: the model may not have the new container yet.
    if (name === undefined) this.named = this.nameAfterEngine(id);
  }

  private pullProgress(line: Parameters<LayerProgress['update']>[0]): void {
    this.tracker.update(line);
    this.terminal.write(`\r\x1b[2K${ANSI.dim(`[Berth] pulling ${this.args.image}: ${pullProgressText(this.tracker)}`)}`);
    this.progressLineOpen = true;
  }

  private containerOutput(chunk: OutputChunk): void {
    this.endProgressLine();
    // Container output is untrusted: colours pass, terminal control does not (terminals/outputFilter.ts).
    this.terminal.write(this.output.text(chunk.stream, this.decoders.decode(chunk.stream, chunk.data)));
  }

  private refused(registry: string): void {
    this.endProgressLine();
    this.terminal.writeLine(ANSI.yellow(`[Berth] ${registry} refused the pull of ${this.args.image}: Sign In… in the notification goes on with this run`));
  }

  private async finished(result: RunResult): Promise<RunSessionResult> {
    for (const [stream, flushed] of this.decoders.flush()) this.terminal.write(this.output.text(stream === 'stderr' ? 'stderr' : 'stdout', flushed));
    this.endProgressLine();
    this.terminal.writeLine('');
    const how = result.interrupted ? 'stopped (Ctrl+C); ' : '';
    this.terminal.writeLine(ANSI.bold(`[Berth] ${how}exited with status ${result.exitCode}`));
    this.deps.log.info(`${this.args.image} (${shortId(result.id)}) exited with status ${result.exitCode}`);
    await this.session.model.refetchContainers([result.id]);
    // On Podman the inspect can miss a container that exits at once: the model's row, or one more inspect now that
    // the container has settled, names it.
    if (this.named !== undefined && !(await this.named)) await this.nameAfterEngine(result.id, this.session.model.container(result.id)?.name);
    return { id: result.id, exitCode: result.exitCode, terminalName: this.terminalName };
  }

  private failed(error: unknown, rejects: boolean): undefined {
    if (this.controls.detached) {
      this.deps.log.info(`${this.args.image}: the Run terminal was closed; the container runs on`);
      return undefined;
    }
    const failure = explainRefusal(this.args.image, error);
    this.endProgressLine();
    this.terminal.writeLine(ANSI.red(`[Berth] ${errorMessage(failure)}`));
    if (rejects) throw failure;
    reportError(this.deps, `Running ${this.args.image}`, failure);
    return undefined;
  }

  private endProgressLine(): void {
    if (this.progressLineOpen) this.terminal.writeLine('');
    this.progressLineOpen = false;
  }

  /** Renames the terminal after the container, by the name the engine gave it (KNOWN, or inspected); whether that worked. */
  private nameAfterEngine(id: string, known?: string): Promise<boolean> {
    const name = known !== undefined ? Promise.resolve(known) : this.session.client.containers.inspect(id).then((inspected) => inspected.Name);
    return name.then(
      (engineName) => {
        this.terminalName = `Run: ${engineName.replace(/^\//, '')}`;
        this.terminal.rename(this.terminalName);
        return true;
      },
      (error: unknown) => {
        this.deps.log.debug(`Naming the Run terminal of ${shortId(id)}: ${errorMessage(error)}`);
        return false;
      },
    );
  }
}
