// The bad-input rows of the logs workbench (issue 35): what the filter, the time range and Save Logs say, word for
// word. Asserted by test/unit/logs/lineFilter.test.ts (the invalid regular expression, the filter that matches
// nothing), test/unit/logs/logsView.test.ts (an end before the start) and test/engine/logs/saveLogsCases.ts (a
// folder that cannot be written). Part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

export const LOGS_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'logs-filter-invalid-regex',
    category: 'Logs',
    action: 'Filter Logs… (checked as typed)',
    input: '(unclosed, with Use Regular Expression on',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Not a regular expression: /(unclosed/i: Unterminated group. Fix it, or turn off the regular expression to look for the text as it is.',
  },
  {
    id: 'logs-range-backward',
    category: 'Logs',
    action: 'Open Logs in a Time Range… (the end, checked as typed)',
    input: 'an end before the start',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'The end (<until>) is before the start (<since>): give a later end, or leave it empty to keep following.',
  },
  {
    id: 'logs-filter-matches-nothing',
    category: 'Logs',
    action: 'Filter Logs… (logs editor or terminal)',
    input: 'a filter no line matches',
    kind: 'outcome',
    message: '[Berth] No line matches <filter> yet (<count> lines read); still following.',
  },
  {
    id: 'logs-save-unwritable',
    category: 'Logs',
    action: 'Save Logs…',
    input: 'a file in a folder that does not exist (or cannot be written)',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Saving logs failed: Cannot write <path>: the folder does not exist. Choose a folder you can write to.',
  },
];
