// Save Logs on the test dockerd; the cases are in saveLogsCases.ts, one file per engine so that
// the two 200 MB cases do not share one file's 240 s.
import { saveLogsCases } from './saveLogsCases';

saveLogsCases('docker');
