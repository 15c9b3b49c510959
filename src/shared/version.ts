import pkg from '../../package.json' with { type: 'json' };

/** The service's version (the package's): the CLI's SARIF logs and User-Agent, and reports, carry it. */
export const VERSION: string = pkg.version;
