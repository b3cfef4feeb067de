/** `images`, `pull` and `version`. */
import { parseImageReference, pull } from '../../engine';
import type { ImagesOptions, PullCommandOptions } from '../options';
import { imageTable, shortId } from '../format';
import { IMAGE_DIGEST_TABLE, IMAGE_TABLE, imageFormatTarget, imagesNeedDigests } from '../formatContexts';
import { prepareFormat, renderFormatted } from '../formatOption';
import type { CommandDeps } from '../io';
import { PullProgressPrinter } from '../progress';
import { printJson } from './output';

export async function imagesCommand(options: ImagesOptions, { io, signal, client }: CommandDeps): Promise<number> {
  const defaultTable = options.digests ? IMAGE_DIGEST_TABLE : IMAGE_TABLE;
  // --digests changes the default table; as docker, it goes through the same formatter as --format.
  const format = options.format ?? (options.digests && !options.json ? 'table' : undefined);
  const prepared = format !== undefined && !options.quiet ? prepareFormat(format, defaultTable) : undefined;
  const images = await client().images.list({ all: options.all, filters: options.filters, signal });
  if (prepared) io.stdout.write(renderFormatted(prepared, imageFormatTarget(images, io.now(), imagesNeedDigests(prepared, options.digests))));
  else if (options.json) printJson(io, images);
  // docker prints one id per row of the table, so an image with two tags shows twice.
  else if (options.quiet) io.stdout.write(images.flatMap((image) => Array.from({ length: Math.max(1, visibleTags(image.RepoTags).length) }, () => `${shortId(image.Id)}\n`)).join(''));
  else io.stdout.write(imageTable(images, io.now()));
  return 0;
}

function visibleTags(tags: readonly string[] | null | undefined): string[] {
  return (tags ?? []).filter((tag) => tag !== '<none>:<none>');
}

/** Progress goes to stderr; stdout gets the full reference once pulled, `:latest` included, as `docker pull` prints it. */
export async function pullCommand(options: PullCommandOptions, { io, signal, client, credentials }: CommandDeps): Promise<number> {
  const printer = new PullProgressPrinter(io.stderr, io.stderrIsTerminal);
  const reference = parseImageReference(options.image);
  try {
    await pull(client(), options.image, { credentials: credentials(), signal, onProgress: (progress) => printer.update(progress) });
  } finally {
    printer.finish();
  }
  const tag = reference.tag ?? (reference.digest ? undefined : 'latest');
  io.stdout.write(`${reference.registry}/${reference.repository}${tag ? `:${tag}` : ''}${reference.digest ? `@${reference.digest}` : ''}\n`);
  return 0;
}

export async function versionCommand({ io, signal, client, version }: CommandDeps): Promise<number> {
  const engine = client();
  const info = await engine.system.version({ signal });
  const negotiated = await engine.negotiatedVersion({ signal });
  const engineName = info.Components?.find((component) => /podman/i.test(component.Name))?.Name ?? 'Docker Engine';
  const lines: Array<[string, string]> = [
    ['Engine', engineName],
    ['Version', info.Version],
    ['API version', info.MinAPIVersion ? `${info.ApiVersion} (minimum version ${info.MinAPIVersion})` : info.ApiVersion],
    ['Negotiated API version', negotiated],
    ['OS/Arch', `${info.Os}/${info.Arch}`],
    ['Endpoint', engine.endpoint.display],
    ['Berth', version],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 1;
  io.stdout.write(lines.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}\n`).join(''));
  return 0;
}
