/**
 * What a Berth .vsix may hold, and a reader for a zip's file names (the central directory), so the e2e stage checks
 * the real package `npm run package` built and the unit stage checks what `vsce ls` would put in it.
 */
import { readFile } from 'node:fs/promises';

/** The Marketplace goal from issue 16: the packaged extension stays under 1.5 MB. */
export const VSIX_SIZE_LIMIT_BYTES = 1.5 * 1024 * 1024;

/** Files a user needs, as paths inside the extension folder (vsce ls prints them so). */
export const REQUIRED_FILES = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist/extension.js', 'dist/language.js', 'dist/stats-webview.js', 'dist/stats-webview.css', 'dist/icon.png', 'media/berth.svg'];

/**
 * Everything allowed in the package: the bundles, the bundled language servers, media, translations. No sources,
 * tests, source maps, node_modules or scripts.
 */
const ALLOWED = [
  /^(package\.json|package\.nls(\.[a-z-]+)?\.json|README\.md|CHANGELOG\.md|LICENSE)$/,
  /^dist\/(extension|language)\.js$/,
  // The Container Stats webview's page: uPlot bundled with its script and stylesheet (works offline).
  /^dist\/stats-webview\.(js|css)$/,
  /^dist\/server\/[a-z-]+\.js$/,
  /^dist\/icon\.png$/,
  /^media\/[^/]+\.(svg|png|md)$/,
  /^l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/,
  // The README's pictures, which it links relatively (CONTRIBUTING.md: the README's images in the package).
  /^docs\/screenshots\/[a-z-]+\.png$/,
];

/** The paths in `files` that nothing allows, and the required paths that are missing. */
export function checkPackageFiles(files: readonly string[]): { unexpected: string[]; missing: string[] } {
  const unexpected = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
  const missing = REQUIRED_FILES.filter((file) => !files.some((candidate) => candidate.toLowerCase() === file.toLowerCase()));
  return { unexpected, missing };
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;

/** The names of the entries in a zip file (no zip64: a .vsix this small never needs it). */
export async function zipEntryNames(path: string): Promise<string[]> {
  const zip = await readFile(path);
  // The end record is the last 22 bytes plus a comment of up to 64 KiB.
  let end = -1;
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 0xffff); offset--) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error(`${path} is not a zip file: no end of central directory record`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`${path}: bad central directory entry ${index}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The extension's own files in a .vsix, with vsce's renames undone (readme.md, changelog.md, LICENSE.txt). */
export function extensionFilesOfVsix(entries: readonly string[]): string[] {
  const renamed: Record<string, string> = { 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md', 'LICENSE.txt': 'LICENSE' };
  return entries.filter((entry) => entry.startsWith('extension/')).map((entry) => entry.slice('extension/'.length)).map((file) => renamed[file] ?? file);
}
