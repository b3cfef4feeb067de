/** `images`, `pull` and `version`. */
import type { EngineClient } from '../../engine';
import { pull } from '../../engine';
import type { CredentialLookup } from '../../engine';
import type { ImagesOptions, PullCommandOptions } from '../commands';
import { imageTable } from '../format';
import type { CommandContext } from '../io';
import { PullProgressPrinter } from '../progress';
import { printJson } from './output';

export async function imagesCommand(client: EngineClient, options: ImagesOptions, { io, signal }: CommandContext): Promise<number> {
  const images = await client.listImages({ all: options.all, signal });
  if (options.json) printJson(io, images);
  else io.stdout.write(imageTable(images, io.now()));
  return 0;
}

/** Progress goes to stderr; stdout gets the reference once pulled, as `docker pull` prints it. */
export async function pullCommand(
  client: EngineClient,
  options: PullCommandOptions,
  credentials: CredentialLookup,
  { io, signal }: CommandContext,
): Promise<number> {
  const printer = new PullProgressPrinter(io.stderr, io.stderrIsTerminal);
  try {
    await pull(client, options.image, { credentials, signal, onProgress: (progress) => printer.update(progress) });
  } finally {
    printer.finish();
  }
  io.stdout.write(`${options.image}\n`);
  return 0;
}

export async function versionCommand(client: EngineClient, clientVersion: string, { io, signal }: CommandContext): Promise<number> {
  const info = await client.version({ signal });
  const negotiated = await client.negotiatedVersion({ signal });
  const engineName = info.Components?.find((component) => /podman/i.test(component.Name))?.Name ?? 'Docker Engine';
  const lines: Array<[string, string]> = [
    ['Engine', engineName],
    ['Version', info.Version],
    ['API version', info.MinAPIVersion ? `${info.ApiVersion} (minimum version ${info.MinAPIVersion})` : info.ApiVersion],
    ['Negotiated API version', negotiated],
    ['OS/Arch', `${info.Os}/${info.Arch}`],
    ['Endpoint', client.endpoint.display],
    ['Berth', clientVersion],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 1;
  io.stdout.write(lines.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}\n`).join(''));
  return 0;
}
