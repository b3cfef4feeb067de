// One CLI start in a process of its own (V8 keeps what it compiled in-process, so a second load there never reads the
// cache): loads the bundle named by argv through the code cache, saves it, and prints what happened as JSON.
import { loadWithCodeCache } from '../../../src/cli/codeCache';

const [file = '', cache = ''] = process.argv.slice(2);
const loaded = loadWithCodeCache<{ answer(): number }>(file, cache);
loaded?.saveCache();
process.stdout.write(JSON.stringify({ answer: loaded?.exports.answer(), fromCache: loaded?.fromCache }));
