import type { ReportDeps } from '../workbench/feedback';

/** The Scaffold feature needs only the log, for its error reports. */
export type ScaffoldDeps = ReportDeps;
