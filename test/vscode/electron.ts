// The same mocha suite in desktop VS Code through @vscode/test-electron, for contributors with internet access
// (it downloads VS Code 1.100.3). CI on the offline machines runs test/integration/run.ts (code-server) instead.
//   node --import tsx test/vscode/electron.ts
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildExtension, buildIntegrationSuite } from './build';
import { REPO_ROOT, VSCODE_VERSION, quietSettings } from './codeServer';
import { berthTestSettings, prepareEngines } from './engines';

async function main(): Promise<number> {
  await buildExtension();
  const suiteIndex = await buildIntegrationSuite();
  const engines = await prepareEngines();
  const root = await mkdtemp(join(tmpdir(), 'berth-electron-'));
  const userDataDir = join(root, 'user-data');
  const workspace = join(root, 'workspace');
  await mkdir(join(userDataDir, 'User'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await writeFile(join(userDataDir, 'User', 'settings.json'), JSON.stringify(quietSettings(berthTestSettings(engines.dockerHost)), null, 2));
  try {
    await runTests({
      version: VSCODE_VERSION,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: suiteIndex,
      launchArgs: [workspace, '--user-data-dir', userDataDir, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: { BERTH_TEST_ENGINES: JSON.stringify(engines), BERTH_VSCODE_USER_DATA_DIR: userDataDir },
    });
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
