import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';

import type { Logger } from '../domain/core/ports';

/*
 * Powertools' Logger alone, so that the local runtime logs without loading the Tracer, whose X-Ray
 * SDK installs an async hook on import that traces nothing outside Lambda and costs CPU under load.
 */

/** The Logger port over a Powertools Logger. */
export const loggerPort = (target: PowertoolsLogger): Logger => ({
  info: (message, facts = {}) => target.info(message, facts),
  warn: (message, facts = {}) => target.warn(message, facts),
  error: (message, facts = {}) => target.error(message, facts),
});

/** A logger for a process outside Lambda (the local runtime), JSON lines like in Lambda. */
export const processLogger = (serviceName: string): Logger =>
  loggerPort(new PowertoolsLogger({ serviceName, logLevel: 'INFO' }));
