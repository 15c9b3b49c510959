/** The CLI's version is the package's: SARIF logs and the User-Agent carry it. */
export { VERSION } from '../shared/version.ts';
