// The Marketplace package (issue 16): the manifest's gallery fields, what `vsce ls` would ship, the icon the build
// makes from media/berth.svg, and a CHANGELOG with dates and compare links. The built .vsix's size is checked in the
// e2e stage, which packages it anyway (test/e2e/run.ts).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { checkPackageFiles } from '../../support/packageContents';

const ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & {
  contributes: { languages?: { id: string; filenamePatterns?: string[] }[] };
  scripts: Record<string, string>;
};

/** The Marketplace's categories (vsce rejects others). */
const MARKETPLACE_CATEGORIES = new Set(['Azure', 'Data Science', 'Debuggers', 'Extension Packs', 'Education', 'Formatters', 'Keymaps', 'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing', 'Themes', 'Visualization', 'Other', 'AI', 'Chat']);

void describe('package.json for the Marketplace', () => {
  void it('has the gallery fields, real categories and no private flag', () => {
    assert.equal(manifest['private'], undefined, 'private keeps vsce from publishing');
    // Berth has no public home yet: an address that leads nowhere is worse than none (CONTRIBUTING.md).
    for (const field of ['repository', 'homepage', 'bugs']) assert.equal(manifest[field], undefined, field);
    const keywords = manifest['keywords'] as string[];
    assert.ok(keywords.includes('docker') && keywords.includes('podman'), 'found by what people search for');
    assert.ok(keywords.length <= 30, 'the Marketplace keeps 30 keywords at most');
    const categories = manifest['categories'] as string[];
    assert.ok(categories.every((category) => MARKETPLACE_CATEGORIES.has(category)), `not a Marketplace category: ${categories.join(', ')}`);
    assert.ok(categories.some((category) => category !== 'Other'), 'more than "Other"');
    assert.match((manifest['galleryBanner'] as { color: string }).color, /^#[0-9a-f]{6}$/i);
    assert.equal(manifest['icon'], 'dist/icon.png');
  });

  void it("declares virtual workspaces, and `npm run package` keeps the README's relative images", () => {
    const capabilities = manifest['capabilities'] as { virtualWorkspaces?: { supported: unknown; description?: string } | boolean };
    assert.notEqual(capabilities.virtualWorkspaces, undefined);
    assert.deepEqual(manifest['vsce'], { dependencies: false }, 'the bundles carry the dependencies; node_modules stays out');
    assert.match(manifest.scripts['vscode:prepublish'] ?? '', /esbuild\.js --production/);
    const packageScript = manifest.scripts['package'] ?? '';
    assert.match(packageScript, /^vsce package /);
    assert.match(packageScript, /--no-rewrite-relative-links/, 'no repository to rewrite the links against');
  });

  void it("leaves VS Code's own dockercompose language alone, and no pattern of Berth's matches composer.yaml", () => {
    const languages = manifest.contributes.languages ?? [];
    assert.equal(languages.find((language) => language.id === 'dockercompose'), undefined);
    const patterns = languages.flatMap((language) => language.filenamePatterns ?? []);
    const matchesComposer = patterns.some((pattern) => new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`).test('composer.yaml'));
    assert.equal(matchesComposer, false);
  });
});

void describe('the walkthrough', () => {
  interface Step { id: string; when?: string; description: string; completionEvents?: string[] }
  const contributes = manifest.contributes as unknown as {
    walkthroughs: { id: string; steps: Step[] }[];
    viewsWelcome: { view: string; when?: string; contents: string }[];
  };
  const steps = contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps);

  void it('an engine that is not connected shows, in its step, the same reason and fixes as the welcome view', () => {
    const reasons = contributes.viewsWelcome.filter((welcome) => welcome.view === 'berth.containers' && welcome.when !== 'berth.engineState == connected');
    assert.ok(reasons.length >= 6, 'connecting and the five unreachable reasons');
    for (const welcome of reasons) {
      const step = steps.find((candidate) => candidate.when === welcome.when);
      assert.ok(step, `no step for ${welcome.when}`);
      assert.equal(step.description, welcome.contents, `${step.id}: the welcome view's own text (one key, one translation)`);
    }
  });

  void it('has steps to connect, run a container, see its logs and sign in to a registry, each completed by doing it', () => {
    const byId = new Map(steps.map((step) => [step.id, step]));
    assert.deepEqual(byId.get('connect')?.completionEvents, ['onContext:berth.engineState == connected']);
    assert.ok(byId.get('run')?.completionEvents?.includes('onCommand:berth.runContainer'));
    assert.ok(byId.get('logs')?.completionEvents?.includes('onCommand:berth.showLogs'));
    assert.ok(byId.get('registry')?.completionEvents?.includes('onCommand:berth.registries.signIn'));
  });
});

void describe('package contents', () => {
  void it('`vsce ls` lists only what a user needs', async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'extension.js')), 'build first (npm run build): the bundles are what is packaged');
    const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: ROOT, timeout: 180_000 });
    const files = stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    assert.deepEqual(checkPackageFiles(files), { unexpected: [], missing: [] });
  });

  void it('every image the README shows is in the package', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    assert.ok(images.length >= 3, 'the README shows pictures');
    const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: ROOT, timeout: 180_000 });
    const files = new Set(stdout.split('\n').map((line) => line.trim()));
    for (const image of images) {
      assert.doesNotMatch(image, /^https?:/, `${image}: relative, so it works without a public home`);
      assert.ok(files.has(image), `${image} is not packaged (.vscodeignore)`);
    }
  });

  void it('the check refuses sources, tests, maps and node_modules', () => {
    const { unexpected, missing } = checkPackageFiles(['package.json', 'src/extension.ts', 'dist/extension.js.map', 'node_modules/undici/index.js', 'test/unit/x.test.ts']);
    assert.deepEqual(unexpected, ['src/extension.ts', 'dist/extension.js.map', 'node_modules/undici/index.js', 'test/unit/x.test.ts']);
    assert.ok(missing.includes('dist/extension.js') && missing.includes('dist/icon.png'));
  });

  void it('the icon is a 128×128 PNG made by the build', () => {
    const png = readFileSync(join(ROOT, 'dist', 'icon.png'));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  });
});

void describe('CHANGELOG', () => {
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

  void it('dates every release, and links to no address that does not exist', () => {
    const headings = [...changelog.matchAll(/^## \[([^\]]+)\](.*)$/gm)];
    assert.ok(headings.length >= 2, 'Unreleased and at least one release');
    for (const [line, version, rest] of headings) {
      if (version !== 'Unreleased') assert.match(rest ?? '', /^ - \d{4}-\d{2}-\d{2}$/, `${line}: "## [x.y.z] - YYYY-MM-DD"`);
    }
    // Berth has no public home yet (CONTRIBUTING.md): no compare links until it has one.
    assert.doesNotMatch(changelog, /^\[[^\]]+\]: /m);
  });

  void it('says what a user notices: no source paths and no issue numbers', () => {
    assert.doesNotMatch(changelog, /`(src|test|bench|scripts)\/[^`]*`/, 'a source path');
    assert.doesNotMatch(changelog, /\(issue \d+/, 'an issue number');
  });
});

void describe('the "running only" toggle (issue 20)', () => {
  const contributes = manifest.contributes as unknown as {
    commands: Array<{ command: string; icon?: string }>;
    menus: Record<string, Array<{ command: string; when?: string }>>;
  };
  const iconOf = (command: string): string | undefined => contributes.commands.find((entry) => entry.command === command)?.icon;
  const titleEntry = (command: string): string | undefined =>
    contributes.menus['view/title']?.find((entry) => entry.command === command)?.when;

  void it('shows an outline funnel while every container is shown, a filled one while filtered to running', () => {
    // The button shown while showing all is the one that filters (showRunning), and the other way round.
    assert.match(titleEntry('berth.containers.showRunning') ?? '', /(^|&& )berth\.containers\.showAll$/);
    assert.equal(iconOf('berth.containers.showRunning'), '$(filter)');
    assert.match(titleEntry('berth.containers.showAll') ?? '', /!berth\.containers\.showAll$/);
    assert.equal(iconOf('berth.containers.showAll'), '$(filter-filled)');
  });
});
