// German as the workbench's display language, without a Marketplace language pack (none can be fetched here): the
// server reads which languages exist from languagepacks.json in its user-data dir, so one entry pointing at an empty
// VS Code translation makes `de` available. VS Code's own texts stay English; extensions get `vscode.env.language`
// `de`, so Berth's package.nls.de.json and l10n/bundle.l10n.de.json load as they do under a real language pack.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DisplayLanguage {
  readonly locale: string;
  readonly userDataFiles: Readonly<Record<string, string>>;
}

export async function germanDisplayLanguage(root: string): Promise<DisplayLanguage> {
  const pack = join(root, 'berth-test-language-pack-de');
  await mkdir(join(pack, 'translations'), { recursive: true });
  const translations = join(pack, 'translations', 'main.i18n.json');
  await writeFile(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const languagePacks = {
    de: {
      hash: 'berth-test-de-1',
      extensions: [{ extensionIdentifier: { id: 'berth-test.berth-test-language-pack-de' }, version: '1.0.0' }],
      translations: { vscode: translations },
      label: 'Deutsch',
    },
  };
  return { locale: 'de', userDataFiles: { 'languagepacks.json': JSON.stringify(languagePacks) } };
}
