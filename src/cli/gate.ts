import { SEVERITIES, type IssueType, type Severity } from './types.ts';

export type FailOn = 'new' | Severity | 'any';

export interface GateOptions {
  failOn: readonly FailOn[];
  maxIssues?: number | undefined;
  includeNeedsReview: boolean;
}

export interface GateIssue {
  type: IssueType;
  severity: Severity;
  isNew: boolean;
}

export interface GateFailure {
  /** The option that failed, as given on the command line, e.g. `--fail-on new,serious`. */
  rule: string;
  /** How many counted issues caused it. */
  count: number;
  message: string;
}

export interface GateDecision {
  passed: boolean;
  /** False when neither --fail-on nor --max-issues was given: the run never fails on issues. */
  configured: boolean;
  /** Issues that count toward the gates (by type, and new ones only when `new` is set). */
  counted: number;
  newOnly: boolean;
  failures: GateFailure[];
  /** One line for the summary. */
  verdict: string;
}

/** Severity rank: 0 is the worst. */
const rank = (s: Severity) => SEVERITIES.indexOf(s);

/** needs_review issues are the engine admitting it could not decide, so they gate only when asked to. */
export function countsTowardGates(issue: GateIssue, options: GateOptions): boolean {
  if (issue.type !== 'confirmed' && !options.includeNeedsReview) return false;
  return !options.failOn.includes('new') || issue.isNew;
}

/**
 * The severity rule --fail-on sets: the loosest severity listed (each means "that or worse", so the
 * loosest contains the others), `any` for any counted issue, and `new` on its own for any new
 * issue unless --max-issues is there to say how many new issues are too many.
 */
function severityThreshold(options: GateOptions): Severity | 'any' | undefined {
  const severities = options.failOn.filter((f): f is Severity => (SEVERITIES as readonly string[]).includes(f));
  if (options.failOn.includes('any')) return 'any';
  if (severities.length > 0) return severities.reduce((a, b) => (rank(a) > rank(b) ? a : b));
  if (options.failOn.includes('new') && options.maxIssues === undefined) return 'any';
  return undefined;
}

export function decideGate(issues: readonly GateIssue[], options: GateOptions): GateDecision {
  const newOnly = options.failOn.includes('new');
  const counted = issues.filter((i) => countsTowardGates(i, options));
  const what = (n: number) => `${n} ${newOnly ? 'new ' : ''}${options.includeNeedsReview ? '' : 'confirmed '}${n === 1 ? 'issue' : 'issues'}`;
  const failures: GateFailure[] = [];
  const failOnRule = `--fail-on ${options.failOn.join(',')}`;

  const threshold = severityThreshold(options);
  if (threshold !== undefined) {
    const hits = threshold === 'any' ? counted : counted.filter((i) => rank(i.severity) <= rank(threshold));
    if (hits.length > 0) {
      const tail = threshold === 'any' ? '' : threshold === 'critical' ? ' critical' : ` ${threshold} or worse`;
      const verb = threshold === 'any' ? '' : hits.length === 1 ? ' is' : ' are';
      failures.push({ rule: failOnRule, count: hits.length, message: `${what(hits.length)}${verb}${tail}` });
    }
  }
  if (options.maxIssues !== undefined && counted.length > options.maxIssues) {
    failures.push({ rule: `--max-issues ${options.maxIssues}`, count: counted.length, message: `${what(counted.length)}, more than ${options.maxIssues}` });
  }

  const configured = threshold !== undefined || options.maxIssues !== undefined;
  const passed = failures.length === 0;
  let verdict: string;
  if (!configured) verdict = 'not set (no --fail-on or --max-issues): the build does not fail on issues';
  else if (passed) verdict = `passed (${[options.failOn.length > 0 ? failOnRule : '', options.maxIssues !== undefined ? `--max-issues ${options.maxIssues}` : ''].filter(Boolean).join(', ')}; ${what(counted.length)} counted)`;
  else verdict = `FAILED: ${failures.map((f) => `${f.rule}: ${f.message}`).join('; ')}`;
  return { passed, configured, counted: counted.length, newOnly, failures, verdict };
}
