// One image as a fake engine serves it for the faults a real engine does not produce on demand (a saved-image stream
// cut or held open midway, hostile entry names): `docker save`'s tar, and the inspect and history answers dockerd
// gives. Plain Node: nothing from src/.
import type { ServerResponse } from 'node:http';
import * as tar from 'tar-stream';
import { sendJson, writeEngineHead, type FakeRoute } from './fakeEngine';

/** A tar of ENTRIES (name, bytes), in that order. */
export async function tarOf(entries: ReadonlyArray<readonly [string, Buffer]>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, data] of entries) pack.entry({ name, size: data.length }, data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface FakeLayer {
  /** The layer tar's path in the saved image, e.g. `one/layer.tar`. */
  readonly tarPath: string;
  /** The config's history step that made the layer. */
  readonly createdBy: string;
  readonly tar: Buffer;
}

/** `docker save`'s tar of one image, base layer first: config.json, each layer tar, then manifest.json. */
export async function savedImageTar(layers: readonly FakeLayer[]): Promise<Buffer> {
  const config = Buffer.from(JSON.stringify({ history: layers.map((layer) => ({ created_by: layer.createdBy })), rootfs: { type: 'layers', diff_ids: [] } }));
  const manifest = Buffer.from(JSON.stringify([{ Config: 'config.json', RepoTags: null, Layers: layers.map((layer) => layer.tarPath) }]));
  return tarOf([['config.json', config], ...layers.map((layer): readonly [string, Buffer] => [layer.tarPath, layer.tar]), ['manifest.json', manifest]]);
}

export interface FakeImage {
  /** `sha256:…` */
  readonly id: string;
  /** The one tag, e.g. `cut:1`: inspect answers by it as by the id. */
  readonly tag: string;
  readonly size: number;
  /** `GET /images/{id}/history`'s answer, newest first. */
  readonly history: ReadonlyArray<Record<string, unknown>>;
}

/** Inspect and history of IMAGE as dockerd answers them; `sendSaved` sends the body of `GET /images/{id}/get`. */
export function savedImageRoute(image: FakeImage, sendSaved: (response: ServerResponse) => void): FakeRoute {
  return (request, response) => {
    if (request.path === `/images/${image.id}/json` || request.path === `/images/${image.tag}/json`) {
      sendJson(response, 200, { Id: image.id, RepoTags: [image.tag], Created: '2026-01-01T00:00:00Z', Size: image.size });
      return true;
    }
    if (request.path === `/images/${image.id}/history`) {
      sendJson(response, 200, image.history);
      return true;
    }
    if (request.path === `/images/${image.id}/get`) {
      writeEngineHead(response, 200, 'application/x-tar');
      sendSaved(response);
      return true;
    }
    return false;
  };
}
