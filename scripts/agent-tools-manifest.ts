// Writes package.json's contributes.languageModelTools from the agent tools' definitions (src/tools), so VS Code's
// copy of each schema and description cannot drift from the one `berth mcp` serves:
//   node --import tsx scripts/agent-tools-manifest.ts
// test/unit/agents/manifest.test.ts fails when they differ. Display names are %keys% of package.nls.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AGENT_TOOLS, type AgentTool } from '../src/tools';

const MANIFEST = resolve(__dirname, '..', 'package.json');

export function displayNameKey(tool: AgentTool): string {
  return `agentTools.${tool.name}.displayName`;
}

/** The contribution VS Code reads for each tool. */
export function languageModelTools(): unknown[] {
  return AGENT_TOOLS.map((tool) => ({
    name: `berth_${tool.name}`,
    displayName: `%${displayNameKey(tool)}%`,
    toolReferenceName: `berth-${tool.name.replace(/_/g, '-')}`,
    canBeReferencedInPrompt: true,
    icon: tool.kind === 'read' ? '$(eye)' : '$(play)',
    tags: ['berth', 'containers', tool.kind === 'read' ? 'read' : 'act'],
    when: 'config.berth.agentTools.enabled',
    modelDescription: tool.description,
    inputSchema: tool.inputSchema,
  }));
}

if (require.main === module) {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { contributes: Record<string, unknown> };
  manifest.contributes['languageModelTools'] = languageModelTools();
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  const nlsPath = resolve(__dirname, '..', 'package.nls.json');
  const nls = JSON.parse(readFileSync(nlsPath, 'utf8')) as Record<string, string>;
  for (const tool of AGENT_TOOLS) nls[displayNameKey(tool)] ??= tool.title;
  writeFileSync(nlsPath, `${JSON.stringify(nls, null, 2)}\n`);
}
