import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';

import type { Logger } from '../domain/core/ports';

/*
 * Powertools' Logger alone, apart from `powertools.ts`: the local runtime logs through it without
 * loading the Tracer, whose X-Ray SDK enables an async hook with destroy tracking on import
 * (cls-hooked). Outside Lambda that hook traces nothing and cost the local API about a tenth of its
 * CPU under load (issue 11, profiled at 100 requests/s).
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
