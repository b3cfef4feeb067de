// package.json's languageModelTools are generated from the agent tools' definitions (scripts/agent-tools-manifest.ts):
// VS Code must see the same schemas and descriptions `berth mcp` serves. Regenerate with
//   node --import tsx scripts/agent-tools-manifest.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { displayNameKey, languageModelTools } from '../../../scripts/agent-tools-manifest';
import { AGENT_TOOLS } from '../../../src/tools';

const ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { languageModelTools?: unknown[]; configuration: { properties: Record<string, { default?: unknown }> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};

void describe('the language-model tools in package.json', () => {
  void it('are exactly the agent tools, schemas and descriptions included', () => {
    assert.deepEqual(manifest.contributes.languageModelTools, languageModelTools());
  });

  void it('each has a display name in English and German', () => {
    const english = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const german = JSON.parse(readFileSync(join(ROOT, 'package.nls.de.json'), 'utf8')) as Record<string, string>;
    for (const tool of AGENT_TOOLS) {
      assert.equal(english[displayNameKey(tool)], tool.title);
      assert.ok(german[displayNameKey(tool)], `${tool.name} in German`);
    }
  });

  void it('are on by default, turned off by berth.agentTools.enabled, which a restricted workspace cannot set', () => {
    assert.equal(manifest.contributes.configuration.properties['berth.agentTools.enabled']?.default, true);
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('berth.agentTools.enabled'));
    for (const tool of languageModelTools() as Array<{ when: string }>) assert.equal(tool.when, 'config.berth.agentTools.enabled');
  });
});
