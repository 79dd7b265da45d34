import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';

import type { Metrics } from '../domain/core/metrics';
import { loggerPort } from './powertools-logger';

/**
 * Powertools behind the domain's ports, one instance per execution environment: JSON logs with the
 * request id, metrics in embedded format flushed per invocation, AWS SDK clients traced.
 */
const logger = new PowertoolsLogger();
const metrics = new PowertoolsMetrics();
export const tracer = new Tracer();

/** The Lambda function's logger. */
export const powertoolsLogger = loggerPort(logger);

/** The Metrics port over Powertools' Metrics (EMF). */
export const powertoolsMetrics: Metrics = {
  count: (name, value = 1) => {
    metrics.addMetric(name, MetricUnit.Count, value);
  },
  duration: (name, milliseconds) => {
    metrics.addMetric(name, MetricUnit.Milliseconds, milliseconds);
  },
};

/**
 * Around one invocation: its request id and cold start on every log line, and its metrics written
 * at the end, whether it succeeded or threw (an invocation that recorded none writes nothing).
 */
export async function observeInvocation<R>(context: Context | undefined, run: () => Promise<R>): Promise<R> {
  if (context?.awsRequestId) logger.addContext(context);
  try {
    return await run();
  } finally {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  }
}
