/**
 * A volume's files through a helper container: created (never started) with the volume mounted at /volume,
 * NetworkMode none, from an image already on the engine (the smallest, or `berth.files.helperImage`; none is ever
 * pulled). The archive API works on a created container, so the berth-container provider serves the volume as it
 * serves any container. Helpers are removed when the Volumes view is hidden and when Berth shuts down.
 */
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { createVolumeHelper, isEngineError, smallestTaggedImage, type EngineClient } from '../engine';
import type { LogDeps, SessionsDeps } from '../workbench/deps';

export const VOLUME_MOUNT_PATH = '/volume';

/** The image a helper is made from: the setting, else the smallest tagged image on the engine. */
export async function helperImage(client: EngineClient): Promise<string> {
  const configured = vscode.workspace.getConfiguration('berth').get<string>('files.helperImage', '').trim();
  if (configured !== '') return configured;
  const tag = await smallestTaggedImage(client);
  if (tag === undefined) {
    throw new Error('There is no image on this engine to browse the volume with (Berth never pulls one): pull a small image such as busybox, or set berth.files.helperImage');
  }
  return tag;
}

export class VolumeHelpers extends Disposable {
  /** Per engine and volume: the helper's id, once made. */
  private readonly helpers = new Map<string, { readonly engine: string; readonly id: Promise<string> }>();

  constructor(private readonly deps: LogDeps & Pick<SessionsDeps, 'sessionFor'>) {
    super();
    this._register(toDisposable(() => void this.removeAll()));
  }

  /**
   * The helper container for VOLUME on ENGINE, made on first use, and made again when it is gone (Remove Volume and
   * prune remove helpers with their volume; a volume of the same name may come back).
   */
  async helperFor(engine: string, volume: string): Promise<string> {
    const key = `${engine}\u0000${volume}`;
    const known = this.helpers.get(key);
    if (known) {
      const id = await known.id;
      try {
        await this.deps.sessionFor(engine).client.containers.inspect(id);
        return id;
      } catch (error) {
        if (!isEngineError(error, 'not-found')) throw error;
        if (this.helpers.get(key) === known) this.helpers.delete(key);
      }
    }
    let helper = this.helpers.get(key);
    if (!helper) {
      const id = this.create(this.deps.sessionFor(engine).client, volume);
      helper = { engine, id };
      this.helpers.set(key, helper);
      id.catch(() => this.helpers.delete(key));
    }
    return helper.id;
  }

  /** Removes every helper made so far (the Volumes view was hidden, or Berth shuts down). */
  async removeAll(): Promise<void> {
    const helpers = [...this.helpers.values()];
    this.helpers.clear();
    await Promise.all(
      helpers.map(async ({ engine, id }) => {
        try {
          await this.deps.sessionFor(engine).client.containers.remove(await id, { force: true });
        } catch (error) {
          this.deps.log.debug(`Removing a volume helper: ${errorMessage(error)}`);
        }
      }),
    );
  }

  private async create(client: EngineClient, volume: string): Promise<string> {
    const image = await helperImage(client);
    const Id = await createVolumeHelper(client, volume, image, VOLUME_MOUNT_PATH);
    this.deps.log.info(`Browsing volume ${volume} through helper container ${Id.slice(0, 12)} (${image}, created, never started)`);
    return Id;
  }
}
