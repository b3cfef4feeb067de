/** What `berth --version` prints, shared by the quick path in src/cli.ts and the parser's in main.ts. */
export function versionLine(version: string): string {
  return `berth version ${version}\n`;
}
