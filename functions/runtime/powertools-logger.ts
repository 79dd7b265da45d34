import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';

import type { Logger } from '../domain/core/ports';

/*
 * Powertools' Logger alone, so that the local runtime logs without loading the Tracer, whose X-Ray
 * SDK installs an async hook on import that traces nothing outside Lambda and costs CPU under load.
 */

/** The Logger port over a Powertools Logger. */
export const loggerPort = (target: PowertoolsLogger): Logger => ({
  debug: (message, facts = {}) => target.debug(message, facts),
  info: (message, facts = {}) => target.info(message, facts),
  warn: (message, facts = {}) => target.warn(message, facts),
  error: (message, facts = {}) => target.error(message, facts),
});

/**
 * A logger for a process outside Lambda (the local runtime), JSON lines like in Lambda: INFO
 * unless `LOG_LEVEL` says otherwise (`LOG_LEVEL=debug npm start` shows every scheduler batch).
 */
export const processLogger = (serviceName: string, level = process.env.LOG_LEVEL): Logger =>
  loggerPort(new PowertoolsLogger({ serviceName, logLevel: logLevelOf(level) }));

const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

/** A `LOG_LEVEL` value as Powertools names it; anything else is INFO. */
export const logLevelOf = (level: string | undefined): (typeof LEVELS)[number] =>
  LEVELS.find((known) => known === level?.trim().toUpperCase()) ?? 'INFO';
