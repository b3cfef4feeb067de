// `npm run screenshots`: refreshes docs/screenshots/ from the last e2e run (test-output/screenshots/docs/).
import { relative } from 'node:path';
import { REPO_ROOT } from '../vscode/codeServer';
import { DOCS_SCREENSHOTS, PUBLISHABLE_SCREENSHOTS, refreshDocsScreenshots } from './screenshots';
import { errorMessage } from '../../src/common/errors';

refreshDocsScreenshots().then(
  (files) => {
    const from = relative(REPO_ROOT, PUBLISHABLE_SCREENSHOTS);
    const to = relative(REPO_ROOT, DOCS_SCREENSHOTS);
    console.log(`copied ${files.length} screenshots from ${from} to ${to}: ${files.join(', ')}`);
  },
  (error: unknown) => {
    console.error(errorMessage(error));
    process.exit(1);
  },
);
