import pino from 'pino';

export type Logger = pino.Logger;

/** JSON logs on stdout; every process names itself so mixed logs stay readable. */
export function createLogger(name: string, level: string = 'info'): Logger {
  return pino({ name, level, base: { service: 'a11y-audit', process: name }, timestamp: pino.stdTimeFunctions.isoTime });
}
