// The bad-input rows of Add Docker Files to Workspace… (issue 12 item 6): what the extension says, word for word.
// Asserted by test/integration/suite/scaffold.test.ts in the real extension host (and the port and message texts by
// test/unit/scaffold/scaffold.test.ts); part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

const category = 'Builds and run options' as const;
const action = 'Add Docker Files to Workspace…';

export const SCAFFOLD_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'scaffold-generic',
    category,
    action,
    input: 'a folder with no project Berth recognises',
    kind: 'outcome',
    message:
      'No message: "Other (generic)" comes first, marked "nothing recognised in this folder" (Node.js, Python, Go, Java and .NET can still be picked); its Dockerfile starts FROM alpine:3.20, copies the folder and says where the start command goes',
  },
  {
    id: 'scaffold-file-exists',
    category,
    action,
    input: 'a Dockerfile, .dockerignore or compose.yaml that exists already',
    kind: 'outcome',
    message:
      'A modal per file, before anything is written: "<file> already exists. Overwrite it?" with Skip (the default button: keeps it byte for byte, writes the others), Overwrite, and Cancel (writes nothing)',
  },
  {
    id: 'scaffold-port-range',
    category,
    action: `${action} (port)`,
    input: '70000',
    kind: 'error',
    errorKind: 'validation',
    message: 'port 70000 is out of range: give a number from 1 to 65535',
  },
  {
    id: 'scaffold-read-only',
    category,
    action,
    input: 'a folder the user may not write in',
    kind: 'error',
    errorKind: 'write-failed',
    message:
      'Cannot write Dockerfile in <folder>: <the system\'s words> (<EACCES or EPERM>). You may not write in this folder: change its permissions, or choose another folder. Nothing was written',
  },
  {
    id: 'scaffold-folder-in-the-way',
    category,
    action: `${action} (Overwrite chosen)`,
    input: 'a folder named compose.yaml where the file goes',
    kind: 'error',
    errorKind: 'write-failed',
    message:
      'Cannot write compose.yaml in <folder>: illegal operation on a directory (EISDIR). A folder of that name is in the way: rename it, or run the command again and choose Skip for this file. Already written and kept: Dockerfile, .dockerignore',
  },
];

/** A row's message as a whole-text pattern: each <placeholder> matches any text. */
export function scaffoldRowPattern(id: string): RegExp {
  const row = SCAFFOLD_BAD_INPUT_CASES.find((entry) => entry.id === id);
  if (!row) throw new Error(`no bad-input row ${id}`);
  const literal = row.message.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('.+')}$`);
}
