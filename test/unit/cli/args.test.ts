import { describe, expect, it } from 'vitest';
import { DEFAULT_API, DEFAULT_TIMEOUT_SECONDS, parseCliArgs, type ParsedArgs, type RunOptions } from '../../../src/cli/args.ts';

function run(argv: string[], env: Record<string, string | undefined> = {}): RunOptions {
  const parsed = parseCliArgs(argv, env);
  if (parsed.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
  return parsed.options;
}

function usageError(argv: string[], env: Record<string, string | undefined> = {}): string {
  const parsed: ParsedArgs = parseCliArgs(argv, env);
  if (parsed.kind !== 'usage_error') throw new Error(`expected a usage error, got ${JSON.stringify(parsed)}`);
  return parsed.message;
}

describe('parseCliArgs: commands', () => {
  it('parses a scan with the defaults', () => {
    expect(run(['scan', 'https://example.org/page'])).toEqual({
      command: 'scan',
      url: 'https://example.org/page',
      api: DEFAULT_API,
      key: undefined,
      maxPages: undefined,
      failOn: [],
      maxIssues: undefined,
      includeNeedsReview: false,
      sarif: undefined,
      junit: undefined,
      json: undefined,
      timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
      quiet: false,
    });
  });

  it('parses a crawl with every option', () => {
    const o = run([
      'crawl', 'https://example.org', '--api', 'https://audit.example.com/', '--key', 'k1', '--max-pages', '50',
      '--fail-on', 'new,serious', '--fail-on', 'any', '--max-issues', '0', '--include-needs-review',
      '--sarif', 'out/a.sarif', '--junit', 'out/junit.xml', '--json', 'out/r.json', '--timeout', '90.5', '--quiet',
    ]);
    expect(o).toEqual({
      command: 'crawl',
      url: 'https://example.org/',
      api: 'https://audit.example.com',
      key: 'k1',
      maxPages: 50,
      failOn: ['new', 'serious', 'any'],
      maxIssues: 0,
      includeNeedsReview: true,
      sarif: 'out/a.sarif',
      junit: 'out/junit.xml',
      json: 'out/r.json',
      timeoutSeconds: 90.5,
      quiet: true,
    });
  });

  it('takes the API and the key from the environment, the command line first', () => {
    const env = { A11Y_AUDIT_API: 'http://api.internal:8080/', A11Y_AUDIT_KEY: 'from-env' };
    expect(run(['scan', 'https://example.org/'], env)).toMatchObject({ api: 'http://api.internal:8080', key: 'from-env' });
    expect(run(['scan', 'https://example.org/', '--api', 'http://other/', '--key', 'cli'], env)).toMatchObject({ api: 'http://other', key: 'cli' });
    expect(run(['scan', 'https://example.org/'], { A11Y_AUDIT_API: '  ', A11Y_AUDIT_KEY: '' })).toMatchObject({ api: DEFAULT_API, key: undefined });
  });

  it('keeps a path prefix of the API base URL', () => {
    expect(run(['scan', 'https://example.org/', '--api', 'https://ci.example.com/a11y/'])).toMatchObject({ api: 'https://ci.example.com/a11y' });
  });

  it('answers help and version before anything else is checked', () => {
    expect(parseCliArgs(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseCliArgs(['scan', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseCliArgs(['help'], {})).toEqual({ kind: 'help' });
    expect(parseCliArgs(['--version'], {})).toEqual({ kind: 'version' });
  });
});

describe('parseCliArgs: usage errors', () => {
  it('needs a known command and one URL', () => {
    expect(usageError([])).toMatch(/a command is required/);
    expect(usageError(['audit', 'https://x.org/'])).toMatch(/unknown command "audit"/);
    expect(usageError(['scan'])).toMatch(/scan needs a URL/);
    expect(usageError(['crawl'])).toMatch(/crawl needs a URL.*<site-url>/);
    expect(usageError(['scan', 'https://a.org/', 'https://b.org/'])).toMatch(/unexpected argument "https:\/\/b.org\/"/);
  });

  it('wants absolute http(s) URLs', () => {
    expect(usageError(['scan', 'example.org'])).toMatch(/the URL must be an absolute http\(s\) URL/);
    expect(usageError(['crawl', 'ftp://example.org/'])).toMatch(/the site URL must be an absolute http\(s\) URL such as https:\/\/example.org\/, got "ftp:\/\/example.org\/"/);
    expect(usageError(['scan', 'https://x.org/', '--api', 'localhost:3000'])).toMatch(/--api must be an absolute/);
    expect(usageError(['scan', 'https://x.org/'], { A11Y_AUDIT_API: 'nonsense' })).toMatch(/A11Y_AUDIT_API must be an absolute/);
  });

  it('rejects unknown options and options without their value', () => {
    expect(usageError(['scan', 'https://x.org/', '--fail-fast'])).toMatch(/Unknown option '--fail-fast'/);
    expect(usageError(['scan', 'https://x.org/', '--sarif'])).toMatch(/--sarif/);
    expect(usageError(['scan', 'https://x.org/', '--sarif', ''])).toMatch(/--sarif needs a file name/);
  });

  it('allows --max-pages on crawls only', () => {
    expect(usageError(['scan', 'https://x.org/', '--max-pages', '5'])).toBe('--max-pages applies to crawl only');
  });

  it('wants whole numbers in range', () => {
    expect(usageError(['crawl', 'https://x.org/', '--max-pages', '0'])).toMatch(/--max-pages must be an integer of 1 or more, got "0"/);
    expect(usageError(['crawl', 'https://x.org/', '--max-pages', '2.5'])).toMatch(/--max-pages must be an integer/);
    expect(usageError(['crawl', 'https://x.org/', '--max-pages', '1e3'])).toMatch(/--max-pages must be an integer/);
    expect(usageError(['scan', 'https://x.org/', '--max-issues', 'ten'])).toMatch(/--max-issues must be an integer of 0 or more/);
    expect(usageError(['scan', 'https://x.org/', '--max-issues=-1'])).toMatch(/--max-issues must be an integer of 0 or more/);
    expect(usageError(['scan', 'https://x.org/', '--timeout', '0'])).toMatch(/--timeout must be a number of seconds above 0/);
    expect(usageError(['scan', 'https://x.org/', '--timeout', 'soon'])).toMatch(/--timeout/);
  });

  it('knows the --fail-on values', () => {
    expect(usageError(['scan', 'https://x.org/', '--fail-on', 'serious,major'])).toMatch(/--fail-on: unknown value "major"; use new, critical, serious, moderate, minor, any/);
    expect(usageError(['scan', 'https://x.org/', '--fail-on', 'serious,'])).toMatch(/--fail-on has an empty value/);
    expect(run(['scan', 'https://x.org/', '--fail-on', ' critical , new ', '--fail-on', 'critical']).failOn).toEqual(['critical', 'new']);
  });
});
