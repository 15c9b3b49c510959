import pkg from '../../package.json' with { type: 'json' };

/** The CLI's version is the package's: SARIF logs and the User-Agent carry it. */
export const VERSION: string = pkg.version;
